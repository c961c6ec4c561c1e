//! Every relative link of the repository's Markdown pages resolves, as GitHub resolves it: the
//! file (or folder) it names exists inside the repository, and a `#anchor` is the anchor of a
//! heading of the page it points into (GitHub's slugs: lower case, punctuation other than `-`
//! and `_` dropped, spaces to `-`; a repeated heading gets `-1`, `-2`...). The pages are every
//! `*.md` file of the checkout outside `target/` and hidden folders: the README, `docs/`,
//! `BENCHMARKS.md`, the READMEs of `examples/` and `functions/`, and the test data's notes.
//!
//! Links in code (fenced blocks and `code spans`) are text, not links, and are not checked;
//! absolute URLs (`https:`, `mailto:`) are left to the reader. The checker is pure std, about a
//! page of Markdown reading: links `[text](target)`, images, reference definitions
//! `[label]: target`, ATX headings (`# ...`) and HTML `id`/`name` anchors. The unit cases at
//! the end hold it to GitHub's rules on small pages, so that a checker that finds nothing cannot
//! pass for one that found nothing wrong.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path};

/// A page: its path relative to the repository root (with `/`), and its text.
type Pages = BTreeMap<String, String>;

/// No page holds what a merge left unresolved: a line that opens or closes a conflict
/// (`<<<<<<< ` or `>>>>>>> `) outside a code block. A merge once committed such lines
/// into docs/decisions.md, and no link check sees them.
#[test]
fn no_page_holds_a_merge_conflict() {
    let mut pages = Pages::new();
    markdown_files(root(), "", &mut pages);
    assert!(pages.len() > 10, "the pages were read: {}", pages.len());
    let mut found = Vec::new();
    for (page, text) in &pages {
        for (n, line) in prose_lines(text) {
            // `=======` alone is also a heading's underline: the two ends are enough
            if line.starts_with("<<<<<<< ") || line.starts_with(">>>>>>> ") {
                found.push(format!("{page}:{n}: {line}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "unresolved merge conflicts:\n{}",
        found.join("\n")
    );
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every `*.md` file under `dir`, skipping hidden entries and the top-level `target/`.
fn markdown_files(dir: &Path, rel: &str, out: &mut Pages) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    for entry in entries {
        let entry = entry.unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || (rel.is_empty() && name == "target") {
            continue;
        }
        let child = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        let kind = entry
            .file_type()
            .unwrap_or_else(|e| panic!("cannot stat {child}: {e}"));
        if kind.is_dir() {
            markdown_files(&entry.path(), &child, out);
        } else if name.ends_with(".md") {
            let text = std::fs::read_to_string(entry.path())
                .unwrap_or_else(|e| panic!("cannot read {child}: {e}"));
            out.insert(child, text);
        }
    }
}

/// The lines of a page outside fenced code blocks, with their 1-based numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let run = |c: char| trimmed.chars().take_while(|&x| x == c).count();
        match fence {
            Some((c, n)) => {
                if indent < 4 && run(c) >= n && trimmed[run(c)..].trim().is_empty() {
                    fence = None;
                }
            }
            None => {
                let opener = ['`', '~'].into_iter().find(|&c| run(c) >= 3);
                match opener {
                    Some(c) if indent < 4 => fence = Some((c, run(c))),
                    _ => out.push((i + 1, line)),
                }
            }
        }
    }
    out
}

/// Blocks of consecutive non-blank prose lines (a code span may cross a line break), as
/// (first line number, text with the breaks kept).
fn blocks(text: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut last = 0;
    for (n, line) in prose_lines(text) {
        if line.trim().is_empty() {
            last = 0;
            continue;
        }
        match out.last_mut() {
            Some((_, block)) if last + 1 == n => {
                block.push('\n');
                block.push_str(line);
            }
            _ => out.push((n, line.to_string())),
        }
        last = n;
    }
    out
}

/// The text with every code span replaced by spaces of the same length (line breaks kept), so
/// that offsets still give line numbers. A backtick run with no closing run of the same length
/// is literal text, as in CommonMark.
fn blank_code_spans(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = chars.clone();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            i += 1;
            continue;
        }
        let open = chars[i..].iter().take_while(|&&c| c == '`').count();
        let mut j = i + open;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '`' {
                let n = chars[j..].iter().take_while(|&&c| c == '`').count();
                if n == open {
                    close = Some(j + n);
                    break;
                }
                j += n;
            } else {
                j += 1;
            }
        }
        match close {
            Some(end) => {
                for c in &mut out[i..end] {
                    if *c != '\n' {
                        *c = ' ';
                    }
                }
                i = end;
            }
            None => i += open,
        }
    }
    out.into_iter().collect()
}

