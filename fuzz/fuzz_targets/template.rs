//! Template rendering (issue 32, acceptance 10): whatever the template text and the variables,
//! `render_with` returns (a text or an error) within its limits, and never panics, overflows the
//! stack, runs away or allocates past them. libFuzzer's `-timeout` and `-rss_limit_mb` turn a
//! runaway into a failure:
//! `cargo +nightly fuzz run template -- -max_total_time=600 -timeout=10 -rss_limit_mb=1024`.
#![no_main]

use arbitrary::Arbitrary;
use ipreuse::topology::template::limits::Limits;
use ipreuse::topology::template::render_with;
use ipreuse::topology::template::value::Value;
use libfuzzer_sys::fuzz_target;

/// A JSON value of the variables, as CAPI gives them (numbers are float64).
#[derive(Arbitrary, Debug)]
enum Data {
    Null,
    Bool(bool),
    Number(f64),
    Int(i32),
    Text(String),
    List(Vec<Data>),
    Map(Vec<(String, Data)>),
}

impl Data {
    fn json(&self, depth: usize) -> serde_json::Value {
        use serde_json::Value as J;
        if depth > 8 {
            return J::Null;
        }
        match self {
            Data::Null => J::Null,
            Data::Bool(b) => J::Bool(*b),
            Data::Number(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
            Data::Int(i) => J::from(*i),
            Data::Text(s) => J::String(s.clone()),
            Data::List(items) => J::Array(items.iter().map(|d| d.json(depth + 1)).collect()),
            Data::Map(pairs) => J::Object(
                pairs
                    .iter()
                    .map(|(k, v)| (k.clone(), v.json(depth + 1)))
                    .collect(),
            ),
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Input {
    template: String,
    data: Vec<(String, Data)>,
    /// Builtins only known once CAPI creates the objects, placed among the data.
    unknown: Vec<String>,
}

fuzz_target!(|input: Input| {
    let mut map = serde_json::Map::new();
    for (k, v) in &input.data {
        map.insert(k.clone(), v.json(0));
    }
    let unknown: Vec<String> = input
        .unknown
        .iter()
        .take(4)
        .map(|s| format!("builtin.{}", s.chars().take(40).collect::<String>()))
        .collect();
    let data = Value::from_json_with_unknown(&serde_json::Value::Object(map), &unknown);
    let limits = Limits::default();
    if let Ok(text) = render_with(&input.template, &data, &limits) {
        assert!(text.len() <= limits.output_bytes, "output past its limit");
    }
});
