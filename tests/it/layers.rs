//! No import cycle in the product code: not between top-level modules, not between files.
//!
//! The test reads `src/**/*.rs` as text, leaves out test code (files named `tests.rs` or
//! `tests_*.rs`, files under a `tests/` folder, files and items marked `#[cfg(test)]`), and
//! resolves every path that names a module of the crate to the file that defines it: `use` trees
//! (groups, globs, `self`, aliases), and the paths in the code itself that start with `crate::`,
//! `super::`, `self::`, a child module or a name a `use` brought in. A path leads to the file of
//! its longest prefix that is a module (`crate::model::host::Host` to `src/model/host.rs`,
//! `crate::model::Indexed` to `src/model/mod.rs`). Declaring a child (`mod x;`) is not an import,
//! and neither is a re-export (`pub use`) of a name the file does not use itself: a name a module
//! re-exports leads on to the file that defines it, which is what the code that names it depends
//! on.
//! The binary (`src/main.rs` and the modules it declares) is a crate of its own; its paths into
//! the library (`ipreuse::…`) lead to the library's files.
//!
//! Each cycle is printed as the strongly connected set of files (or modules) with the names on
//! each edge inside it, so that the message says which import to move. The layer order the test
//! keeps is in docs/design.md ("Layers").

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The library crate's name, as the binary writes paths into it.
const LIB: &str = "ipreuse";

#[test]
fn no_cycle_between_top_level_modules_or_files() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = Graph::read(&src);
    assert!(
        graph.files.len() > 50,
        "the product's files were read: {}",
        graph.files.len()
    );
    let mut report = String::new();
    for cycle in graph.cycles(Level::TopLevel) {
        report.push_str(&format!("modules: {cycle}\n"));
    }
    for cycle in graph.cycles(Level::File) {
        report.push_str(&format!("files: {cycle}\n"));
    }
    assert!(report.is_empty(), "import cycles:\n{report}");
}

/// The resolver on a made-up tree: it must see every kind of path the product uses, see through
/// comments, strings and test code, and find the cycles planted in it.
#[test]
fn the_resolver_finds_the_planted_cycles_and_ignores_test_code() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("src");
    let write = |path: &str, text: &str| {
        let path = src.join(path);
        fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        fs::write(path, text).expect("write");
    };
    write(
        "lib.rs",
        "pub mod a;\npub mod b;\npub mod c;\npub mod d;\n#[cfg(test)]\nmod helper;\npub type Map = u8;\n",
    );
    // a/mod.rs -> b (group with a nested path); a/mod.rs -> a/inner.rs (child, inline path,
    // although a function of c is brought in under the child's name).
    write(
        "a/mod.rs",
        "mod inner;\nuse crate::{b::{Bee, other}, Map};\nuse crate::c::make as inner;\n\
         pub struct Ay;\npub fn f() -> u8 { inner::g() }\n",
    );
    // a/inner.rs -> c.rs through super::super and a `use` alias used inline.
    write(
        "a/inner.rs",
        "use super::super::c as sea;\npub fn g() -> u8 { sea::Sea::new() }\n\
         // crate::d::Dee in a comment is no import\nconst S: &str = \"crate::d::Dee\";\n\
         const R: &str = r#\"crate::d::Dee \"quoted\"\"#;\nfn h<'a>(x: &'a str) -> char { 'x' }\n",
    );
    // b.rs -> a/inner.rs inline (ties the top-level cycle a <-> b and the file cycle
    // a/mod.rs -> b.rs -> a/inner.rs? no: inner does not reach b; a/mod.rs <-> b.rs below).
    write(
        "b.rs",
        "pub struct Bee;\npub mod other {}\nfn k() { let _ = crate::a::Ay; }\n\
         pub(crate) use crate::c::Sea as Seab;\n\
         #[cfg(test)]\nmod tests { use crate::d::Dee; }\n",
    );
    // c.rs -> nothing in the crate but std; its test-only import of b must not count.
    write(
        "c.rs",
        "use std::collections::HashMap;\npub struct Sea;\nimpl Sea { pub fn new() -> u8 { 0 } }\n\
         pub fn make() {}\n\
         #[cfg(test)]\nfn only_in_tests() { let _ = crate::b::Bee; }\n",
    );
    // d.rs -> c.rs through `self` in a group, an alias of the module, and b's re-export of
    // c's `Sea` (which ties d to c, not to b; b's `pub use` ties b to nothing); d -> b through a
    // re-export d uses itself.
    write(
        "d.rs",
        "use crate::c::{self};\npub struct Dee(c::Sea);\nfn e(_: crate::b::Seab) {}\n\
         pub use crate::b::Bee;\nfn z(_: Bee) {}\n",
    );
    // Test files import everything; none of it counts.
    write("a/tests.rs", "use crate::d::Dee;\n");
    write("a/tests_more.rs", "use crate::d::Dee;\n");
    write("c/tests/deep.rs", "use crate::d::Dee;\n");
    write("helper.rs", "use crate::d::Dee;\n");
    // The binary: its root -> its cli module -> the library's d.rs.
    write("main.rs", "mod cli;\nfn main() { cli::run(); }\n");
    write("cli/mod.rs", "use ipreuse::d::Dee;\npub fn run() {}\n");

    let graph = Graph::read(&src);
    let files: Vec<&str> = graph.files.keys().map(String::as_str).collect();
    assert_eq!(
        files,
        [
            "a/inner.rs",
            "a/mod.rs",
            "b.rs",
            "c.rs",
            "cli/mod.rs",
            "d.rs",
            "lib.rs",
            "main.rs"
        ]
    );
    let edges: Vec<String> = graph
        .edges(Level::File)
        .iter()
        .map(|((from, to), names)| format!("{from} -> {to}: {}", join(names)))
        .collect();
    assert_eq!(
        edges,
        [
            "a/inner.rs -> c.rs: Sea, c",
            "a/mod.rs -> a/inner.rs: g",
            "a/mod.rs -> b.rs: Bee, other",
            "a/mod.rs -> c.rs: make",
            "a/mod.rs -> lib.rs: Map",
            "b.rs -> a/mod.rs: Ay",
            "cli/mod.rs -> d.rs: Dee",
            "d.rs -> b.rs: Bee",
            "d.rs -> c.rs: Sea, c",
            "main.rs -> cli/mod.rs: run",
        ]
    );
    let files = graph.cycles(Level::File);
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(
        files[0].to_string(),
        "a/mod.rs, b.rs (a/mod.rs -> b.rs: Bee, other; b.rs -> a/mod.rs: Ay)"
    );
    let modules = graph.cycles(Level::TopLevel);
    assert_eq!(modules.len(), 1, "{modules:?}");
    assert_eq!(
        modules[0].to_string(),
        "a, b (a -> b: Bee, other; b -> a: Ay)"
    );
}

