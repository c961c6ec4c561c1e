//! Go's `fmt` and sprig's functions (`ipreuse::topology::template::{fmt, sprig}`) against Go
//! itself: thousands of generated calls, each run by Go 1.19's `text/template` with sprig
//! v3.2.3's `HermeticTxtFuncMap` (the reference program is tests/go/fmtsprig/main.go) and by
//! ipreuse, the printed results compared.
//!
//! Needs `go` and Debian's sprig (`golang-go`, `golang-github-masterminds-sprig-dev`, which
//! brings semver and goutils): without them the test fails, saying so. Every difference fails
//! the test, except an error ipreuse gives on purpose (`FuncError::Unsupported`) for a case
//! marked as such here, where Go prints a memory address or reads Unicode tables of its own.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use ipreuse::topology::template::fmt;
use ipreuse::topology::template::limits::{FuncError, Limits, Meter};
use ipreuse::topology::template::sprig;
use ipreuse::topology::template::value::{Elem, Func, Value};
use serde_json::{Value as Json, json};

struct Case {
    func: String,
    args: Vec<Json>,
    /// ipreuse may refuse it (Unsupported) where Go gives a value.
    unsupported_ok: bool,
}

fn case(func: &str, args: Vec<Json>) -> Case {
    Case {
        func: func.to_string(),
        args,
        unsupported_ok: false,
    }
}

// ---------------------------------------------------------------------------------------------
// The Go reference
// ---------------------------------------------------------------------------------------------

fn go_reference() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let go = Command::new("go").arg("version").output();
        assert!(
            go.as_ref().is_ok_and(|o| o.status.success()),
            "this test needs Go 1.19 and sprig v3 from Debian: apt-get install golang-go golang-github-masterminds-sprig-dev ({go:?})"
        );
        let gocode = Path::new("/usr/share/gocode/src/github.com/Masterminds");
        for pkg in ["sprig", "semver", "goutils"] {
            assert!(
                gocode.join(pkg).is_dir(),
                "this test needs {} (apt-get install golang-github-masterminds-sprig-dev)",
                gocode.join(pkg).display()
            );
        }
        // One folder per process (nextest runs each test in its own, in parallel); Go's build
        // cache is safe to share.
        let base = Path::new(env!("CARGO_TARGET_TMPDIR"));
        let tmp = base.join(format!("go-fmt-sprig-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        // Those of processes that have ended.
        for entry in std::fs::read_dir(base).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Some(pid) = name.strip_prefix("go-fmt-sprig-")
                && pid.bytes().all(|b| b.is_ascii_digit())
                && !Path::new("/proc").join(pid).exists()
            {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
        let masterminds = tmp.join("gopath/src/github.com/Masterminds");
        for pkg in ["sprig", "semver"] {
            std::fs::create_dir_all(masterminds.join(pkg)).expect("GOPATH");
            // Debian installs them without the /v3 of their import paths.
            std::os::unix::fs::symlink(gocode.join(pkg), masterminds.join(pkg).join("v3"))
                .expect("symlink");
        }
        let bin = tmp.join("fmtsprig");
        let out = Command::new("go")
            .args(["build", "-o"])
            .arg(&bin)
            .arg(".")
            .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/go/fmtsprig"))
            .env("GO111MODULE", "off")
            .env(
                "GOPATH",
                format!("{}:/usr/share/gocode", tmp.join("gopath").display()),
            )
            .env("GOCACHE", base.join("go-fmt-sprig-cache"))
            .env("GOFLAGS", "")
            .output()
            .expect("go build");
        assert!(
            out.status.success(),
            "building tests/go/fmtsprig failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        bin
    })
}

/// Go's result for every case: Ok(printed text) or Err(message).
fn run_go(cases: &[Case]) -> Vec<Result<String, String>> {
    let mut input = String::new();
    for c in cases {
        input.push_str(&json!({"func": c.func, "args": c.args}).to_string());
        input.push('\n');
    }
    let mut child = Command::new(go_reference())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the Go reference");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("Go reference output");
    writer.join().expect("writer").expect("write cases");
    assert!(
        out.status.success(),
        "the Go reference failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Result<String, String>> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let v: Json = serde_json::from_str(l).expect("a JSON line");
            match (&v["out"], &v["err"]) {
                (Json::String(o), _) => Ok(o.clone()),
                (_, Json::String(e)) => Err(e.clone()),
                _ => panic!("bad line {l}"),
            }
        })
        .collect();
    assert_eq!(lines.len(), cases.len(), "one line per case");
    lines
}