/// The link destinations of a page, with their line numbers: `[text](dest)`, `![alt](dest)`
/// and reference definitions `[label]: dest`.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (first, block) in blocks(text) {
        let block = blank_code_spans(&block);
        let chars: Vec<char> = block.chars().collect();
        let line_of = |at: usize| first + chars[..at].iter().filter(|&&c| c == '\n').count();
        let mut i = 0;
        while i + 1 < chars.len() {
            if chars[i] == ']' && chars[i + 1] == '(' && !(i > 0 && chars[i - 1] == '\\') {
                let start = i + 2;
                let mut depth = 0usize;
                let mut j = start;
                while j < chars.len() {
                    match chars[j] {
                        '(' => depth += 1,
                        ')' if depth == 0 => break,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    j += 1;
                }
                let inside: String = chars[start..j.min(chars.len())].iter().collect();
                let inside = inside.trim();
                let dest = if let Some(rest) = inside.strip_prefix('<') {
                    rest.split('>').next().unwrap_or("").to_string()
                } else {
                    inside.split_whitespace().next().unwrap_or("").to_string()
                };
                out.push((line_of(i), dest));
                i = j;
                continue;
            }
            i += 1;
        }
        for (k, line) in block.lines().enumerate() {
            let t = line.trim_start();
            if line.len() - t.len() > 3 || !t.starts_with('[') {
                continue;
            }
            if let Some(close) = t.find("]:") {
                let label = &t[1..close];
                if !label.is_empty() && !label.contains('[') {
                    let dest = t[close + 2..].split_whitespace().next().unwrap_or("");
                    let dest = dest.trim_start_matches('<').trim_end_matches('>');
                    out.push((first + k, dest.to_string()));
                }
            }
        }
    }
    out.sort_by_key(|(line, _)| *line);
    out
}

/// A heading's text as GitHub renders it for its anchor: links become their text, code spans
/// their content, emphasis marks go with the rest of the punctuation in `slug`.
fn heading_text(raw: &str) -> String {
    let raw = raw.trim();
    // A closing sequence of `#`s, preceded by a space, is not part of the heading.
    let raw = match raw.trim_end_matches('#') {
        t if t.len() < raw.len() && (t.is_empty() || t.ends_with(' ')) => t.trim_end(),
        _ => raw,
    };
    let mut out = String::new();
    let mut rest = raw;
    while let Some(open) = rest.find('[') {
        let Some(mid) = rest[open..].find("](") else {
            break;
        };
        let Some(end) = rest[open + mid..].find(')') else {
            break;
        };
        out.push_str(&rest[..open]);
        out.push_str(&rest[open + 1..open + mid]);
        rest = &rest[open + mid + end + 1..];
    }
    out.push_str(rest);
    out
}

/// GitHub's anchor for a heading: lower case; letters, digits, `-`, `_` and spaces kept, every
/// other character dropped; each space a `-`.
fn slug(text: &str) -> String {
    text.to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a page: one per ATX heading (repeats numbered `-1`, `-2`...), and the `id` and
/// `name` attributes of its HTML.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out: BTreeSet<String> = headings(text).into_iter().map(|(_, _, a)| a).collect();
    for (_, line) in prose_lines(text)
        .into_iter()
        .filter(|(_, l)| l.contains('<'))
    {
        for attr in ["id=\"", "name=\""] {
            let mut rest = line;
            while let Some(at) = rest.find(attr) {
                let value = &rest[at + attr.len()..];
                let end = value.find('"').unwrap_or(value.len());
                out.insert(value[..end].to_string());
                rest = &value[end..];
            }
        }
    }
    out
}

/// `base/rel` made plain (`.` and `..` resolved), or `None` when it climbs out of the root.
fn join(base: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    let start = if rel.starts_with('/') {
        Path::new("")
    } else {
        Path::new(base)
    };
    for c in start.join(rel.trim_start_matches('/')).components() {
        match c {
            Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            Component::ParentDir => {
                parts.pop()?;
            }
            _ => {}
        }
    }
    Some(parts.join("/"))
}

