#!/usr/bin/env python3
"""Proves that two builds of ipreuse write the same bytes: stdout, stderr and exit code.

    cargo build --release
    cp target/release/ipreuse /tmp/ipreuse-before      # on the old commit
    ...                                                 # change, build again
    python3 bench/same_output.py /tmp/ipreuse-before target/release/ipreuse

For a change that must not change behaviour (a refactoring, a speed trick removed). Both
binaries run on the same inputs, in the same folder, one after the other:

- the fleets bench/gen_fleet.py writes: N hosts x 4 pools (--hosts, default 10,000) as a
  plain stream and as a ResourceList, each without and with --status; and, at modest sizes,
  the other shapes (namespaces, overlap, entries, network with and without the annotation,
  pool24, pool64);
- on each: the function on the file (on stdin for a ResourceList), `--mode check`, and
  `plan --format table|csv|json|hosts`; the plain fleet on stdin as well;
- every example package (a folder of examples/ with a Kptfile): its Kptfile's ipreuse steps
  in order, each with the step's functionConfig (`configPath`, or `configMap` written out as
  a ConfigMap) and `--in-place` on a copy of examples/, after `plan` and `--mode check` on the
  untouched copy; then the two rewritten trees are compared file by file.

Each difference is printed with the command and the first line that differs; the exit code
is 0 when every run and every file is identical, 1 otherwise. --keep DIR leaves the inputs
and the rewritten trees there.
"""
import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile

import yaml  # PyYAML, for the Kptfiles only (bench/pyyaml_fill.py needs it too)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FORMATS = ["table", "csv", "json", "hosts"]


def inputs(n):
    """(file name, gen_fleet.py arguments, whether it is a ResourceList)."""
    small = max(n // 5, 10)
    return [
        ("fleet.yaml", [str(n)], False),
        ("fleet-status.yaml", [str(n), "--status"], False),
        ("rl.yaml", [str(n), "--resource-list"], True),
        ("rl-status.yaml", [str(n), "--status", "--resource-list"], True),
        ("namespaces.yaml", [str(small), "--shape", "namespaces"], False),
        ("overlap.yaml", ["200", "--shape", "overlap"], False),
        ("entries.yaml", [str(small), "--shape", "entries"], False),
        ("network.yaml", ["50", "--shape", "network", "--hosts", "20"], False),
        ("network-plain.yaml", ["50", "--shape", "network", "--hosts", "20", "--plain"], False),
        ("pool24.yaml", ["200", "--shape", "pool24"], False),
        ("pool64.yaml", ["200", "--shape", "pool64"], False),
    ]


def fleet_runs(name, resource_list):
    """(label, arguments, stdin file or None) for one generated input."""
    if resource_list:
        runs = [(f"{name} on stdin", [], name), (f"--mode check, {name} on stdin", ["--mode", "check"], name)]
        runs += [(f"plan --format {f}, {name} on stdin", ["plan", "--format", f], name) for f in FORMATS]
        return runs
    runs = [(name, [name], None), (f"--mode check {name}", ["--mode", "check", name], None)]
    runs += [(f"plan --format {f} {name}", ["plan", "--format", f, name], None) for f in FORMATS]
    if name == "fleet.yaml":
        runs.append((f"{name} on stdin", [], name))
    return runs


def run(binary, args, stdin, cwd):
    with open(os.path.join(cwd, stdin), "rb") if stdin else open(os.devnull, "rb") as f:
        p = subprocess.run([binary, *args], stdin=f, cwd=cwd, capture_output=True)
    return p.returncode, p.stdout, p.stderr


def first_difference(a, b):
    """The first differing line of two byte strings, as text to print."""
    la, lb = a.split(b"\n"), b.split(b"\n")
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return f"line {i + 1}:\n      old: {x[:300]!r}\n      new: {y[:300]!r}"
    shorter = "new" if len(lb) < len(la) else "old"
    return f"{shorter} ends at line {min(len(la), len(lb))} ({len(a)} against {len(b)} bytes)"


class Comparison:
    def __init__(self, old, new):
        self.old, self.new = old, new
        self.runs = self.differences = 0
        self.bytes = 0

    def same(self, label, old_result, new_result):
        self.runs += 1
        self.bytes += len(old_result[1]) + len(old_result[2])
        diffs = []
        if old_result[0] != new_result[0]:
            diffs.append(f"  exit code: old {old_result[0]}, new {new_result[0]}")
        for what, i in (("stdout", 1), ("stderr", 2)):
            if old_result[i] != new_result[i]:
                diffs.append(f"  {what} differs at {first_difference(old_result[i], new_result[i])}")
        status = "same" if not diffs else "DIFFERENT"
        print(
            f"{status:9} exit {old_result[0]}  stdout {len(old_result[1]):>9,} B  "
            f"stderr {len(old_result[2]):>7,} B  {label}"
        )
        for d in diffs:
            print(d)
        self.differences += bool(diffs)

    def both(self, label, args, stdin, cwd):
        self.same(label, run(self.old, args, stdin, cwd), run(self.new, args, stdin, cwd))


def pipeline_steps(kptfile):
    """The Kptfile's ipreuse steps in order: each its --config file's contents or path."""
    with open(kptfile) as f:
        doc = yaml.safe_load(f) or {}
    pipeline = doc.get("pipeline") or {}
    steps = []
    for step in (pipeline.get("mutators") or []) + (pipeline.get("validators") or []):
        if step.get("exec") != "ipreuse":
            continue
        if "configPath" in step:
            steps.append(("path", step["configPath"]))
        elif "configMap" in step:
            data = {k: str(v) for k, v in step["configMap"].items()}
            cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "function-input"}, "data": data}
            steps.append(("text", yaml.safe_dump(cm, sort_keys=False)))
        else:
            steps.append(None)
    return steps