/// What a node of the graph is.
#[derive(Clone, Copy)]
enum Level {
    /// A file under `src/`.
    File,
    /// A top-level module of a crate (`model`, `yaml`), or a crate's root file.
    TopLevel,
}

/// A module: its crate (`false` the library, `true` the binary) and its path in it.
type Module = (bool, Vec<String>);

/// The product's files and the names each one takes from the others.
struct Graph {
    /// Every product file (its path under `src/`) and its module.
    files: BTreeMap<String, Module>,
    /// Module -> the file that defines it.
    modules: BTreeMap<Module, String>,
    /// (module, name) -> what the module re-exports under that name (`pub use`).
    reexports: BTreeMap<(Module, String), Module>,
    /// (from file, to file) -> the names taken.
    imports: BTreeMap<(String, String), BTreeSet<String>>,
}

impl Graph {
    fn read(src: &Path) -> Graph {
        let mut paths = Vec::new();
        walk(src, &mut paths);
        let mut texts = BTreeMap::new();
        for path in paths {
            let rel = path
                .strip_prefix(src)
                .expect("under src")
                .to_string_lossy()
                .replace('\\', "/");
            let name = rel.rsplit('/').next().unwrap_or(&rel);
            let test_file = name == "tests.rs"
                || (name.starts_with("tests_") && name.ends_with(".rs"))
                || rel.split('/').rev().skip(1).any(|dir| dir == "tests");
            if !test_file && rel.ends_with(".rs") {
                texts.insert(rel, fs::read_to_string(&path).expect("read a source file"));
            }
        }
        // The binary's own top-level modules: those `main.rs` declares.
        let bin_tops: BTreeSet<String> = texts
            .get("main.rs")
            .map(|text| {
                let tokens = without_test_code(&tokenize(text)).0;
                declared_modules(&tokens)
            })
            .unwrap_or_default();
        let module_of = |rel: &str| -> Module {
            let stem = rel.trim_end_matches(".rs");
            let mut segments: Vec<String> = stem.split('/').map(str::to_string).collect();
            if matches!(
                segments.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                segments.pop();
            }
            let bin = rel == "main.rs" || segments.first().is_some_and(|s| bin_tops.contains(s));
            (bin, segments)
        };
        let mut tokens_of = BTreeMap::new();
        let mut test_modules = BTreeSet::new();
        for (rel, text) in &texts {
            let (tokens, test_only) = without_test_code(&tokenize(text));
            let module = module_of(rel);
            if test_only {
                test_modules.insert(module.clone());
            }
            for name in without_test_code_declared(&tokenize(text)) {
                let mut child = module.clone();
                child.1.push(name);
                test_modules.insert(child);
            }
            tokens_of.insert(rel.clone(), tokens);
        }
        let is_test = |module: &Module| {
            (0..=module.1.len()).any(|n| test_modules.contains(&(module.0, module.1[..n].to_vec())))
        };
        let mut files = BTreeMap::new();
        let mut modules = BTreeMap::new();
        for rel in texts.keys() {
            let module = module_of(rel);
            if !is_test(&module) {
                modules.insert(module.clone(), rel.clone());
                files.insert(rel.clone(), module);
            }
        }
        let mut graph = Graph {
            files,
            modules,
            reexports: BTreeMap::new(),
            imports: BTreeMap::new(),
        };
        let files: Vec<(String, Module)> = graph
            .files
            .iter()
            .map(|(f, m)| (f.clone(), m.clone()))
            .collect();
        for (rel, module) in &files {
            for (name, target) in reexports(&tokens_of[rel], module, &graph) {
                graph.reexports.insert((module.clone(), name), target);
            }
        }
        for (rel, module) in files {
            let tokens = &tokens_of[&rel];
            let aliases = aliases(tokens, &module, &graph);
            for path in paths_in(tokens) {
                graph.resolve(&rel, &module, &path, &aliases);
            }
        }
        graph
    }

