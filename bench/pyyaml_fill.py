#!/usr/bin/env python3
"""The job done the usual way, as the baseline of bench/compare.py: PyYAML loads the whole
ResourceList (with libyaml's C loader when PyYAML has it, as a careful script would), every
(BareMetalHost, IPPool) pair of a namespace without an entry `{host}-{pool}` gets the next
free address of the pool (sequential, skipping the gateway, DNS servers and addresses already
held), and PyYAML dumps the list again.

It is deliberately simple: no comments or formatting kept, no validation, no IPv6 text
rules, no pins, templates or adoption. It is what the cost of "load, fill, dump" looks like,
not a second implementation of ipreuse.

    python3 bench/pyyaml_fill.py < resource-list.yaml > out.yaml
"""
import ipaddress
import sys

import yaml

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def candidates(spec):
    for p in spec.get("pools") or []:
        if "subnet" in p:
            net = ipaddress.ip_network(p["subnet"], strict=False)
            start, end = net.network_address + 1, net.broadcast_address - 1
        else:
            start = ipaddress.ip_address(p["start"])
            end = ipaddress.ip_address(p.get("end", p["start"]))
        a = start
        while a <= end:
            yield a
            a += 1


def fill(items):
    hosts, pools = {}, {}
    for it in items:
        kind, meta = it.get("kind"), it.get("metadata") or {}
        ns = meta.get("namespace", "default")
        if kind == "BareMetalHost":
            hosts.setdefault(ns, []).append(meta["name"])
        elif kind == "IPPool":
            pools.setdefault(ns, []).append(it)
    for ns, ps in pools.items():
        for pool in ps:
            name = pool["metadata"]["name"]
            spec = pool.setdefault("spec", {})
            pre = spec.get("preAllocations") or {}
            taken = {ipaddress.ip_address(v) for v in pre.values()}
            for r in ("gateway",):
                if spec.get(r):
                    taken.add(ipaddress.ip_address(spec[r]))
            for d in spec.get("dnsServers") or []:
                taken.add(ipaddress.ip_address(d))
            free = (a for a in candidates(spec) if a not in taken)
            for host in sorted(hosts.get(ns, [])):
                key = f"{host}-{name}"
                if key not in pre:
                    pre[key] = str(next(free))
            spec["preAllocations"] = pre


def main():
    rl = yaml.load(sys.stdin, Loader=Loader)
    fill(rl.get("items") or [])
    yaml.dump(rl, sys.stdout, Dumper=Dumper, sort_keys=False)


if __name__ == "__main__":
    main()
