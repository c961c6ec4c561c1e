use crate::yaml::{Edit, Seg, apply, parse};

/// A BareMetalHost-like list item of about 840 bytes.
fn item(i: usize) -> String {
    format!(
        "- apiVersion: metal3.io/v1alpha1\n  kind: BareMetalHost\n  metadata:\n    name: host-{i:05}\n    namespace: metal3\n    labels:\n      cluster.x-k8s.io/cluster-name: prod # cluster\n      rack: \"r{r}\"\n    annotations:\n      note: 'provisioned by the installer, do not edit by hand'\n  spec:\n    online: true\n    bootMACAddress: \"52:54:00:{a:02x}:{b:02x}:{c:02x}\"\n    bmc:\n      address: redfish-virtualmedia+https://10.0.{r}.{c}/redfish/v1/Systems/1\n      credentialsName: host-{i:05}-bmc-secret\n      disableCertificateVerification: true\n    rootDeviceHints:\n      deviceName: /dev/sda\n      minSizeGigabytes: 100\n    networkData:\n      name: host-{i:05}-network\n      namespace: metal3\n    description: |\n      Host {i} in rack {r}.\n      Second line of the free-text description of this host.\n      Third line, padding the item to a realistic size for the test.\n",
        r = i % 40,
        a = i % 251,
        b = (i / 7) % 251,
        c = (i / 3) % 251,
    )
}

#[test]
fn ten_thousand_items_and_forty_thousand_additions() {
    let mut text = String::from("apiVersion: v1\nkind: List\nitems:\n");
    for i in 0..10_000 {
        text.push_str(&item(i));
    }
    assert!(text.len() > 7_000_000, "{}", text.len());
    let docs = parse(&text).unwrap();
    let root = &docs[0].root;
    let items = root.get("items").and_then(|n| n.as_seq()).unwrap();
    assert_eq!(items.items.len(), 10_000);
    // four mappings receive 10,000 entries each, plus a scalar change and a new top-level key
    let mut edits = Vec::new();
    for (n, idx) in [0usize, 4_999, 9_998, 9_999].into_iter().enumerate() {
        let entries = (0..10_000)
            .map(|j| {
                (
                    format!("k{n}-{j}"),
                    format!("10.{n}.{}.{}", j / 256, j % 256),
                )
            })
            .collect();
        edits.push((
            &items.items[idx],
            Edit::AddEntries {
                path: vec![Seg::key("metadata"), Seg::key("labels")],
                entries,
            },
        ));
    }
    edits.push((
        &items.items[9_999],
        Edit::SetScalar {
            path: vec![Seg::key("spec"), Seg::key("online")],
            value: "false".into(),
            style: crate::yaml::WriteStyle::Keep,
        },
    ));
    edits.push((
        root,
        Edit::AddEntries {
            path: vec![Seg::key("results")],
            entries: vec![("summary".into(), "done".into())],
        },
    ));
    let out = apply(&text, &edits).unwrap();
    let docs = parse(&out).unwrap();
    let new_root = &docs[0].root;
    let new_items = new_root.get("items").and_then(|n| n.as_seq()).unwrap();
    assert_eq!(new_items.items.len(), 10_000);
    for (n, idx) in [0usize, 4_999, 9_998, 9_999].into_iter().enumerate() {
        let labels = new_items.items[idx]
            .get_path(&[Seg::key("metadata"), Seg::key("labels")])
            .and_then(|n| n.as_map())
            .unwrap();
        assert_eq!(labels.len(), 10_002);
        assert_eq!(
            labels.get(&format!("k{n}-9999")).and_then(|v| v.as_str()),
            Some(format!("10.{n}.39.15").as_str())
        );
    }
    let untouched = new_items.items[1].to_json();
    assert_eq!(untouched, items.items[1].to_json());
    assert_eq!(
        new_items.items[9_999]
            .get_path(&[Seg::key("spec"), Seg::key("online")])
            .map(|n| n.to_json()),
        Some(serde_json::json!(false))
    );
    assert_eq!(
        new_root
            .get_path(&[Seg::key("results"), Seg::key("summary")])
            .and_then(|n| n.as_str()),
        Some("done")
    );
    // untouched items are byte-identical, at the same offset (nothing was inserted before them
    // except item 0's labels)
    let middle = &text[items.items[1].span.start..items.items[4_998].span.end];
    let shift = out.len() - text.len();
    assert!(shift > 0);
    let first_new = new_items.items[1].span.start;
    assert_eq!(&out[first_new..first_new + middle.len()], middle);
}

/// A measurement, not an assertion: `cargo test --release -- --ignored --nocapture
/// to_json_timing` prints how long `to_json` and 40,000 lookups take on a 10,000-item list,
/// without and with merge keys.
#[test]
#[ignore]
fn to_json_timing() {
    let mut text = String::from("apiVersion: v1\nkind: List\nitems:\n");
    for i in 0..10_000 {
        text.push_str(&item(i));
    }
    let docs = parse(&text).unwrap();
    // the walk `to_json` did before merge keys, for comparison
    fn plain_walk(node: &crate::yaml::Node) -> serde_json::Value {
        use crate::yaml::NodeKind;
        match &node.resolved().kind {
            NodeKind::Map(m) => {
                let mut obj = serde_json::Map::new();
                for (k, v) in &m.entries {
                    let key = k
                        .as_scalar()
                        .map_or_else(|| k.to_json().to_string(), |s| s.value.clone());
                    obj.insert(key, plain_walk(v));
                }
                serde_json::Value::Object(obj)
            }
            NodeKind::Seq(s) => serde_json::Value::Array(s.items.iter().map(plain_walk).collect()),
            _ => node.to_json(),
        }
    }
    let mut n = 0;
    for round in 0..3 {
        let t = std::time::Instant::now();
        for _ in 0..5 {
            n += plain_walk(&docs[0].root)["items"]
                .as_array()
                .map_or(0, Vec::len);
        }
        let before = t.elapsed() / 5;
        let t = std::time::Instant::now();
        for _ in 0..5 {
            n += docs[0].root.to_json()["items"]
                .as_array()
                .map_or(0, Vec::len);
        }
        let now = t.elapsed() / 5;
        println!(
            "round {round}: to_json {now:?}, the walk without merge handling {before:?} ({n})"
        );
    }
    let mut merged = String::from("base: &b {x: 1, y: 2}\nitems:\n");
    for i in 0..10_000 {
        merged.push_str(&item(i).replacen("  kind:", "  <<: *b\n  kind:", 1));
    }
    let docs = parse(&merged).unwrap();
    let t = std::time::Instant::now();
    for _ in 0..5 {
        n += docs[0].root.to_json()["items"]
            .as_array()
            .map_or(0, Vec::len);
    }
    println!(
        "to_json, a merge key per item: {:?} per run ({n})",
        t.elapsed() / 5
    );
    let mut big = String::from("m:\n  <<: {z: 0}\n");
    for i in 0..40_000 {
        big.push_str(&format!("  k{i}: v{i}\n"));
    }
    let docs = parse(&big).unwrap();
    let m = docs[0].root.get("m").unwrap();
    let t = std::time::Instant::now();
    let hits = (0..40_000)
        .filter(|i| m.get(&format!("k{i}")).is_some())
        .count()
        + usize::from(m.get("z").is_some());
    println!(
        "40,001 lookups in a 40,000-entry mapping with `<<`: {:?} ({hits})",
        t.elapsed()
    );
}
