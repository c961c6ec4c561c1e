//! `ipreuse plan --format html` (issue 34, acceptance 5): the address map, rendered in a real
//! browser. For every example package with IPPools, Debian's Chromium (`/usr/bin/chromium`,
//! headless; the test fails, never skips, without it: `apt-get install -y chromium`, as
//! `.ci/run` does) renders the page to a PNG and dumps its DOM; the test then checks:
//!
//! - the page is self-contained: no script, stylesheet, image, frame or URL in its text, and in
//!   the browser no element that loads anything (a probe script is added to a copy of the page
//!   for that, and its "done" line proves the console is read at all);
//! - the browser logs no console message and no uncaught error while rendering it;
//! - the PNG is a real picture of the window's size;
//! - the DOM holds what `--format json` holds: every row (namespace, host, pool, address,
//!   status) once, each pool's counts per status equal to the JSON's rows, each pool's
//!   addresses adding up (size = hosts + reserved + taken + free), the legend, and the blocks
//!   of `--blocks --format json`;
//! - where ranges meet across clusters (`examples/multi-cluster`), both pools are marked.
//!
//! An example whose run has an error keeps plan's behaviour: exit 1, nothing on stdout.
//! `UPDATE_EXPECTED=1` also writes the picture the README shows, `docs/plan-multi-cluster.png`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_ipreuse");
const CHROMIUM: &str = "/usr/bin/chromium";
/// The window the pictures are taken in.
const WINDOW: (u32, u32) = (1400, 2000);

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Chromium, or a loud failure that says how to install it.
fn chromium() -> &'static str {
    assert!(
        Path::new(CHROMIUM).is_file(),
        "{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium; .ci/run does). \
         The address map is tested in a real browser and this test never skips"
    );
    CHROMIUM
}

/// Runs headless Chromium on `page` with `extra` flags, a fresh profile each time, logging the
/// console to stderr; at most two minutes.
fn run_chromium(page: &Path, extra: &[&str]) -> Output {
    let profile = tempfile::tempdir().expect("profile dir");
    let out = Command::new("timeout")
        .arg("120")
        .arg(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("run chromium");
    assert_eq!(
        out.status.code(),
        Some(0),
        "chromium on {}: {}",
        page.display(),
        text(&out.stderr)
    );
    out
}

/// The lines of Chromium's stderr that say the page went wrong: console messages (the page has
/// no script, so any is wrong), uncaught errors, and resources that failed to load.
fn console_problems(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter(|l| {
            l.contains(":CONSOLE")
                || l.contains("Uncaught")
                || l.contains("Failed to load resource")
                || l.contains("net::ERR_")
        })
        .map(str::to_string)
        .collect()
}

/// In the browser, after load: every element that would load something (anything with `src`,
/// `href`, `data` or `srcset`, link, script but this one, style sheets with rules that import)
/// and every computed background image, then "probe done".
const PROBE: &str = r#"<script id="ipreuse-probe">
window.addEventListener("load", () => {
  const bad = [];
  for (const el of document.querySelectorAll("[src],[href],[srcset],[data],link,script,iframe,object,embed,img,source,video,audio")) {
    if (el.id !== "ipreuse-probe") bad.push(el.outerHTML.slice(0, 120));
  }
  for (const el of document.querySelectorAll("*")) {
    const bg = getComputedStyle(el).backgroundImage;
    if (bg && bg.includes("url(")) bad.push("background " + bg);
  }
  for (const sheet of document.styleSheets) {
    if (sheet.href) bad.push("style sheet " + sheet.href);
    let rules = [];
    try { rules = sheet.cssRules; } catch (e) { bad.push("style sheet that cannot be read: " + e); }
    for (const rule of rules) {
      if (rule.type === CSSRule.IMPORT_RULE || rule.cssText.includes("url(")) bad.push("css " + rule.cssText.slice(0, 120));
    }
  }
  for (const r of performance.getEntriesByType("resource")) bad.push("loaded " + r.name);
  for (const b of bad) console.log("probe found: " + b);
  console.log("probe done");
});
</script>"#;

/// What the browser says of a page: the problems its console shows when it renders it as it
/// is, and what the probe finds in a copy of it. Returns the problems and the copy's DOM.
fn browser_check(dir: &Path, page: &str) -> (Vec<String>, String) {
    let html = dir.join("page.html");
    std::fs::write(&html, page).expect("write page");
    let mut problems = Vec::new();
    let png = dir.join("page.png");
    let shot = run_chromium(
        &html,
        &[
            &format!("--screenshot={}", png.display()),
            &format!("--window-size={},{}", WINDOW.0, WINDOW.1),
        ],
    );
    problems.extend(console_problems(&text(&shot.stderr)));
    let probed = dir.join("probed.html");
    std::fs::write(
        &probed,
        page.replacen("</body>", &format!("{PROBE}</body>"), 1),
    )
    .expect("write probed page");
    let dumped = run_chromium(&probed, &["--dump-dom"]);
    let stderr = text(&dumped.stderr);
    let said = console_problems(&stderr);
    assert!(
        said.iter().any(|l| l.contains("probe done")),
        "the probe's console line was not seen: the console check would see nothing\n{stderr}"
    );
    problems.extend(said.into_iter().filter(|l| !l.contains("\"probe done\"")));
    (problems, text(&dumped.stdout))
}

/// Width and height of a PNG, from its IHDR chunk, after checking its signature.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert!(
        bytes.len() > 24 && bytes.starts_with(b"\x89PNG\r\n\x1a\n") && &bytes[12..16] == b"IHDR",
        "not a PNG"
    );
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    (be(&bytes[16..20]), be(&bytes[20..24]))
}