def examples(cmp, work):
    """Each example's steps on a copy of examples/ made at the same path for both binaries, so
    that the paths in messages agree; then the two rewritten trees, file by file."""
    source = os.path.join(ROOT, "examples")
    packages = sorted(
        os.path.relpath(d, source) for d, _, files in os.walk(source) if "Kptfile" in files
    )
    trees = {}
    results = {}
    for side, binary in (("old", cmp.old), ("new", cmp.new)):
        tree = os.path.join(work, "examples")
        shutil.copytree(source, tree, symlinks=True)
        out = results.setdefault(side, [])
        for pkg in packages:
            for i, step in enumerate(pipeline_steps(os.path.join(tree, pkg, "Kptfile"))):
                config = []
                if step and step[0] == "path":
                    config = ["--config", os.path.join(pkg, step[1])]
                elif step:
                    cfg = os.path.join(work, f"config-{pkg.replace('/', '_')}-{i}.yaml")
                    with open(cfg, "w") as f:
                        f.write(step[1])
                    config = ["--config", cfg]
                label = f"examples/{pkg} step {i + 1}"
                # Read-only runs first, on the untouched package, then the rewrite.
                for what, args in (
                    ("plan", ["plan", *config, pkg]),
                    ("--mode check", ["--mode", "check", *config, pkg]),
                    ("--in-place", ["--in-place", *config, pkg]),
                ):
                    out.append((f"{what} {label}", run(binary, args, None, tree)))
        trees[side] = os.path.join(work, f"examples-{side}")
        os.rename(tree, trees[side])
    for (label, old), (_, new) in zip(results["old"], results["new"]):
        cmp.same(label, old, new)
    # The rewritten trees, every file.
    names = set()
    for side in trees:
        for d, _, files in os.walk(trees[side]):
            names.update(os.path.relpath(os.path.join(d, f), trees[side]) for f in files)
    differing = []
    for name in sorted(names):
        a, b = (os.path.join(trees[s], name) for s in ("old", "new"))
        if not (os.path.exists(a) and os.path.exists(b)) or not filecmp.cmp(a, b, shallow=False):
            differing.append(name)
    cmp.runs += 1
    if differing:
        cmp.differences += 1
        print(f"DIFFERENT the rewritten examples/ trees: {', '.join(differing)}")
    else:
        print(f"same      the rewritten examples/ trees ({len(names)} files)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old", help="the binary before the change")
    ap.add_argument("new", help="the binary after the change")
    ap.add_argument("--hosts", type=int, default=10000, help="hosts of the big fleets")
    ap.add_argument("--keep", metavar="DIR", help="make the inputs and trees here and leave them")
    a = ap.parse_args()
    old, new = (os.path.abspath(b) for b in (a.old, a.new))
    if a.keep:
        os.makedirs(a.keep, exist_ok=False)
        work = os.path.abspath(a.keep)
    else:
        temp = tempfile.TemporaryDirectory(prefix="same-output-")
        work = temp.name
    cmp = Comparison(old, new)
    gen = os.path.join(HERE, "gen_fleet.py")
    for name, args, resource_list in inputs(a.hosts):
        with open(os.path.join(work, name), "wb") as f:
            subprocess.run([sys.executable, gen, *args], stdout=f, check=True)
        for label, run_args, stdin in fleet_runs(name, resource_list):
            cmp.both(label, run_args, stdin, work)
    examples(cmp, work)
    print(
        f"\n{cmp.runs} comparisons ({cmp.bytes:,} bytes of output each side): "
        + ("no difference" if not cmp.differences else f"{cmp.differences} DIFFERENT")
    )
    return 1 if cmp.differences else 0


if __name__ == "__main__":
    sys.exit(main())
