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