/// HTML text back to its characters (what Chromium's serializer escapes).
fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// The `data-*` attributes of every start tag that has `class="{class}"` (or starts with it).
fn elements(dom: &str, tag: &str, class: &str) -> Vec<BTreeMap<String, String>> {
    let start =
        regex::Regex::new(&format!(r#"<{tag}\s[^>]*class="{class}[" ][^>]*>"#)).expect("tag regex");
    let attr = regex::Regex::new(r#"\s([a-z][a-z0-9-]*)="([^"]*)""#).expect("attr regex");
    start
        .find_iter(dom)
        .map(|m| {
            attr.captures_iter(m.as_str())
                .map(|c| (c[1].to_string(), unescape(&c[2])))
                .collect()
        })
        .collect()
}

/// Runs `ipreuse plan` with `args` on `target`.
fn plan(args: &[&str], target: &[PathBuf]) -> Output {
    Command::new(BIN)
        .arg("plan")
        .args(args)
        .args(target)
        .output()
        .expect("run ipreuse")
}

/// What the text of the page may not hold: anything that loads or runs something.
fn static_problems(page: &str) -> Vec<&'static str> {
    let lower = page.to_lowercase();
    [
        "<script", "<link", "<iframe", "<img", "<object", "<embed", "src=", "href=", "url(",
        "@import", "://",
    ]
    .into_iter()
    .filter(|w| lower.contains(w))
    .collect()
}

/// The example packages with IPPools: each folder of `examples/` with a Kptfile whose YAML
/// holds an IPPool, and `kustomize/base` with its functionConfig (the kustomize pipe's input).
fn cases() -> Vec<(String, Vec<PathBuf>)> {
    let examples = root().join("examples");
    let mut out = Vec::new();
    let mut names: Vec<String> = std::fs::read_dir(&examples)
        .expect("examples")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("Kptfile").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        if holds_pool(&examples.join(&name)) {
            out.push((name.clone(), vec![examples.join(&name)]));
        }
    }
    out.push((
        "kustomize".into(),
        vec![
            "--config".into(),
            examples.join("kustomize/exec/ipreuse.yaml"),
            examples.join("kustomize/base"),
        ],
    ));
    out
}

fn holds_pool(dir: &Path) -> bool {
    std::fs::read_dir(dir).expect("read dir").any(|e| {
        let p = e.expect("entry").path();
        if p.is_dir() {
            !p.ends_with(".expected") && holds_pool(&p)
        } else {
            p.extension().is_some_and(|x| x == "yaml")
                && std::fs::read_to_string(&p).is_ok_and(|t| t.contains("kind: IPPool"))
        }
    })
}

/// The rows of `--format json`, as (namespace, host, pool, address, status).
type Key = (String, String, String, String, String);

fn json_rows(v: &Value) -> Vec<Key> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|r| {
            let f = |k: &str| r[k].as_str().unwrap_or_default().to_string();
            (
                f("namespace"),
                f("host"),
                f("pool"),
                f("address"),
                f("status"),
            )
        })
        .collect()
}