// ---------------------------------------------------------------------------------------------
// ipreuse
// ---------------------------------------------------------------------------------------------

fn to_value(j: &Json) -> Value {
    match j {
        Json::Object(m) => {
            if let Some(n) = m.get("$int") {
                return Value::Int(n.as_i64().expect("int"));
            }
            if let Some(n) = m.get("$uint") {
                return Value::Uint(n.as_u64().expect("uint"));
            }
            if m.contains_key("$missing") {
                return Value::Missing;
            }
            if let Some(s) = m.get("$version") {
                let v = sprig::new_version(s.as_str().expect("string")).expect("a valid version");
                return Value::Version(std::rc::Rc::new(v));
            }
            if let Some(Json::Array(l)) = m.get("$strlist") {
                return Value::List(
                    std::rc::Rc::new(l.iter().map(to_value).collect()),
                    Elem::String,
                );
            }
            if let Some(Json::Object(sm)) = m.get("$strmap") {
                return Value::Map(
                    std::rc::Rc::new(sm.iter().map(|(k, v)| (k.clone(), to_value(v))).collect()),
                    Elem::String,
                );
            }
            Value::Map(
                std::rc::Rc::new(m.iter().map(|(k, v)| (k.clone(), to_value(v))).collect()),
                Elem::Any,
            )
        }
        Json::Array(l) => Value::List(
            std::rc::Rc::new(l.iter().map(to_value).collect()),
            Elem::Any,
        ),
        other => Value::from_json(other),
    }
}

fn eval(c: &Case) -> Result<String, FuncError> {
    let limits = Limits::default();
    let args: Vec<Value> = c.args.iter().map(to_value).collect();
    let f: Func = match c.func.as_str() {
        "printf" => fmt::sprintf,
        "print" => fmt::sprint,
        "println" => fmt::sprintln,
        name => match sprig::lookup(name) {
            Some(f) => f,
            None => {
                let f = sprig::lookup_metered(name)
                    .unwrap_or_else(|| panic!("{name} is not a sprig function"));
                let mut meter = Meter::new(limits.steps, limits.steps);
                return f(&limits, &mut meter, &args).and_then(|v| fmt::print_value(&v, &limits));
            }
        },
    };
    f(&limits, &args).and_then(|v| fmt::print_value(&v, &limits))
}

/// Whether Go's text holds a memory address (`0xc000012345`, or the same number in decimal,
/// octal or binary under another verb: ten digits or more).
fn has_address(text: &str) -> bool {
    let mut run = 0;
    for c in text.chars() {
        run = if c.is_ascii_hexdigit() { run + 1 } else { 0 };
        if run >= 10 {
            return true;
        }
    }
    text.contains("0xc")
}

/// Go's error messages ipreuse gives word for word (the others need only be errors).
fn exact_error(go: &str) -> bool {
    [
        "wrong type for value",
        "invalid value",
        "wrong number of args",
        "regexp: Compile(",
        "error parsing regexp",
        "Invalid Semantic Version",
        "Version segment",
        "strings: negative",
    ]
    .iter()
    .any(|p| go.starts_with(p))
}

/// Compares ipreuse with Go on every case; `errors`: whether Go must refuse some of them.
fn compare(cases: Vec<Case>, errors_expected: bool) {
    assert!(cases.len() > 500, "the generators make thousands of cases");
    let go = run_go(&cases);
    let values = go.iter().filter(|g| g.is_ok()).count();
    let errors = go.len() - values;
    // Both kinds, so that agreeing on errors alone cannot pass.
    assert!(
        values > cases.len() / 3 && (errors > 0 || !errors_expected),
        "{values} values and {errors} errors from Go"
    );
    let mut differences = Vec::new();
    let mut unsupported = 0;
    for (c, go) in cases.iter().zip(go) {
        let ours = eval(c);
        let same = match (&go, &ours) {
            (Ok(g), Ok(o)) => g == o,
            // A width Go allows (up to ten million) past ipreuse's string limit.
            (Ok(g), Err(FuncError::Limit { .. })) if g.len() > Limits::default().string_bytes => {
                true
            }
            // fmt refuses only where Go prints a memory address (0xc000...).
            (Ok(g), Err(FuncError::Unsupported(_)))
                if c.unsupported_ok && c.func.starts_with("print") && !has_address(g) =>
            {
                false
            }
            (_, Err(FuncError::Unsupported(_))) if c.unsupported_ok => {
                unsupported += 1;
                true
            }
            // semverCompare keeps the messages of ipreuse's semver module, which say what to write.
            (Err(g), Err(FuncError::Failed(o))) => {
                !exact_error(g) || g == o || c.func == "semverCompare"
            }
            _ => false,
        };
        if !same {
            differences.push(format!(
                "{} {}\n    go:      {go:?}\n    ipreuse: {ours:?}",
                c.func,
                serde_json::to_string(&c.args).unwrap_or_default()
            ));
        }
    }
    eprintln!(
        "{} cases: {values} values and {errors} errors from Go; {unsupported} refused on purpose",
        cases.len()
    );
    assert!(
        differences.is_empty(),
        "{} of {} cases differ from Go ({unsupported} refused on purpose):\n{}",
        differences.len(),
        cases.len(),
        differences
            .iter()
            .take(60)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// The cases
// ---------------------------------------------------------------------------------------------

/// A deterministic pseudo-random sequence (no dependency, the same cases every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as usize
    }
}

