//! Messages written for people (issue 34, acceptance 2): every result's first sentence says what
//! is wrong and what to do, in a Metal3 operator's words, under 160 characters, with the detail
//! after it; it does not repeat the object or the field the result already names; and no
//! message cites rule numbers, SPEC sections or the code's own terms.
//!
//! [`super::run_sources`] holds every outcome to these rules, so every test that runs the
//! function through the shared helpers checks every message it produces, whatever it asserts
//! itself; `tests/it/messages.rs` holds the examples' results to them too.

use ipreuse::results::Finding;

/// The longest first sentence, in characters.
pub const FIRST_SENTENCE: usize = 160;

/// Words of the code that a person running ipreuse does not know, with what to say instead.
const INTERNAL: [(&str, &str); 6] = [
    (
        "(rule ",
        "say what the rule is about (\"a gateway\", \"the config's reserve\")",
    ),
    (
        "SPEC §",
        "link the docs (docs/behaviour.md) instead of the spec's sections",
    ),
    ("the walk", "say \"the addresses the IPAM hands out\""),
    ("IPAM's walk", "say \"the addresses the IPAM hands out\""),
    ("walk position", "say \"position in the pool\""),
    ("candidates", "say \"the pool's addresses\""),
];

/// The message's first sentence: up to the first `. ` (or the end).
pub fn first_sentence(message: &str) -> &str {
    let mut from = 0;
    while let Some(i) = message[from..].find(". ") {
        let at = from + i;
        // Not the dot of a number, an address or a file name (`1.5`, `10.0.0.1. `): a sentence
        // ends at a dot followed by a space and an upper-case letter or a quote.
        let next = message[at + 2..].chars().next();
        if next.is_some_and(|c| c.is_uppercase() || c == '"' || c == '`') {
            return &message[..at + 1];
        }
        from = at + 2;
    }
    message
}

/// Every rule, by the name the audit and [`ENFORCED`] use: the first sentence's length, each
/// word of [`INTERNAL`], the repeated field and the repeated object.
pub const RULES: [&str; 9] = [
    "length",
    "(rule ",
    "SPEC §",
    "the walk",
    "IPAM's walk",
    "walk position",
    "candidates",
    "field",
    "object",
];

/// The rules every message is held to: all of [`RULES`]. (`IPREUSE_MESSAGE_AUDIT` lists every
/// message that breaks one in one run, instead of failing on the first.)
pub const ENFORCED: &[&str] = &[
    "length",
    "(rule ",
    "SPEC §",
    "the walk",
    "IPAM's walk",
    "walk position",
    "candidates",
    "object",
    "field",
];

/// What is wrong with a message, given as its text, its field path and its object's label
/// (`Kind ns/name`): one `(rule, why)` per rule of [`RULES`] it breaks, enforced or not.
pub fn all_problems(
    m: &str,
    field: Option<&str>,
    label: Option<&str>,
) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let first = first_sentence(m);
    let n = first.chars().count();
    if n >= FIRST_SENTENCE {
        out.push((
            "length",
            format!(
                "its first sentence has {n} characters (under {FIRST_SENTENCE}: say what is wrong and what to do, then the detail)"
            ),
        ));
    }
    for (word, instead) in INTERNAL {
        if m.contains(word) {
            out.push((word, format!("it says {word:?}: {instead}")));
        }
    }
    if let Some(field) = field
        && field != "."
        && m.starts_with(field)
    {
        out.push((
            "field",
            format!("it repeats its field {field} (shown before the message)"),
        ));
    }
    if let Some(label) = label
        && m.starts_with(label)
    {
        out.push((
            "object",
            format!("it repeats its object {label} (shown before the message)"),
        ));
    }
    out
}

/// The label the human printer shows before a message: `Kind ns/name` (or `Kind name`).
pub fn label(kind: &str, namespace: Option<&str>, name: &str) -> String {
    match namespace {
        Some(ns) => format!("{kind} {ns}/{name}"),
        None => format!("{kind} {name}"),
    }
}

/// Every rule `f`'s message breaks, one line each, enforced or not.
fn problems_of(f: &Finding) -> Vec<(&'static str, String)> {
    let label = f
        .resource_ref
        .as_ref()
        .map(|r| label(&r.kind, r.namespace.as_deref(), &r.name));
    all_problems(
        &f.message,
        f.field.as_ref().map(|x| x.path.as_str()),
        label.as_deref(),
    )
    .into_iter()
    .map(|(rule, p)| (rule, format!("{:?} {:?}: {p}", f.severity, f.message)))
    .collect()
}

/// What is wrong with `f`'s message under the [`ENFORCED`] rules, one line per rule it breaks
/// (empty when none).
pub fn message_problems(f: &Finding) -> Vec<String> {
    problems_of(f)
        .into_iter()
        .filter(|(rule, _)| ENFORCED.contains(rule))
        .map(|(_, p)| p)
        .collect()
}

/// Panics naming every message of `findings` that breaks an enforced rule; with
/// `IPREUSE_MESSAGE_AUDIT` set to a file, appends every rule broken there instead, enforced or
/// not (to list them all in one run).
pub fn assert_messages_for_people(findings: &[Finding]) {
    if let Some(path) = std::env::var_os("IPREUSE_MESSAGE_AUDIT") {
        use std::io::Write as _;
        let all: Vec<String> = findings
            .iter()
            .flat_map(problems_of)
            .map(|(_, p)| p)
            .collect();
        if all.is_empty() {
            return;
        }
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("open the audit file");
        for p in &all {
            writeln!(f, "{p}").expect("write the audit file");
        }
        return;
    }
    let problems: Vec<String> = findings.iter().flat_map(message_problems).collect();
    if !problems.is_empty() {
        panic!("messages not written for people:\n{}", problems.join("\n"));
    }
}