/// Checks one example's page against its JSON; returns what is wrong.
fn check_case(name: &str, target: &[PathBuf], dir: &Path) -> Vec<String> {
    let mut wrong = Vec::new();
    let json = plan(&["--format", "json"], target);
    let html = plan(&["--format", "html"], target);
    if json.status.code() != Some(0) {
        // An error keeps plan's behaviour: exit 1, nothing on stdout.
        if html.status.code() != Some(1) || !html.stdout.is_empty() {
            wrong.push(format!(
                "{name}: json exits {:?}, html exits {:?} with {} bytes on stdout (want 1 and none)",
                json.status.code(),
                html.status.code(),
                html.stdout.len()
            ));
        }
        return wrong;
    }
    assert_eq!(
        html.status.code(),
        Some(0),
        "{name}: {}",
        text(&html.stderr)
    );
    assert_eq!(
        text(&html.stderr),
        text(&json.stderr),
        "{name}: the same results on stderr"
    );
    let page = text(&html.stdout);
    for w in static_problems(&page) {
        wrong.push(format!("{name}: the page's text holds {w:?}"));
    }
    let case_dir = dir.join(name);
    std::fs::create_dir_all(&case_dir).expect("case dir");
    let (problems, dom) = browser_check(&case_dir, &page);
    for p in problems {
        wrong.push(format!("{name}: the browser says {p}"));
    }
    let png = std::fs::read(case_dir.join("page.png")).expect("the screenshot");
    if png_size(&png) != WINDOW || png.len() < 20_000 {
        wrong.push(format!(
            "{name}: the picture is {:?} and {} bytes",
            png_size(&png),
            png.len()
        ));
    }

    let rows: Vec<Key> = json_rows(&serde_json::from_slice(&json.stdout).expect("plan json"));
    let mut want = rows.clone();
    want.sort();
    let mut got: Vec<Key> = elements(&dom, "tr", "row")
        .into_iter()
        .map(|a| {
            let f = |k: &str| a.get(&format!("data-{k}")).cloned().unwrap_or_default();
            (
                f("namespace"),
                f("host"),
                f("pool"),
                f("address"),
                f("status"),
            )
        })
        .collect();
    got.sort();
    if got != want {
        wrong.push(format!(
            "{name}: the page's rows\n{got:?}\nare not the JSON's\n{want:?}"
        ));
    }
    // Each pool: its counts are the JSON's rows, and its addresses add up.
    let pools = elements(&dom, "article", "pool");
    let mut by_pool: BTreeMap<(String, String), BTreeMap<String, u128>> = BTreeMap::new();
    for (ns, _, pool, _, status) in &rows {
        *by_pool
            .entry((ns.clone(), pool.clone()))
            .or_default()
            .entry(status.clone())
            .or_default() += 1;
    }
    for ((ns, pool), counts) in &by_pool {
        let Some(a) = pools
            .iter()
            .find(|a| a.get("data-namespace") == Some(ns) && a.get("data-pool") == Some(pool))
        else {
            wrong.push(format!("{name}: no section for pool {ns}/{pool}"));
            continue;
        };
        for status in ["kept", "new", "pinned", "live"] {
            let page: u128 = a[&format!("data-{status}")].parse().expect("a count");
            let json = counts.get(status).copied().unwrap_or(0);
            if page != json {
                wrong.push(format!(
                    "{name}: {ns}/{pool} shows {page} {status}, JSON has {json}"
                ));
            }
        }
    }
    for a in &pools {
        let n = |k: &str| -> u128 { a[&format!("data-{k}")].parse().expect("a count") };
        let parts = ["kept", "new", "pinned", "live", "reserved", "taken", "free"]
            .iter()
            .map(|k| n(k))
            .sum::<u128>();
        if parts != n("size") {
            wrong.push(format!(
                "{name}: {}/{} has {} addresses but its parts add up to {parts}",
                a["data-namespace"],
                a["data-pool"],
                n("size")
            ));
        }
        let drawn = if n("size") <= 256 { "grid" } else { "bar" };
        if a["data-drawn"] != drawn {
            wrong.push(format!(
                "{name}: {}/{} drawn as {}",
                a["data-namespace"], a["data-pool"], a["data-drawn"]
            ));
        }
    }
    // The legend names every state.
    let legend: Vec<String> = elements(&dom, "span", "item")
        .into_iter()
        .filter_map(|a| a.get("data-state").cloned())
        .collect();
    let states = [
        "kept", "new", "pinned", "live", "reserved", "taken", "free", "meets",
    ];
    if !dom.contains("id=\"legend\"") || legend != states {
        wrong.push(format!("{name}: the legend has {legend:?}"));
    }
    // The blocks of the networks, as `--blocks --format json` lists them.
    let blocks = plan(&["--blocks", "--format", "json"], target);
    let mut want: Vec<(String, String, String, String, String)> =
        serde_json::from_slice::<Value>(&blocks.stdout)
            .expect("blocks json")
            .as_array()
            .expect("array")
            .iter()
            .map(|b| {
                let f = |k: &str| match &b[k] {
                    Value::String(s) => s.clone(),
                    Value::Number(n) => n.to_string(),
                    _ => String::new(),
                };
                (
                    f("network"),
                    f("namespace"),
                    f("pool"),
                    f("range"),
                    f("status"),
                )
            })
            .collect();
    want.sort();
    let mut got: Vec<_> = elements(&dom, "tr", "block")
        .into_iter()
        .map(|a| {
            let f = |k: &str| a.get(&format!("data-{k}")).cloned().unwrap_or_default();
            (
                f("network"),
                f("namespace"),
                f("pool"),
                f("range"),
                f("status"),
            )
        })
        .collect();
    got.sort();
    if got != want {
        wrong.push(format!(
            "{name}: the page's blocks {got:?} are not {want:?}"
        ));
    }
    wrong
}