fn values() -> Vec<Json> {
    let mut v = vec![
        json!(null),
        json!({"$missing": true}),
        json!(true),
        json!(false),
        json!({"$int": 0}),
        json!({"$int": 42}),
        json!({"$int": -42}),
        json!({"$int": 65}),
        json!({"$int": 0x263A}),
        json!({"$int": 0x1F600}),
        json!({"$int": 0x11_0000}),
        json!({"$int": 0xD800}),
        json!({"$int": 9_007_199_254_740_991_i64}),
        json!({"$uint": 0}),
        json!({"$uint": 7}),
        json!({"$uint": 1_099_511_627_776_u64}),
        json!({"$version": "v1.2.3-rc.1+b.7"}),
        json!({"$version": "1.2"}),
        json!(["a", 1.0, null, true, [2.5], {"k": "v"}]),
        json!([]),
        json!([{"$version": "1.0.0"}]),
        json!({"$strlist": ["x", "hé", ""]}),
        json!({"b": 2.0, "a": "x", "c": null}),
        json!({}),
        json!({"$strmap": {"_0": "a", "_1": "b"}}),
    ];
    for f in [
        0.0,
        -0.0,
        1.0,
        -1.0,
        3.24159,
        2.5,
        0.1,
        1e6,
        123456.789,
        1e21,
        1e20,
        1e-7,
        0.000123,
        5e-324,
        1.7976931348623157e308,
        100000.0,
        999999.5,
        0.5,
        1234567.0,
        12.0,
    ] {
        v.push(json!(f));
    }
    for s in [
        "",
        "hi",
        "héllo",
        "a\"b\\c",
        "tab\there\n",
        "\u{7f}\u{1}x",
        "日本語",
        "😀!",
        "`bq`",
        "\u{feff}x",
        "\u{a0}\u{ad}",
        "e\u{301}",
        "\u{2028}",
        "\u{e000}",
        "\u{10ffff}",
        "%d",
        "42",
        " 7 ",
    ] {
        v.push(json!(s));
    }
    v
}