/// `%20` and the other escapes of a link's path.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Every broken relative link of `pages`, one line each: the page and line, the link, and what
/// is missing. `exists` says whether a repository path (a file or folder) exists.
fn broken_links(pages: &Pages, exists: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut anchor_cache: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    let mut out = Vec::new();
    for (page, text) in pages {
        let dir = Path::new(page)
            .parent()
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default();
        for (line, dest) in links(text) {
            let external =
                dest.contains("://") || dest.starts_with("mailto:") || dest.starts_with("tel:");
            if dest.is_empty() || external {
                continue;
            }
            let (path, anchor) = match dest.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (dest.as_str(), None),
            };
            let whence = format!("{page}:{line}: link `{dest}`");
            let target = if path.is_empty() {
                page.clone()
            } else {
                match join(&dir, &percent_decode(path)) {
                    Some(t) => t,
                    None => {
                        out.push(format!("{whence}: leaves the repository"));
                        continue;
                    }
                }
            };
            if !path.is_empty() && !exists(&target) {
                out.push(format!("{whence}: {target} does not exist"));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            let Some(target_text) = pages.get(&target) else {
                out.push(format!(
                    "{whence}: {target} is not a Markdown page, so #{anchor} names no heading"
                ));
                continue;
            };
            let known = anchor_cache
                .entry(
                    pages
                        .get_key_value(&target)
                        .map(|(k, _)| k.as_str())
                        .unwrap_or(""),
                )
                .or_insert_with(|| anchors(target_text));
            if !known.contains(&percent_decode(anchor)) {
                let first = |a: &str| a.split('-').next().unwrap_or("").to_string();
                let near: Vec<&String> = known
                    .iter()
                    .filter(|a| first(a) == first(anchor))
                    .take(3)
                    .collect();
                let hint = if near.is_empty() {
                    String::new()
                } else {
                    format!(" (did you mean {near:?}?)")
                };
                out.push(format!(
                    "{whence}: {target} has no heading with the anchor #{anchor}{hint}"
                ));
            }
        }
    }
    out
}

#[test]
fn every_relative_link_of_the_markdown_pages_resolves() {
    let mut pages = Pages::new();
    markdown_files(root(), "", &mut pages);
    for must in [
        "README.md",
        "docs/behaviour.md",
        "docs/running.md",
        "functions/ipreuse/README.md",
        "BENCHMARKS.md",
    ] {
        assert!(
            pages.contains_key(must),
            "{must} was not among the pages read: {:?}",
            pages.keys()
        );
    }
    let checked: usize = pages.values().map(|t| links(t).len()).sum();
    assert!(
        checked > 50,
        "only {checked} links found in {} pages: the reader lost them",
        pages.len()
    );
    let broken = broken_links(&pages, &|p| root().join(p).exists());
    assert!(
        broken.is_empty(),
        "{} broken links:\n{}",
        broken.len(),
        broken.join("\n")
    );
}

// ---- the checker itself, on small pages ------------------------------------------------------

fn check(pages: &[(&str, &str)], files: &[&str]) -> Vec<String> {
    let pages: Pages = pages
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    let files: BTreeSet<String> = files
        .iter()
        .map(|f| f.to_string())
        .chain(pages.keys().cloned())
        .collect();
    broken_links(&pages, &|p| {
        files.contains(p) || files.iter().any(|f| f.starts_with(&format!("{p}/")))
    })
}

#[test]
fn slugs_follow_github_rules() {
    assert_eq!(slug("Supported IPAM versions"), "supported-ipam-versions");
    assert_eq!(
        slug(&heading_text("Run it with `pre-commit`")),
        "run-it-with-pre-commit"
    );
    assert_eq!(
        slug("Networks shared across namespaces (SPEC §10)"),
        "networks-shared-across-namespaces-spec-10"
    );
    assert_eq!(
        slug("What `ipreuse` does, precisely"),
        "what-ipreuse-does-precisely"
    );
    assert_eq!(slug("snake_case and dash-word"), "snake_case-and-dash-word");
    assert_eq!(slug(&heading_text("[Limits](docs/limits.md) ##")), "limits");
}

#[test]
fn a_repeated_heading_gets_numbered_anchors() {
    let a = anchors("# Title\n## Usage\ntext\n## Usage\n### Usage\n");
    let want: BTreeSet<String> = ["title", "usage", "usage-1", "usage-2"]
        .map(String::from)
        .into();
    assert_eq!(a, want);
}

#[test]
fn a_missing_file_and_a_missing_anchor_are_named_with_page_and_line() {
    let got = check(
        &[
            (
                "README.md",
                "# R\n\nSee [the docs](docs/a.md#gone) and\n[nothing](docs/none.md).\n",
            ),
            (
                "docs/a.md",
                "# A\n\n## Here\n\n[back](../README.md#r), [self](#here), [bad](#there)\n",
            ),
        ],
        &[],
    );
    assert_eq!(
        got,
        [
            "README.md:3: link `docs/a.md#gone`: docs/a.md has no heading with the anchor #gone",
            "README.md:4: link `docs/none.md`: docs/none.md does not exist",
            "docs/a.md:5: link `#there`: docs/a.md has no heading with the anchor #there",
        ]
    );
}

#[test]
fn links_in_code_are_text_and_headings_in_code_are_not_anchors() {
    let page = "# T\n\n```yaml\n# kustomization.yaml\n[x](missing.md)\n```\n\n`[y](missing.md)` and ``a ` [z](missing.md)``\n\n[w](#kustomizationyaml)\n";
    assert_eq!(
        check(&[("p.md", page)], &[]),
        [
            "p.md:10: link `#kustomizationyaml`: p.md has no heading with the anchor #kustomizationyaml"
        ]
    );
}