    /// Adds the edge of one path written in `file` (of `module`).
    fn resolve(
        &mut self,
        file: &str,
        module: &Module,
        path: &[String],
        aliases: &BTreeMap<String, Module>,
    ) {
        let Some(absolute) = self.absolute(module, path, aliases) else {
            return;
        };
        let Some((target, names)) = self.file_of(&absolute) else {
            return;
        };
        if target != file {
            self.imports
                .entry((file.to_string(), target))
                .or_default()
                .insert(names);
        }
    }

    /// The absolute module path a path written in `module` means, or `None` for another crate's.
    fn absolute(
        &self,
        module: &Module,
        path: &[String],
        aliases: &BTreeMap<String, Module>,
    ) -> Option<Module> {
        let (bin, here) = module;
        let first = path.first()?;
        let mut rest = &path[1..];
        let mut base: Module = match first.as_str() {
            "crate" => (*bin, Vec::new()),
            "self" => module.clone(),
            "super" => {
                let mut up = here.clone();
                up.pop();
                while rest.first().map(String::as_str) == Some("super") {
                    up.pop();
                    rest = &rest[1..];
                }
                (*bin, up)
            }
            LIB if *bin => (false, Vec::new()),
            // A child module first: a path's first segment is in the type namespace, where a
            // `use` of a function of the same name does not reach.
            name => {
                let mut child = module.clone();
                child.1.push(name.to_string());
                if self.modules.contains_key(&child) {
                    child
                } else {
                    aliases.get(name)?.clone()
                }
            }
        };
        base.1.extend(rest.iter().filter(|s| *s != "self").cloned());
        Some(base)
    }

    /// The file of the longest prefix of `path` that is a module, with the name after it; a
    /// name the module re-exports leads on to the file that defines it.
    fn file_of(&self, path: &Module) -> Option<(String, String)> {
        self.file_of_within(path, 0)
    }

    fn file_of_within(&self, path: &Module, hops: usize) -> Option<(String, String)> {
        for n in (0..=path.1.len()).rev() {
            let prefix = (path.0, path.1[..n].to_vec());
            if let Some(file) = self.modules.get(&prefix) {
                if let Some(name) = path.1.get(n)
                    && let Some(target) = self.reexports.get(&(prefix.clone(), name.clone()))
                    && hops < 16
                {
                    let mut on = target.clone();
                    on.1.extend(path.1[n + 1..].iter().cloned());
                    return self.file_of_within(&on, hops + 1);
                }
                let names = match path.1.get(n) {
                    Some(name) => name.clone(),
                    None => path.1.last().cloned().unwrap_or_else(|| "crate".into()),
                };
                return Some((file.clone(), names));
            }
        }
        None
    }