fn fmt_cases() -> Vec<Case> {
    let vals = values();
    let verbs = [
        'v', 'd', 's', 'q', 'x', 'X', 'o', 'O', 'b', 'c', 'U', 't', 'e', 'E', 'f', 'F', 'g', 'G',
        'T', 'z', 'w', 'é', '!',
    ];
    let flags = [
        "", "-", "+", "#", " ", "0", "-0", "+#", "# ", "+0", "#0", " +-#0",
    ];
    let widths = ["", "1", "6", "12"];
    let precs = ["", ".", ".0", ".2", ".7", ".20"];
    let mut rng = Lcg(7);
    let mut cases = Vec::new();
    for verb in verbs {
        for v in &vals {
            // Every verb plain on every value, then sampled flags, width and precision.
            cases.push(case("printf", vec![json!(format!("%{verb}")), v.clone()]));
            for _ in 0..6 {
                let f = flags[rng.next() % flags.len()];
                let w = widths[rng.next() % widths.len()];
                let p = precs[rng.next() % precs.len()];
                cases.push(case(
                    "printf",
                    vec![json!(format!("<%{f}{w}{p}{verb}>")), v.clone()],
                ));
            }
        }
    }
    // The full grid on a few values.
    for v in [
        json!(-3.5),
        json!({"$int": -17}),
        json!("héllo"),
        json!(["a", 1.0]),
    ] {
        for f in flags {
            for w in widths {
                for p in precs {
                    for verb in ['v', 'd', 's', 'q', 'x', 'e', 'g'] {
                        cases.push(case(
                            "printf",
                            vec![json!(format!("%{f}{w}{p}{verb}")), v.clone()],
                        ));
                    }
                }
            }
        }
    }
    // Arguments: missing, extra, indexes, widths and precisions from arguments.
    for (format, args) in [
        ("%s %s", vec![json!("a")]),
        (
            "%s",
            vec![json!("a"), json!({"$int": 1}), json!(null), json!(2.0)],
        ),
        ("", vec![json!([1.0])]),
        ("%[2]d %[1]s", vec![json!("a"), json!({"$int": 2})]),
        ("%[2]d %[1]s %s", vec![json!("a"), json!({"$int": 2})]),
        (
            "%[3]*.[2]*[1]f",
            vec![json!(12.0), json!({"$int": 2}), json!({"$int": 6})],
        ),
        ("%[0]d", vec![json!({"$int": 1})]),
        ("%[x]d", vec![json!({"$int": 1})]),
        ("%[5]d %d", vec![json!({"$int": 1})]),
        ("%.[2]d", vec![json!({"$int": 1}), json!({"$int": 2})]),
        ("%[1]2d", vec![json!({"$int": 1})]),
        ("%*d", vec![json!({"$int": -5}), json!({"$int": 3})]),
        ("%*d", vec![json!(5.0), json!({"$int": 3})]),
        ("%*d", vec![json!({"$uint": 5}), json!({"$int": 3})]),
        ("%*d", vec![json!({"$int": 10_000_000}), json!({"$int": 3})]),
        ("%.*f", vec![json!({"$int": -1}), json!(3.0)]),
        ("%.*f", vec![json!({"$int": 3})]),
        ("%-*s|", vec![json!({"$int": 4}), json!("ab")]),
        ("%!", vec![]),
        ("%", vec![]),
        ("abc%", vec![json!(1.0)]),
        ("%5", vec![json!(1.0)]),
        ("%.", vec![json!(1.0)]),
        ("%-+# 0", vec![json!(1.0)]),
        ("%%%d%%", vec![json!({"$int": 5})]),
        ("%5%", vec![]),
        ("%10000000d", vec![json!({"$int": 1})]),
        ("%.10000000d", vec![json!({"$int": 1})]),
        ("%v %v", vec![json!({"$missing": true}), json!(null)]),
        ("%d%s", vec![json!(["a", 1.0]), json!({"k": 2.0})]),
        (
            "%5.1s|%-4q|",
            vec![json!(["abc", "de"]), json!({"$strlist": ["x"]})],
        ),
        (
            "%x %X % x %#x",
            vec![
                json!("hi"),
                json!(["hi", 255.0]),
                json!("héllo"),
                json!({"k": "v"}),
            ],
        ),
        (
            "%+v %#v %+v %#v",
            vec![
                json!({"$version": "1.2.3"}),
                json!({"$version": "1.2.3-a+b"}),
                json!(["x"]),
                json!({"a": 1.0, "b": null}),
            ],
        ),
        (
            "%#v %#v %#v %#v %#v",
            vec![
                json!({"$int": 3}),
                json!({"$uint": 3}),
                json!(2.0),
                json!(true),
                json!({"$strmap": {"a": "b"}}),
            ],
        ),
    ] {
        let mut all = vec![json!(format)];
        all.extend(args);
        cases.push(case("printf", all));
    }
    for c in cases.iter_mut() {
        // Go prints an address for %p and for a version inside a list under some verbs.
        let format = c.args[0].as_str().unwrap_or("");
        let has_version_in_list = c
            .args
            .iter()
            .skip(1)
            .any(|a| a.to_string().contains("[{\"$version"));
        if format.contains('p') || has_version_in_list {
            c.unsupported_ok = true;
        }
    }
    // print and println on pairs of values.
    for (i, a) in vals.iter().enumerate() {
        let b = &vals[(i * 7 + 3) % vals.len()];
        cases.push(case("print", vec![a.clone(), b.clone()]));
        cases.push(case(
            "print",
            vec![json!("s"), a.clone(), json!({"$int": 1}), b.clone()],
        ));
        cases.push(case("println", vec![a.clone(), b.clone()]));
    }
    cases.push(case("print", vec![]));
    cases.push(case("println", vec![]));
    cases.push(case("printf", vec![]));
    cases.push(case("printf", vec![json!(1.0)]));
    cases.push(case("printf", vec![json!(null)]));
    cases.push(case("printf", vec![json!({"$missing": true})]));
    cases
}

