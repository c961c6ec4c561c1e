#!/usr/bin/env python3
"""Measures ipreuse against the alternatives on the same inputs, in the same run.

    cargo build --release
    python3 bench/compare.py                        # 1k, 10k and 50k hosts, 5 runs each
    python3 bench/compare.py --hosts 10000 --runs 3
    python3 bench/compare.py --big                  # adds the ~100 MB input (131k hosts)

Every input is a ResourceList (what kpt and kustomize hand a function) that
bench/gen_fleet.py writes: N BareMetalHosts with an inspected host's status (hardware) and
4 IPPools (two IPv4 /16, two IPv6 /64) in one namespace, no entry yet, so that every run
writes N x 4 entries. On each input, in turns (so that a busy moment hits every command):

- cat: reads the file and writes it out (the I/O floor);
- pass-through: `ipreuse --pass-through`, the same binary reading the input with its own
  reader and printing it back (the floor of this design);
- ipreuse: the function itself (`ipreuse < input`);
- pyyaml: bench/pyyaml_fill.py, the same job the usual way (PyYAML load, fill, dump);
- kpt identity: `kpt fn eval - --exec cat`, kpt running a function that changes nothing
  (the orchestrator's own cost; skipped, and said so, when kpt is not on PATH).

Wall time is the median of the runs (measured by this script around each command), peak
memory the largest maximum resident set size of the command and the children it waited for,
as GNU time (`/usr/bin/time`, Debian's package `time`) reports it.
Output goes to /dev/null. The table is printed as Markdown, with the machine it ran on.
"""
import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


TIME = "/usr/bin/time"


def run_once(argv, stdin_path):
    """(wall seconds, peak RSS in bytes) of one run, output discarded.

    The peak is GNU time's %M: the command runs under /usr/bin/time, a small C program, because
    a process started straight from Python would report Python's own size as its peak (Linux
    keeps the larger resident size across the fork and exec)."""
    with open(stdin_path, "rb") as stdin, open(os.devnull, "wb") as devnull:
        start = time.perf_counter()
        proc = subprocess.run(
            [TIME, "-f", "ipreuse-bench %M", *argv], stdin=stdin, stdout=devnull, stderr=subprocess.PIPE
        )
        wall = time.perf_counter() - start
    err = proc.stderr.decode(errors="replace")
    if proc.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed (exit {proc.returncode}):\n{err}")
    peak_kb = [line.split()[1] for line in err.splitlines() if line.startswith("ipreuse-bench ")]
    return wall, int(peak_kb[-1]) * 1024


def generate(hosts, path):
    with open(path, "w") as out:
        subprocess.run(
            [sys.executable, os.path.join(HERE, "gen_fleet.py"), str(hosts), "--status", "--resource-list"],
            stdout=out,
            check=True,
        )


def commands(binary, kpt, cat):
    cmds = [
        ("cat", [cat]),
        # The ~100 MB input is over the default input size limit (64 MiB): raised for both.
        ("pass-through", [binary, "--pass-through", "--max-input-size", "256Mi"]),
        ("ipreuse", [binary, "--max-input-size", "256Mi"]),
        ("pyyaml", [sys.executable, os.path.join(HERE, "pyyaml_fill.py")]),
    ]
    if kpt:
        cmds.append(("kpt identity", [kpt, "fn", "eval", "-", "--exec", cat]))
    return cmds


def machine():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kb = int(f.readline().split()[1])
            mem = f", {kb / 1024 / 1024:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return f"{platform.system()} {platform.release()}, {os.cpu_count()} CPUs ({cpu}){mem}, Python {platform.python_version()}"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hosts", default="1000,10000,50000", help="comma-separated fleet sizes")
    p.add_argument("--big", action="store_true", help="add the ~100 MB input (131,000 hosts)")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "ipreuse"))
    p.add_argument("--skip", default="", help="comma-separated commands to leave out (e.g. pyyaml)")
    a = p.parse_args()
    if not os.access(TIME, os.X_OK):
        sys.exit(f"{TIME} (GNU time) is needed for the peak memory: apt-get install time")
    if not os.access(a.bin, os.X_OK):
        sys.exit(f"{a.bin} is not there: run `cargo build --release` first (or give --bin)")
    sizes = [int(s) for s in a.hosts.split(",") if s]
    if a.big:
        sizes.append(131000)
    skip = {s.strip() for s in a.skip.split(",") if s.strip()}
    kpt = shutil.which("kpt")
    cat = shutil.which("cat")
    cmds = [(n, c) for n, c in commands(a.bin, kpt, cat) if n not in skip]
    version = subprocess.run([a.bin, "--version"], capture_output=True, text=True).stdout.strip()

    print(f"Machine: {machine()}")
    print(f"Binary: {version} ({a.bin}); kpt: {'not on PATH, left out' if not kpt else subprocess.run([kpt, 'version'], capture_output=True, text=True).stdout.strip()}")
    print(f"Command: python3 bench/compare.py --hosts {a.hosts}{' --big' if a.big else ''} --runs {a.runs}")
    print()
    print("| hosts | input | command | wall (median) | × pass-through | peak memory | × input |")
    print("|---:|---:|---|---:|---:|---:|---:|")
    walls = {}
    with tempfile.TemporaryDirectory(prefix="ipreuse-bench-") as tmp:
        for hosts in sizes:
            path = os.path.join(tmp, f"fleet-{hosts}.yaml")
            generate(hosts, path)
            size = os.path.getsize(path)
            times = {n: [] for n, _ in cmds}
            peaks = {n: 0 for n, _ in cmds}
            for _ in range(a.runs):
                for name, argv in cmds:
                    wall, peak = run_once(argv, path)
                    times[name].append(wall)
                    peaks[name] = max(peaks[name], peak)
            floor = statistics.median(times["pass-through"]) if "pass-through" in times else None
            for name, _ in cmds:
                wall = statistics.median(times[name])
                walls[(hosts, name)] = wall
                ratio = f"{wall / floor:.2f}" if floor else "-"
                print(
                    f"| {hosts:,} | {size / 1e6:.1f} MB | {name} | {wall:.3f} s | {ratio} | "
                    f"{peaks[name] / 1e6:.0f} MB | {peaks[name] / size:.1f} |"
                )
            sys.stdout.flush()
    print()
    ordered = sorted(sizes)
    for (small, large) in zip(ordered, ordered[1:]):
        for name, _ in cmds:
            if (small, name) in walls and walls[(small, name)] > 0:
                grow = walls[(large, name)] / walls[(small, name)]
                print(f"- {name}: {small:,} → {large:,} hosts ({large / small:.0f}× the hosts): {grow:.2f}× the time")


if __name__ == "__main__":
    main()