    fn node(&self, file: &str, level: Level) -> String {
        match level {
            Level::File => file.to_string(),
            Level::TopLevel => {
                let (bin, module) = &self.files[file];
                match module.first() {
                    Some(top) => top.clone(),
                    None if *bin => "main.rs".into(),
                    None => "lib.rs".into(),
                }
            }
        }
    }

    fn edges(&self, level: Level) -> BTreeMap<(String, String), BTreeSet<String>> {
        let mut edges: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
        for ((from, to), names) in &self.imports {
            let (a, b) = (self.node(from, level), self.node(to, level));
            if a != b {
                edges
                    .entry((a, b))
                    .or_default()
                    .extend(names.iter().cloned());
            }
        }
        edges
    }

    /// Each set of nodes that reach one another, with the edges between them.
    fn cycles(&self, level: Level) -> Vec<Cycle> {
        let edges = self.edges(level);
        let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (a, b) in edges.keys() {
            next.entry(a).or_default().push(b);
            next.entry(b).or_default();
        }
        let reach = |from: &str| -> BTreeSet<String> {
            let mut seen = BTreeSet::new();
            let mut stack = vec![from.to_string()];
            while let Some(node) = stack.pop() {
                for n in next.get(node.as_str()).into_iter().flatten() {
                    if seen.insert(n.to_string()) {
                        stack.push(n.to_string());
                    }
                }
            }
            seen
        };
        let reaches: BTreeMap<&str, BTreeSet<String>> =
            next.keys().map(|n| (*n, reach(n))).collect();
        let mut done = BTreeSet::new();
        let mut cycles = Vec::new();
        for node in next.keys() {
            if done.contains(*node) || !reaches[node].contains(*node) {
                continue;
            }
            let members: BTreeSet<String> = reaches[node]
                .iter()
                .filter(|other| reaches[other.as_str()].contains(*node))
                .cloned()
                .collect();
            done.extend(members.iter().cloned());
            let ties = edges
                .iter()
                .filter(|((a, b), _)| members.contains(a) && members.contains(b))
                .map(|((a, b), names)| format!("{a} -> {b}: {}", join(names)))
                .collect();
            cycles.push(Cycle { members, ties });
        }
        cycles
    }
}

/// One strongly connected set and the imports that tie it.
#[derive(Debug)]
struct Cycle {
    members: BTreeSet<String>,
    ties: Vec<String>,
}

impl std::fmt::Display for Cycle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let members: Vec<&str> = self.members.iter().map(String::as_str).collect();
        write!(f, "{} ({})", members.join(", "), self.ties.join("; "))
    }
}