fn sprig_cases() -> Vec<Case> {
    let vals = values();
    let strs = [
        "",
        "a",
        "abc",
        "banana",
        " x y\t",
        "Hé Llo",
        "ǅ",
        "İ",
        "ß",
        "ﬃ",
        "a,b,,c",
        "-x-",
        "日本",
        "\u{a0}à\u{2026}",
        "v1.2.3",
        "1.2.3-rc.1+build",
        "a.b",
        "$1",
    ];
    let mut cases = Vec::new();
    let string_fns: [(&str, usize); 19] = [
        ("upper", 1),
        ("lower", 1),
        ("trim", 1),
        ("nospace", 1),
        ("trimAll", 2),
        ("trimPrefix", 2),
        ("trimSuffix", 2),
        ("contains", 2),
        ("hasPrefix", 2),
        ("hasSuffix", 2),
        ("split", 2),
        ("splitList", 2),
        ("replace", 3),
        ("semver", 1),
        ("semverCompare", 2),
        ("regexMatch", 2),
        ("regexReplaceAll", 3),
        ("b64enc", 1),
        ("regexFind", 2),
    ];
    let mut rng = Lcg(11);
    for (name, n) in string_fns {
        // Strings in every position.
        for _ in 0..150 {
            let args = (0..n)
                .map(|_| json!(strs[rng.next() % strs.len()]))
                .collect();
            cases.push(case(name, args));
        }
        // Every kind of value in each position, and the wrong numbers of arguments.
        for pos in 0..n {
            for v in &vals {
                let mut args: Vec<Json> = (0..n).map(|_| json!("a")).collect();
                args[pos] = v.clone();
                cases.push(case(name, args));
            }
        }
        cases.push(case(name, (0..n + 1).map(|_| json!("a")).collect()));
        if n > 0 {
            cases.push(case(name, (0..n - 1).map(|_| json!("a")).collect()));
        }
    }
    // upper and lower of every character (Go's Unicode 13 mapping against Rust's and the table
    // of their differences), in strings of 4096 characters.
    let all: Vec<char> = (0..=0x10FFFF).filter_map(char::from_u32).collect();
    for chunk in all.chunks(4096) {
        let text: String = chunk.iter().collect();
        cases.push(case("upper", vec![json!(text)]));
        cases.push(case("lower", vec![json!(text)]));
    }
    // Functions of any values.
    let any_fns: [(&str, usize); 11] = [
        ("default", 2),
        ("empty", 1),
        ("coalesce", 3),
        ("ternary", 3),
        ("quote", 2),
        ("squote", 2),
        ("toString", 1),
        ("list", 3),
        ("dict", 3),
        ("join", 2),
        ("cat", 3),
    ];
    for (name, n) in any_fns {
        for (i, v) in vals.iter().enumerate() {
            for j in 0..3 {
                let mut args: Vec<Json> = (0..n)
                    .map(|k| vals[(i * 5 + j * 11 + k * 3) % vals.len()].clone())
                    .collect();
                args[j % n] = v.clone();
                if name == "ternary" {
                    args[2] = [json!(true), json!(false), v.clone()][j].clone();
                }
                if name == "join" {
                    args[0] = [json!("-"), json!(", "), v.clone()][j].clone();
                    args[1] = v.clone();
                }
                cases.push(case(name, args));
            }
        }
        cases.push(case(name, vec![]));
        cases.push(case(name, vec![json!("a"); n + 1]));
    }
    for c in cases.iter_mut() {
        let text = serde_json::to_string(&c.args).unwrap_or_default();
        // A version inside a list prints its address under some verbs in Go.
        if text.contains("[{\"$version") {
            c.unsupported_ok = true;
        }
    }
    // get and hasKey on maps.
    for m in [
        json!({"k": 1.0, "n": null}),
        json!({}),
        json!({"$strmap": {"k": "v"}}),
        json!(null),
        json!({"$missing": true}),
        json!("k"),
        json!([1.0]),
    ] {
        for k in [
            json!("k"),
            json!("n"),
            json!("z"),
            json!(1.0),
            json!({"$missing": true}),
        ] {
            cases.push(case("get", vec![m.clone(), k.clone()]));
            cases.push(case("hasKey", vec![m.clone(), k.clone()]));
        }
    }
    // indent and nindent: an int and a string.
    for n in [
        json!({"$int": 0}),
        json!({"$int": 2}),
        json!({"$int": -1}),
        json!(2.0),
        json!(null),
    ] {
        for s in [json!("a\nb\n"), json!(""), json!("x"), json!(["a"])] {
            cases.push(case("indent", vec![n.clone(), s.clone()]));
            cases.push(case("nindent", vec![n.clone(), s.clone()]));
        }
    }
    // repeat with ints and other counts.
    for n in [
        json!({"$int": 0}),
        json!({"$int": 3}),
        json!({"$int": -1}),
        json!(3.0),
        json!({"$uint": 2}),
        json!(null),
        json!({"$missing": true}),
    ] {
        for s in [json!("ab"), json!(""), json!(1.0)] {
            cases.push(case("repeat", vec![n.clone(), s.clone()]));
        }
    }
    // semver: versions, valid and not.
    for v in [
        "1",
        "1.2",
        "1.2.3",
        "v1.2.3",
        "01.02.03",
        "1.2.3.4",
        "1.2.3-alpha",
        "1.2.3-alpha.01",
        "1.2.3-0",
        "1.2.3-00",
        "1.2.3+meta",
        "1.2.3+meta.01",
        "1.2.3-a+b",
        "1.2.3-",
        "1.2.3+",
        "1.2.3-a..b",
        "1.2.3-a_b",
        "V1.2.3",
        "vv1",
        " 1.2.3",
        "1.2.3 ",
        "99999999999999999999.0.0",
        "1.2.3-rc.1-x",
        "1.2-rc",
        "1-rc+x",
        "",
        "v",
        "1..2",
        "1.2.",
        "1.2.3-é",
        "18446744073709551615.1.1",
    ] {
        cases.push(case("semver", vec![json!(v)]));
        cases.push(case("semverCompare", vec![json!(">= 1.2"), json!(v)]));
        cases.push(case(
            "printf",
            vec![
                json!("%v %d %s %+v %T %x"),
                json!({"$version": "1.2.3"}),
                json!({"$version": "1.2.3-a"}),
                json!({"$version": "1.2"}),
                json!({"$version": "1.2.3+b"}),
                json!({"$version": "1.0.0"}),
                json!({"$version": "1.0.0"}),
            ],
        ));
    }
    cases
}