#[test]
fn every_example_page_renders_in_chromium_and_holds_the_json() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases = cases();
    let names: Vec<&str> = cases.iter().map(|(n, _)| n.as_str()).collect();
    for must in [
        "basic",
        "dual-stack",
        "multi-cluster",
        "new-cluster",
        "errors",
    ] {
        assert!(
            names.contains(&must),
            "{must} is among the cases: {names:?}"
        );
    }
    let mut wrong = Vec::new();
    for (name, target) in &cases {
        wrong.extend(check_case(name, target, dir.path()));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The text of the section of the pool of namespace `ns` (the page's one pool there).
fn pool_section<'a>(page: &'a str, ns: &str) -> &'a str {
    page.split("<article ")
        .skip(1)
        .find(|s| s.contains(&format!("data-namespace=\"{ns}\" data-pool=")))
        .and_then(|s| s.split("</article>").next())
        .expect("the pool's section")
}

#[test]
fn ranges_that_meet_across_clusters_are_marked_on_both_pools() {
    let target = [root().join("examples/multi-cluster")];
    let out = plan(&["--format", "html"], &target);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = text(&out.stdout);
    let pools = elements(&page, "article", "pool");
    let meets: BTreeMap<String, String> = pools
        .iter()
        .map(|a| (a["data-namespace"].clone(), a["data-meets"].clone()))
        .collect();
    assert_eq!(
        meets,
        BTreeMap::from([
            ("east".to_string(), "north/provisioning-pool".to_string()),
            (
                "north".to_string(),
                "east/provisioning-pool west/provisioning-pool".to_string()
            ),
            ("west".to_string(), "north/provisioning-pool".to_string()),
        ])
    );
    // Each pool's warning about it is in its own section.
    for ns in ["east", "north", "west"] {
        let section = pool_section(&page, ns);
        assert!(
            section.contains("class=\"warning\"")
                && section.contains("of other namespaces on network provisioning"),
            "{ns}'s warning is beside its pool"
        );
        assert!(
            section.contains("class=\"cell s-"),
            "{ns} is drawn as a grid"
        );
        assert!(
            section.contains(" meets\""),
            "{ns}'s cells in the other cluster's range are marked"
        );
    }
    // The cells of north's hosts name them; east shows north's new entries as taken.
    assert!(page.contains("data-address=\"172.22.0.14\" data-state=\"new\""));
    let east = pool_section(&page, "east");
    assert!(
        east.contains("data-address=\"172.22.0.14\" data-state=\"taken\""),
        "north's new entry is taken in east's map"
    );
}