fn join(names: &BTreeSet<String>) -> String {
    names
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .expect("read a source folder")
        .map(|e| e.expect("a folder entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Ident(String),
    /// `::`
    Colons,
    Punct(char),
}

/// The identifiers and punctuation of Rust source, without comments, strings and chars.
fn tokenize(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == '"' {
            i = skip_string(&chars, i + 1);
        } else if (c == 'r' || c == 'b' || c == 'c')
            && !at(i.wrapping_sub(1)).is_alphanumeric()
            && raw_string_start(&chars, i).is_some()
        {
            let (hashes, quote) = raw_string_start(&chars, i).unwrap_or((0, i));
            if hashes == usize::MAX {
                i = skip_string(&chars, quote + 1);
            } else {
                i = quote + 1;
                while i < chars.len() {
                    if chars[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#') {
                        i += hashes + 1;
                        break;
                    }
                    i += 1;
                }
            }
        } else if c == '\'' {
            if at(i + 1) == '\\' {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                i += 1; // a lifetime: its name is an identifier
            }
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            if word == "r" && at(i) == '#' {
                i += 1; // a raw identifier
                continue;
            }
            tokens.push(Token::Ident(word));
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
        } else if c == ':' && at(i + 1) == ':' {
            tokens.push(Token::Colons);
            i += 2;
        } else {
            if !c.is_whitespace() {
                tokens.push(Token::Punct(c));
            }
            i += 1;
        }
    }
    tokens
}

/// After an opening `"`: the index after the closing one.
fn skip_string(chars: &[char], mut i: usize) -> usize {
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

/// At `r"`, `r#"`, `br"`, `b"`, `c"`, `cr#"`: (the number of `#`, or `usize::MAX` for an escaped
/// string, and the index of the opening quote).
fn raw_string_start(chars: &[char], i: usize) -> Option<(usize, usize)> {
    let mut j = i;
    if matches!(chars.get(j), Some('b' | 'c')) {
        j += 1;
    }
    let raw = chars.get(j) == Some(&'r');
    if raw {
        j += 1;
    }
    let mut hashes = 0;
    while raw && chars.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    if chars.get(j) != Some(&'"') || j == i {
        return None;
    }
    Some((if raw { hashes } else { usize::MAX }, j))
}

fn ident(token: Option<&Token>) -> Option<&str> {
    match token {
        Some(Token::Ident(s)) => Some(s),
        _ => None,
    }
}

/// Whether tokens `[i..]` are an attribute `#[cfg(test)]` (or `#![cfg(test)]`): its length.
fn cfg_test_at(tokens: &[Token], i: usize) -> Option<(usize, bool)> {
    let inner = tokens.get(i + 1) == Some(&Token::Punct('!'));
    let start = if inner { i + 2 } else { i + 1 };
    let want = [
        Token::Punct('['),
        Token::Ident("cfg".into()),
        Token::Punct('('),
        Token::Ident("test".into()),
        Token::Punct(')'),
        Token::Punct(']'),
    ];
    (tokens.get(i) == Some(&Token::Punct('#'))
        && tokens.get(start..start + want.len()) == Some(&want[..]))
    .then_some((start + want.len() - i, inner))
}

/// The tokens without the items marked `#[cfg(test)]`, and whether the whole file is test code.
fn without_test_code(tokens: &[Token]) -> (Vec<Token>, bool) {
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        match cfg_test_at(tokens, i) {
            Some((_, true)) => return (Vec::new(), true),
            Some((len, false)) => i = skip_item(tokens, i + len),
            None => {
                out.push(tokens[i].clone());
                i += 1;
            }
        }
    }
    (out, false)
}

/// The modules declared `#[cfg(test)] mod x;`: test code wherever their files are.
fn without_test_code_declared(tokens: &[Token]) -> Vec<String> {
    let mut names = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if let Some((len, false)) = cfg_test_at(tokens, i) {
            let end = skip_item(tokens, i + len);
            names.extend(declared_modules(&tokens[i + len..end]));
            i = end;
        } else {
            i += 1;
        }
    }
    names
}