fn regex_cases() -> Vec<Case> {
    let patterns = [
        "a",
        "a*",
        "a+?",
        "^a",
        "a$",
        "(?m)^b$",
        "(?s)a.b",
        "a.b",
        "(?i)k",
        "(?i)straße",
        r"\d+",
        r"\D",
        r"\s+",
        r"\S+",
        r"\w+",
        r"\W",
        r"\bfoo\b",
        r"\Bo",
        r"[[:alpha:]]+",
        r"[[:^digit:]]",
        "[^a-c]+",
        "[]a]",
        "[^]a]",
        "[a-]",
        "[-a]",
        "[a-b-c]",
        r"[\d\s]",
        r"[\D]",
        r"[\x41-\x{5A}]",
        r"\x41",
        r"\x{1F600}",
        r"\101",
        r"\0",
        r"\08",
        r"\Qa.b\E+",
        r"\Qa.b",
        r"\A\z",
        "a{2}",
        "a{2,}",
        "a{,2}",
        "a{2,3}?",
        "a{0}",
        "a{01}",
        "a{1001}",
        "a{2,1}",
        "{",
        "a{",
        "}",
        "x{1,2",
        "(a)(b)?",
        "(?P<n>a)(?P<m>b)",
        "(?P<n>a)|(?P<n>b)",
        "(?:a|b)+",
        "(?i:a)b",
        "(?i)a(?-i)b",
        "(?U)a+",
        "(?U)a+?",
        "a|",
        "|",
        "()",
        "(|a)",
        "(a|)+",
        "(a*)*",
        "(a*)+b",
        "(",
        ")",
        "a)",
        "(?",
        "(?i",
        "(?)",
        "(?-)",
        "(?i-)",
        "(?x)a",
        "(?<n>a)",
        "(?P<>a)",
        "(?P<n",
        "(?P=n)",
        "(?P<n-x>a)",
        "a**",
        "a*+",
        "a+*",
        "a??",
        "a*??",
        "**",
        "a|*",
        "(*)",
        "^*",
        r"\b+",
        r"\1",
        r"\8",
        r"\C",
        r"\Z",
        r"\z",
        r"\",
        r"a\",
        r"\pL",
        r"\p{Greek}",
        r"\PN",
        r"[\pL]",
        r"\x",
        r"\xZ1",
        r"\x{}",
        r"\x{110000}",
        r"\e",
        r"\_",
        r"\-",
        "[z-a]",
        "[a",
        "[",
        "[[:foo:]]",
        "[[:a]b:]]",
        "[[a]",
        r"[\b]",
        "(a{10}){100}",
        "(a{10}){101}",
        "(?:a{2}){500}",
        "((a{2}){2}){250}",
        "((a{2}){2}){251}",
        "(a*){1000}",
        "(a{0}){1000}{2}",
        r"(\d+)-(\d+)",
        "(?i)[k]",
        "(?i)[^k]",
        "é+",
        ".",
        "(?s).",
        "[^\n]",
        "a\nb",
        // Found by the random cases: greed decided where the repetition is read, and a negated
        // group folded before it is negated.
        "[[:^space:]](?U){0,3}(?m)",
        r"(?i)\W",
        "a(?U)?",
        "a(?m)(?U)*",
        r"(?i)[\W]",
        r"(?i)[^\w]",
        "(?i)[[:^alpha:]]",
        "(?i)[^[:lower:]]",
        "(?i)[^k]+",
        r"(?i)\S",
        "(?iU)a+b*?",
        "(a){0}(b)",
        "(?P<x>a){0}(?P<x>b)",
        // As public templates write them.
        "^([^/]+/)?([^:]+)(:[^:]+)?$",
        ".*sha256:([0-9a-f]{8}).*",
        "^https?://([^/]+).*$",
        r"(password|token|key|secret)([=:]?)([^\s]+)",
        r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Z|a-z]{2,}\b",
        r"\W+",
        r"^v?(\d+)\.(\d+)\.(\d+)(?:-([\w.]+))?$",
        "[^a-z0-9-]",
    ];
    let subjects = [
        "",
        "a",
        "aaa",
        "baaab",
        "ab-12 cd-3",
        "foo bar",
        "Kk\u{212a}",
        "STRASSE straße",
        "a\nb\nc",
        "٣3",
        "x{,2}",
        "a.b+",
        "日本a",
        "A\u{0}B",
        "s\u{17f}S k\u{212a}K",
        "docker.io/library/nginx:1.25",
        "https://example.com/a?b",
        "img@sha256:0123456789abcdef",
        "password=abc mail x.y@ex.org",
        "v1.29.3-rc.1",
        "My_Cluster.Name",
    ];
    let repls = [
        "",
        "-",
        "$1",
        "${1}x",
        "$1x",
        "$n",
        "${n}",
        "$$",
        "$",
        "${",
        "${1",
        "$0$0",
        "[$2]",
        "$10",
        "$01",
        "${1}${2}",
        "sha-${1}",
        "${1}${2}***",
        "_",
    ];
    let mut cases = Vec::new();
    let mut rng = Lcg(3);
    for p in patterns {
        for s in subjects {
            cases.push(case("regexMatch", vec![json!(p), json!(s)]));
            cases.push(case("mustRegexMatch", vec![json!(p), json!(s)]));
            let r = repls[rng.next() % repls.len()];
            cases.push(case("regexReplaceAll", vec![json!(p), json!(s), json!(r)]));
            cases.push(case(
                "regexReplaceAllLiteral",
                vec![json!(p), json!(s), json!(r)],
            ));
            cases.push(case("regexFind", vec![json!(p), json!(s)]));
            let n = json!({"$int": (rng.next() % 5) as i64 - 1});
            cases.push(case("regexFindAll", vec![json!(p), json!(s), n.clone()]));
            cases.push(case("mustRegexFindAll", vec![json!(p), json!(s), n]));
        }
        for r in repls {
            cases.push(case(
                "regexReplaceAll",
                vec![json!(p), json!("ab-12 cd-3 aaa"), json!(r)],
            ));
            cases.push(case(
                "mustRegexReplaceAll",
                vec![json!(p), json!("ab-12 cd-3 aaa"), json!(r)],
            ));
        }
    }
    for c in cases.iter_mut() {
        // Unicode classes depend on Go's Unicode 13 tables: refused on purpose.
        if c.args[0]
            .as_str()
            .is_some_and(|p| p.contains(r"\p") || p.contains(r"\P"))
        {
            c.unsupported_ok = true;
        }
    }
    cases
}