#[test]
fn folders_files_and_reference_links_resolve_and_the_root_cannot_be_left() {
    let page = "# T\n\n[dir](examples/basic/) [file](src/lib.rs) [url](https://x.example/#y)\n\n[ref]: docs/gone.md\n[up](../outside.md)\n[anchor on code](src/lib.rs#L3)\n";
    assert_eq!(
        check(&[("p.md", page)], &["examples/basic/Kptfile", "src/lib.rs"]),
        [
            "p.md:5: link `docs/gone.md`: docs/gone.md does not exist",
            "p.md:6: link `../outside.md`: leaves the repository",
            "p.md:7: link `src/lib.rs#L3`: src/lib.rs is not a Markdown page, so #L3 names no heading",
        ]
    );
}

// ---- the pages of docs/ ----------------------------------------------------------------------

/// The headings of a page outside code: (level, text, anchor), anchors numbered as GitHub does.
fn headings(text: &str) -> Vec<(usize, String, String)> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::new();
    for (_, line) in prose_lines(text) {
        let t = line.trim_start();
        let level = t.chars().take_while(|&c| c == '#').count();
        let after = &t[level..];
        if line.len() - t.len() <= 3
            && (1..=6).contains(&level)
            && (after.is_empty() || after.starts_with(' '))
        {
            let text = heading_text(after);
            let base = slug(&text);
            let n = seen.entry(base.clone()).or_insert(0);
            let anchor = if *n == 0 {
                base.clone()
            } else {
                format!("{base}-{n}")
            };
            *n += 1;
            out.push((level, text.trim().to_string(), anchor));
        }
    }
    out
}

/// What is wrong with the shape of a reference page: it needs one `#` title on its first line,
/// an introduction before anything else, a `## Contents` that links every `##` section, and no
/// heading more than one level below the one before it.
fn page_shape_problems(page: &str, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let heads = headings(text);
    if !text.starts_with("# ") {
        out.push(format!("{page}: the first line is not a `# ` title"));
    }
    let titles = heads.iter().filter(|h| h.0 == 1).count();
    if titles != 1 {
        out.push(format!("{page}: {titles} `# ` titles, not one"));
    }
    let intro = prose_lines(text)
        .into_iter()
        .skip(1)
        .map(|(_, l)| l.trim())
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if intro.starts_with('#') || intro.starts_with('|') || intro.is_empty() {
        out.push(format!(
            "{page}: no introduction between the title and `{intro}`"
        ));
    }
    for w in heads.windows(2) {
        if w[1].0 > w[0].0 + 1 {
            out.push(format!(
                "{page}: heading `{}` (level {}) right under `{}` (level {})",
                w[1].1, w[1].0, w[0].1, w[0].0
            ));
        }
    }
    let Some(start) = text.find("\n## Contents\n") else {
        out.push(format!("{page}: no `## Contents`"));
        return out;
    };
    let contents = &text[start + 1..];
    let contents = &contents[..contents[1..].find("\n#").map_or(contents.len(), |e| e + 1)];
    let listed: BTreeSet<String> = links(contents).into_iter().map(|(_, d)| d).collect();
    for (level, title, anchor) in &heads {
        if *level == 2 && title != "Contents" && !listed.contains(&format!("#{anchor}")) {
            out.push(format!(
                "{page}: `## Contents` does not link the section `{title}` (#{anchor})"
            ));
        }
    }
    out
}

#[test]
fn every_docs_page_has_a_title_an_introduction_and_contents_linking_each_section() {
    let mut pages = Pages::new();
    markdown_files(&root().join("docs"), "docs", &mut pages);
    assert!(pages.len() >= 8, "the docs/ pages: {:?}", pages.keys());
    let problems: Vec<String> = pages
        .iter()
        .flat_map(|(p, t)| page_shape_problems(p, t))
        .collect();
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn a_page_without_contents_intro_or_with_a_section_missing_is_named() {
    assert_eq!(
        page_shape_problems("a.md", "# A\n\n## Contents\n\n- [B](#b)\n\n## B\n\n## C\n"),
        [
            "a.md: no introduction between the title and `## Contents`",
            "a.md: `## Contents` does not link the section `C` (#c)",
        ]
    );
    assert_eq!(
        page_shape_problems("b.md", "# B\n\nIntro.\n\n### Deep\n"),
        [
            "b.md: heading `Deep` (level 3) right under `B` (level 1)",
            "b.md: no `## Contents`",
        ]
    );
    assert!(
        page_shape_problems(
            "c.md",
            "# C\n\nIntro.\n\n## Contents\n\n- [D](#d)\n\n## D\n\n### E\n"
        )
        .is_empty()
    );
}
