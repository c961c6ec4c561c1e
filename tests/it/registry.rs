//! One reader per kind, registered in one place (issue 24): every reader of an item's tree in
//! `src/model/` (a `read` function of a type that takes a `View`) is called by the model's
//! registry (`src/model/registry.rs`, the kinds a transformation reads) or by the index
//! (`src/model/index.rs`: identities, hosts, pools, endpoints), and by no other product code.
//! A kind whose reader is written but not registered would read as nothing, with no error:
//! this test fails instead, naming the type.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// The files that may call a reader.
const CALLERS: [&str; 2] = ["model/registry.rs", "model/index.rs"];

#[test]
fn every_reader_is_registered_and_called_only_by_the_model() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = BTreeMap::new();
    read_all(&src, &src, &mut files);
    let readers = readers(&files);
    for kind in [
        "Host",
        "Pool",
        "IpClaim",
        "DataTemplate",
        "ClusterClass",
        "Provider",
    ] {
        assert!(
            readers.contains_key(kind),
            "{kind} has a reader: {readers:?}"
        );
    }
    let problems = check(&files);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The check on made-up sources: a reader nobody registers and one called from a
/// transformation are both reported; a registered one is not.
#[test]
fn an_unregistered_reader_fails_the_check() {
    let files: BTreeMap<String, String> = [
        ("model/a.rs", "impl A {\n    pub(super) fn read(o: &Object, v: View<'_>) -> A {}\n}\n"),
        (
            "model/b.rs",
            "impl B {\n    pub(super) fn read(\n        o: &Object,\n        v: View<'_>,\n    ) -> B {}\n    fn name(&self) {}\n}\n#[cfg(test)]\nmod tests {\n    fn t() { C::read(x) }\n}\n",
        ),
        ("model/c.rs", "impl C {\n    pub fn read(o: &Object, v: View<'_>) -> C {}\n}\n"),
        ("model/d.rs", "impl D {\n    pub fn read(text: &str) -> D {}\n}\n"),
        ("model/registry.rs", "const KINDS = [B::read(o, v), C::read(o, v)];\n"),
        ("transform/x.rs", "fn f() { C::read(o, v); D::read(t); }\n"),
    ]
    .into_iter()
    .map(|(p, t)| (p.to_string(), t.to_string()))
    .collect();
    let found = readers(&files);
    assert_eq!(found.keys().collect::<Vec<_>>(), ["A", "B", "C"]);
    let problems = check(&files);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("A::read") && problems[0].contains("not registered"));
    assert!(problems[1].contains("C::read") && problems[1].contains("transform/x.rs"));
}

/// Every problem: readers not called by the registry or the index, and readers called by
/// another product file.
fn check(files: &BTreeMap<String, String>) -> Vec<String> {
    let mut problems = Vec::new();
    for (kind, file) in readers(files) {
        let call = format!("{kind}::read(");
        let registered = CALLERS
            .iter()
            .any(|c| files.get(*c).is_some_and(|t| product(t).contains(&call)));
        if !registered {
            problems.push(format!(
                "{call}…) in src/{file} is not registered: add the kind to KINDS in \
                 src/model/registry.rs, which calls every reader"
            ));
        }
        for (other, text) in files {
            if !CALLERS.contains(&other.as_str()) && other != &file && product(text).contains(&call)
            {
                problems.push(format!(
                    "src/{other} calls {call}…): only the model reads items (take the kind \
                     from the Model instead)"
                ));
            }
        }
    }
    problems
}

/// The readers of the model's files: type name → file, for each `impl T` holding a
/// `fn read(` whose parameters take a `View`.
fn readers(files: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (path, text) in files.iter().filter(|(p, _)| p.starts_with("model/")) {
        let text = product(text);
        let mut impl_name: Option<&str> = None;
        let mut lines = text.lines().peekable();
        while let Some(line) = lines.next() {
            if let Some(rest) = line.strip_prefix("impl ") {
                impl_name = rest.split([' ', '<', '{']).next();
            }
            if let Some(at) = line.find("fn read(") {
                // the signature runs to the line that opens the body
                let mut signature = line[at..].to_string();
                while !signature.contains('{') {
                    match lines.next() {
                        Some(more) => signature.push_str(more),
                        None => break,
                    }
                }
                if signature.contains("View<")
                    && line.starts_with("    ")
                    && let Some(name) = impl_name
                {
                    out.insert(name.to_string(), path.clone());
                }
            }
        }
    }
    out
}

/// The product code of a file: what comes before its `#[cfg(test)]` tests module.
fn product(text: &str) -> &str {
    match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    }
}

/// Every product `.rs` file under `dir`, by its path from `src/` (test files left out).
fn read_all(src: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
    for entry in fs::read_dir(dir).expect("readable").flatten() {
        let path = entry.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if name != "tests" {
                read_all(src, &path, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" && !name.starts_with("tests_") {
            let key = path
                .strip_prefix(src)
                .expect("under src")
                .to_string_lossy()
                .replace('\\', "/");
            out.insert(key, fs::read_to_string(&path).expect("text"));
        }
    }
}