/// Random formats from directive pieces (flags, numbers, `*`, indexes, verbs, text), so that
/// the parser meets what nobody writes on purpose.
fn random_format_cases() -> Vec<Case> {
    let pieces = [
        "%", "%", "%", "-", "+", "#", " ", "0", "1", "7", "12", ".", "*", "[", "]", "[1]", "[2]",
        "[3]", "v", "d", "s", "q", "x", "X", "e", "g", "f", "c", "U", "t", "T", "é", "a", "%%",
        "!", "{", "9999999", "10000001",
    ];
    let vals = values();
    let mut rng = Lcg(99);
    let mut cases = Vec::new();
    for _ in 0..4000 {
        let n = 1 + rng.next() % 8;
        let format: String = (0..n).map(|_| pieces[rng.next() % pieces.len()]).collect();
        let mut args = vec![json!(format)];
        for _ in 0..rng.next() % 4 {
            let v = if rng.next().is_multiple_of(3) {
                json!({"$int": (rng.next() % 20) as i64 - 5})
            } else {
                vals[rng.next() % vals.len()].clone()
            };
            args.push(v);
        }
        let mut c = case("printf", args);
        let text = serde_json::to_string(&c.args).unwrap_or_default();
        c.unsupported_ok = text.contains("[{\"$version") || format.contains('p');
        cases.push(c);
    }
    cases
}