/// An IPv4 /8 and an IPv6 /64 pool cost no more than small ones: their counts add up, their
/// reserved addresses are named by reason, and they are drawn as bars of bounded size.
#[test]
fn an_ipv4_8_and_an_ipv6_64_are_bars_with_their_counts() {
    let mut docs = vec![
        r#"apiVersion: fn.ipreuse.dev/v1alpha1
kind: IPReuse
metadata: {name: cfg, annotations: {config.kubernetes.io/local-config: "true"}}
spec: {controllerFlag: false, reserve: ["10.0.0.2-10.0.0.9"]}"#
            .to_string(),
        r#"apiVersion: ipam.metal3.io/v1alpha1
kind: IPPool
metadata: {name: big4, namespace: dc}
spec:
  namePrefix: big4
  pools: [{subnet: 10.0.0.0/8}]
  prefix: 8
  gateway: 10.0.0.1
  dnsServers: [10.0.0.53]"#
            .to_string(),
        r#"apiVersion: ipam.metal3.io/v1alpha1
kind: IPPool
metadata: {name: big6, namespace: dc}
spec:
  namePrefix: big6
  pools: [{subnet: "2001:db8::/64"}]
  prefix: 64
  gateway: "2001:db8::1""#
            .to_string(),
    ];
    for i in 1..=5 {
        docs.push(format!(
            "apiVersion: metal3.io/v1alpha1\nkind: BareMetalHost\nmetadata: {{name: node-{i}, namespace: dc}}\nspec: {{online: true}}"
        ));
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("in.yaml");
    std::fs::write(&file, docs.join("\n---\n")).expect("write");
    let out = plan(&["--format", "html"], std::slice::from_ref(&file));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = text(&out.stdout);
    assert!(page.len() < 400_000, "{} bytes", page.len());
    let pools = elements(&page, "article", "pool");
    assert_eq!(pools.len(), 2);
    for a in &pools {
        let n = |k: &str| -> u128 { a[&format!("data-{k}")].parse().expect("a count") };
        assert_eq!(a["data-drawn"], "bar");
        assert_eq!(n("new"), 5);
        let parts: u128 = ["kept", "new", "pinned", "live", "reserved", "taken", "free"]
            .iter()
            .map(|k| n(k))
            .sum();
        assert_eq!(parts, n("size"), "{a:?}");
        let section = pool_section(&page, "dc");
        assert!(section.contains("<svg class=\"bar\""));
    }
    let big4 = page
        .split("<article ")
        .find(|s| s.contains("data-pool=\"big4\""))
        .expect("big4");
    // .1 (gateway), .2-.9 (reserve), .53 (DNS) among the pool's addresses (a subnet's walk
    // starts after its network address), which are as many as the IPAM reaches.
    let head = big4.split("<svg").next().unwrap_or_default();
    assert!(head.contains("data-reserved=\"10\""), "{head}");
    assert!(
        head.contains("Reserved here: 1 gateway, 1 DNS server, 8 in the config&#39;s reserve"),
        "{head}"
    );
    assert!(
        head.contains("the first 1\u{2009}048\u{2009}577 addresses the IPAM reaches"),
        "{head}"
    );
    let rows = elements(&page, "tr", "row");
    let first: Vec<&str> = rows
        .iter()
        .filter(|r| r["data-pool"] == "big4")
        .map(|r| r["data-address"].as_str())
        .collect();
    assert_eq!(
        first,
        [
            "10.0.0.10",
            "10.0.0.11",
            "10.0.0.12",
            "10.0.0.13",
            "10.0.0.14"
        ]
    );
}

#[test]
fn html_refuses_host_and_blocks_and_keeps_pool() {
    let target = [root().join("examples/multi-cluster")];
    for args in [
        ["--format", "html", "--host", "east-0"].as_slice(),
        ["--format", "html", "--blocks"].as_slice(),
    ] {
        let out = plan(args, &target);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(
            text(&out.stderr).contains("--format html"),
            "{}",
            text(&out.stderr)
        );
    }
    let out = plan(
        &["--format", "html", "--pool", "provisioning-pool"],
        &target,
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(elements(&text(&out.stdout), "article", "pool").len(), 3);
}

/// The console check is real: a page with a script error, a console message and a stylesheet
/// from elsewhere fails it, in the browser and in its text.
#[test]
fn the_browser_check_fails_a_broken_page() {
    let dir = tempfile::tempdir().expect("tempdir");
    let broken = "<!DOCTYPE html><html><head><link rel=\"stylesheet\" href=\"https://example.invalid/x.css\">\
        <script>undefinedFunction();</script><script>console.error(\"boom\");</script></head>\
        <body><p>broken</p></body></html>";
    let (problems, _) = browser_check(dir.path(), broken);
    let all = problems.join("\n");
    assert!(all.contains("Uncaught ReferenceError"), "{all}");
    assert!(all.contains("boom"), "{all}");
    assert!(all.contains("probe found: <link"), "{all}");
    assert!(!static_problems(broken).is_empty());
}

/// `UPDATE_EXPECTED=1` writes the picture of `examples/multi-cluster` that the README shows.
#[test]
fn the_readme_shows_the_multi_cluster_picture() {
    let png = root().join("docs/plan-multi-cluster.png");
    if std::env::var_os("UPDATE_EXPECTED").is_some_and(|v| !v.is_empty() && v != "0") {
        let dir = tempfile::tempdir().expect("tempdir");
        // From the checkout, as the README's command runs, so that the page names the package
        // as a reader would.
        let out = Command::new(BIN)
            .args(["plan", "--format", "html", "examples/multi-cluster"])
            .current_dir(root())
            .output()
            .expect("run ipreuse");
        assert_eq!(out.status.code(), Some(0));
        let (problems, _) = browser_check(dir.path(), &text(&out.stdout));
        assert!(problems.is_empty(), "{problems:?}");
        std::fs::copy(dir.path().join("page.png"), &png).expect("copy the picture");
    }
    let bytes = std::fs::read(&png).expect("docs/plan-multi-cluster.png");
    assert_eq!(png_size(&bytes), WINDOW);
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README");
    assert!(
        readme.contains("](docs/plan-multi-cluster.png)"),
        "the README shows it"
    );
}