/// From the start of an item (after an attribute): the index after it.
fn skip_item(tokens: &[Token], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < tokens.len() {
        match &tokens[i] {
            Token::Punct('#') if depth == 0 && tokens.get(i + 1) == Some(&Token::Punct('[')) => {
                // another attribute of the same item
                i += 1;
                let mut d = 0usize;
                while i < tokens.len() {
                    match tokens[i] {
                        Token::Punct('[') => d += 1,
                        Token::Punct(']') => {
                            d -= 1;
                            if d == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            Token::Punct('(' | '[') => depth += 1,
            Token::Punct(')' | ']') => depth = depth.saturating_sub(1),
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            Token::Punct(';') if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    i
}

/// The `mod x;` declarations (not inline modules) among the tokens.
fn declared_modules(tokens: &[Token]) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (i, token) in tokens.iter().enumerate() {
        if token == &Token::Ident("mod".into())
            && let Some(name) = ident(tokens.get(i + 1))
            && tokens.get(i + 2) == Some(&Token::Punct(';'))
        {
            names.insert(name.to_string());
        }
    }
    names
}

/// Every path in the tokens: each leaf of each `use` tree, and each path of two segments or more
/// elsewhere.
fn paths_in(tokens: &[Token]) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if ident(tokens.get(i)) == Some("use") {
            let mut j = i + 1;
            let mut leaves = Vec::new();
            use_tree(tokens, &mut j, Vec::new(), &mut leaves);
            // A re-export is an import too where the file itself uses the name.
            let public = is_pub(tokens, i);
            paths.extend(
                leaves
                    .into_iter()
                    .filter(|(_, bound)| !public || used_outside_use(tokens, bound))
                    .map(|(path, _bound)| path),
            );
            i = j;
            continue;
        }
        // A path in the code: `a::b::c`, not preceded by `::` (that is the middle of one).
        if let Some(first) = ident(tokens.get(i))
            && tokens.get(i + 1) == Some(&Token::Colons)
            && (i == 0 || tokens[i - 1] != Token::Colons)
        {
            let mut path = vec![first.to_string()];
            let mut j = i + 1;
            while tokens.get(j) == Some(&Token::Colons) {
                match ident(tokens.get(j + 1)) {
                    Some(next) => path.push(next.to_string()),
                    None => break, // `::<T>` or `::{`
                }
                j += 2;
            }
            paths.push(path);
            i = j;
            continue;
        }
        i += 1;
    }
    paths
}

/// Whether the file names `name` outside its `use` items.
fn used_outside_use(tokens: &[Token], name: &str) -> bool {
    let mut i = 0;
    while i < tokens.len() {
        if ident(tokens.get(i)) == Some("use") {
            let mut j = i + 1;
            use_tree(tokens, &mut j, Vec::new(), &mut Vec::new());
            i = j;
        } else {
            // `mod name;` declares the module, it does not use it.
            let declared = i > 0 && ident(tokens.get(i - 1)) == Some("mod");
            if ident(tokens.get(i)) == Some(name) && !declared {
                return true;
            }
            i += 1;
        }
    }
    false
}

/// Whether the `use` at `i` is `pub use` or `pub(…) use`: a re-export.
fn is_pub(tokens: &[Token], i: usize) -> bool {
    let pub_at = |j: Option<usize>| j.and_then(|j| ident(tokens.get(j))) == Some("pub");
    pub_at(i.checked_sub(1))
        || (tokens.get(i.wrapping_sub(1)) == Some(&Token::Punct(')'))
            && pub_at(i.checked_sub(4))
            && tokens.get(i - 3) == Some(&Token::Punct('(')))
}

/// The names a file re-exports (`pub use`), with what each stands for.
fn reexports(tokens: &[Token], module: &Module, graph: &Graph) -> BTreeMap<String, Module> {
    bindings(tokens, module, graph, true)
}

/// Reads a `use` tree from `tokens[*i..]`; pushes each leaf path with the name it binds.
fn use_tree(
    tokens: &[Token],
    i: &mut usize,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, String)>,
) {
    let mut path = prefix;
    if tokens.get(*i) == Some(&Token::Colons) {
        *i += 1;
    }
    loop {
        match tokens.get(*i) {
            Some(Token::Ident(name)) => {
                path.push(name.clone());
                *i += 1;
                if tokens.get(*i) == Some(&Token::Colons) {
                    *i += 1;
                    continue;
                }
                let mut bound = name.clone();
                if ident(tokens.get(*i)) == Some("as") {
                    bound = ident(tokens.get(*i + 1)).unwrap_or("_").to_string();
                    *i += 2;
                }
                if bound == "self" {
                    path.pop();
                    bound = path.last().cloned().unwrap_or_default();
                }
                out.push((path, bound));
                break;
            }
            Some(Token::Punct('*')) => {
                *i += 1;
                out.push((path, String::new()));
                break;
            }
            Some(Token::Punct('{')) => {
                *i += 1;
                loop {
                    match tokens.get(*i) {
                        Some(Token::Punct('}')) | None => {
                            *i += 1;
                            break;
                        }
                        Some(Token::Punct(',')) => *i += 1,
                        _ => {
                            let before = *i;
                            use_tree(tokens, i, path.clone(), out);
                            if *i == before {
                                *i += 1;
                            }
                        }
                    }
                }
                break;
            }
            _ => break,
        }
    }
    if tokens.get(*i) == Some(&Token::Punct(';')) {
        *i += 1;
    }
}

/// The names the file's `use` items bring in that are modules or items of the crate, with what
/// they stand for.
fn aliases(tokens: &[Token], module: &Module, graph: &Graph) -> BTreeMap<String, Module> {
    bindings(tokens, module, graph, false)
}

/// The names the file's `use` items (only its `pub use` items, with `only_pub`) bind to modules
/// or items of the crate, with what each stands for.
fn bindings(
    tokens: &[Token],
    module: &Module,
    graph: &Graph,
    only_pub: bool,
) -> BTreeMap<String, Module> {
    let mut out = BTreeMap::new();
    let mut i = 0;
    while i < tokens.len() {
        if ident(tokens.get(i)) == Some("use") {
            let mut j = i + 1;
            let mut leaves = Vec::new();
            use_tree(tokens, &mut j, Vec::new(), &mut leaves);
            if !only_pub || is_pub(tokens, i) {
                for (path, bound) in leaves {
                    if bound.is_empty() || bound == "_" {
                        continue;
                    }
                    if let Some(target) = graph.absolute(module, &path, &BTreeMap::new()) {
                        out.insert(bound, target);
                    }
                }
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}