/// Random regular expressions from syntax pieces, valid and not, on a few subjects.
fn random_regex_cases() -> Vec<Case> {
    let pieces = [
        "a",
        "b",
        "é",
        "K",
        "k",
        ".",
        "*",
        "+",
        "?",
        "??",
        "|",
        "(",
        ")",
        "(?:",
        "(?i)",
        "(?-i)",
        "(?s:",
        "(?m)",
        "(?U)",
        "(?P<x>",
        "[",
        "]",
        "[^",
        "-",
        "^",
        "$",
        r"\d",
        r"\W",
        r"\s",
        r"\b",
        r"\B",
        r"[\W]",
        "\u{17f}",
        "[^k]",
        r"\A",
        r"\z",
        "{2}",
        "{1,",
        "{,2}",
        "{0,3}",
        "{",
        "}",
        r"\",
        r"\Q",
        r"\E",
        "[:alpha:]",
        "[[:^space:]]",
        r"\x41",
        r"\x{e9}",
        r"\07",
        r"\.",
        "\n",
        ",",
        ":",
        "0",
    ];
    let subjects = [
        "",
        "aab",
        "A\u{e9}b\nk\u{212a}",
        "ab-12 cd-3 aaa",
        "b a\u{e9} K. 5",
    ];
    let repls = ["<$0>", "$1", "${x}-", "$$", "-"];
    let mut rng = Lcg(5);
    let mut cases = Vec::new();
    for _ in 0..3000 {
        let n = 1 + rng.next() % 7;
        let pattern: String = (0..n).map(|_| pieces[rng.next() % pieces.len()]).collect();
        let s = subjects[rng.next() % subjects.len()];
        let r = repls[rng.next() % repls.len()];
        cases.push(case("regexMatch", vec![json!(pattern), json!(s)]));
        cases.push(case(
            "regexReplaceAll",
            vec![json!(pattern), json!(s), json!(r)],
        ));
    }
    cases
}

/// Random strings through sprig's string functions: separators, spaces of every kind, case
/// pairs that differ between Unicode mappings, `$` and `%`.
fn random_string_cases() -> Vec<Case> {
    let pieces = [
        "a", "b", "A", ",", "-", " ", "\t", "\n", "é", "à", "\u{a0}", "\u{85}", "\u{2003}", "ß",
        "İ", "K", "k", "日", "$", "%", ".", "1", "v", "ǅ", "\u{feff}", "\"", "'", "\\", "",
    ];
    let fns: [(&str, usize); 16] = [
        ("upper", 1),
        ("lower", 1),
        ("trim", 1),
        ("nospace", 1),
        ("quote", 1),
        ("squote", 1),
        ("toString", 1),
        ("trimAll", 2),
        ("trimPrefix", 2),
        ("trimSuffix", 2),
        ("contains", 2),
        ("hasPrefix", 2),
        ("hasSuffix", 2),
        ("split", 2),
        ("splitList", 2),
        ("replace", 3),
    ];
    let mut rng = Lcg(17);
    let mut cases = Vec::new();
    for _ in 0..4000 {
        let (name, n) = fns[rng.next() % fns.len()];
        let args = (0..n)
            .map(|i| {
                // Short separators and patterns, longer subjects.
                let len = if i + 1 < n {
                    rng.next() % 3
                } else {
                    rng.next() % 9
                };
                json!(
                    (0..len)
                        .map(|_| pieces[rng.next() % pieces.len()])
                        .collect::<String>()
                )
            })
            .collect();
        cases.push(case(name, args));
    }
    cases
}

#[test]
fn random_strings_through_sprig_as_go() {
    compare(random_string_cases(), false);
}

#[test]
fn random_formats_format_as_go() {
    compare(random_format_cases(), false);
}

#[test]
fn random_regular_expressions_are_go_re2() {
    compare(random_regex_cases(), true);
}

#[test]
fn printf_print_and_println_format_as_go() {
    compare(fmt_cases(), true);
}

#[test]
fn sprig_functions_give_what_sprig_gives() {
    compare(sprig_cases(), true);
}

#[test]
fn regular_expressions_are_go_re2() {
    compare(regex_cases(), true);
}
