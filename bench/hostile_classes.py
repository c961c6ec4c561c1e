#!/usr/bin/env python3
"""Times ipreuse on ClusterClass packages built to make the topology evaluation run away.

Each case copies examples/clusterclass into a temporary folder, makes its class hostile and
stamps it with many Clusters, then runs the binary on the folder under GNU time and prints the
wall time, the peak resident set, the exit code and the first error's limit. Every case must end
(exit 1, an error naming the limit) well under 10 s and 1 GB; BENCHMARKS.md, "The run-wide bound
(issue 32)", records a run.

  heavy-patches   P patches whose template each takes about a million steps (nested ranges)
                  x C Clusters: the run-wide step limit
  semver-patches  the same with a semverCompare call in the inner loop, the costliest step
                  measured
  big-template    a class template with an annotation of P KiB x C Clusters: the run-wide limit
                  on the bytes of copies
  at-input-limit  both, in an input just under the 64 MiB input limit
  many-clusters   no hostile template: 74,000 Clusters of the example's class, just under the
                  input limit (the run-wide copy limit stops their copies)

Usage: python3 bench/hostile_classes.py [--binary target/release/ipreuse] [--keep DIR]
"""

import argparse
import os
import re
import shutil
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "clusterclass")

NESTED = '{{ $l := split "" "%s" }}{{ range $l }}{{ range $l }}{{ end }}{{ end }}raw' % ("a" * 995)
SEMVER = (
    '{{ $l := split "" "%s" }}{{ range $l }}{{ range $l }}'
    '{{ $x := semverCompare ">=1.2.3 || <1.0.0 || ~2.3" "1.5.0" }}{{ end }}{{ end }}raw'
) % ("a" * 700)


def patch(i, template):
    return f"""  - name: heavy{i}
    definitions:
    - selector:
        apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
        kind: Metal3MachineTemplate
        matchResources:
          controlPlane: true
      jsonPatches:
      - op: replace
        path: /spec/template/spec/image/format
        valueFrom:
          template: '{template}'
"""


def package(folder, patches, template, annotation_kib, clusters):
    for name in os.listdir(EXAMPLE):
        if name.endswith(".yaml") or name == "Kptfile":
            shutil.copy(os.path.join(EXAMPLE, name), folder)
    path = os.path.join(folder, "clusterclass-metal3.yaml")
    with open(path) as f:
        text = f.read()
    if patches:
        added = "".join(patch(i, template) for i in range(patches))
        text = text.replace("  patches:\n", "  patches:\n" + added, 1)
    if annotation_kib:
        head = "kind: Metal3MachineTemplate\nmetadata:\n"
        at = text.index(head) + len(head)
        text = text[:at] + f"  annotations:\n    big: {'x' * (annotation_kib * 1024)}\n" + text[at:]
    with open(path, "w") as f:
        f.write(text)
    with open(os.path.join(folder, "cluster-test1.yaml")) as f:
        cluster = f.read().split("\n---\n")[0]
    # the Cluster without its comments: as many Clusters as the input limit holds
    cluster = "\n".join(l for l in cluster.splitlines() if not l.lstrip().startswith("#"))
    with open(os.path.join(folder, "clusters-many.yaml"), "w") as f:
        f.write("\n---\n".join(cluster.replace("name: test1\n", f"name: x{k}\n", 1) for k in range(clusters)))
        f.write("\n")


def run(binary, folder):
    start = time.monotonic()
    done = subprocess.run(
        ["/usr/bin/time", "-f", "%M", binary, folder],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    wall = time.monotonic() - start
    lines = done.stderr.strip().splitlines()
    peak_kb = int(lines[-1]) if lines and lines[-1].isdigit() else 0
    limit = next((m.group(0) for l in lines if (m := re.search(r"limit of \d+ (template steps|bytes)", l))), "-")
    return wall, peak_kb, done.returncode, limit


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "ipreuse"))
    parser.add_argument("--keep", help="write the packages under DIR and keep them")
    args = parser.parse_args()
    cases = [
        ("heavy-patches", 50, NESTED, 0, 100),
        ("semver-patches", 50, SEMVER, 0, 100),
        ("big-template", 0, "", 10 * 1024, 2000),
        # near the 64 MiB input limit: a 40 MiB template and 12,000 Clusters
        ("at-input-limit", 50, SEMVER, 40 * 1024, 12000),
        # near the 64 MiB input limit: 74,000 plain Clusters of the example's class
        ("many-clusters", 0, "", 0, 74000),
    ]
    base = args.keep or tempfile.mkdtemp(prefix="ipreuse-hostile-")
    print(f"| case | input | wall | peak | exit | first limit named |")
    print(f"|---|---:|---:|---:|---:|---|")
    for name, patches, template, kib, clusters in cases:
        folder = os.path.join(base, name)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        package(folder, patches, template, kib, clusters)
        size = sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder))
        wall, peak, code, limit = run(args.binary, folder)
        print(f"| {name} | {size / 1e6:.1f} MB | {wall:.2f} s | {peak / 1024:.0f} MB | {code} | {limit} |")
    if not args.keep:
        shutil.rmtree(base)


if __name__ == "__main__":
    main()
