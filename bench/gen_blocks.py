#!/usr/bin/env python3
"""Writes a ResourceList of N clusters that ask for blocks (SPEC §12), for timing the hand-out.

Each cluster has its own namespace with two IPPools and no ranges: `prov`, on an IPv4 /8 network
that hands out /24 range blocks, and `ext`, on an IPv6 /32 network that hands out /64 subnet blocks.
With --existing K, the first K clusters already hold their blocks (written as ranges), scattered
over the networks, so that the new ones must find the gaps. --hosts H gives each cluster H hosts,
each a host of both pools, so that the new ranges are filled too.

Usage: python3 bench/gen_blocks.py 1000 [--existing 500] [--hosts 2] > /tmp/blocks1k.yaml
       target/release/ipreuse < /tmp/blocks1k.yaml > /dev/null
"""

import argparse
import ipaddress
import sys

CONFIG = """  apiVersion: fn.ipreuse.dev/v1alpha1
  kind: IPReuse
  metadata:
    name: blocks
  spec:
    controllerFlag: false
    networks:
    - {name: prov, cidr: 10.0.0.0/8, blockSize: 24, gateway: 10.0.0.1, dnsServers: [10.0.0.2]}
    - {name: ext, cidr: "fd00:1::/32", blockSize: 64, blockKind: subnet, gatewayPolicy: first}
"""


def pool(ns, name, network, ranges):
    out = [
        "- apiVersion: ipam.metal3.io/v1alpha1",
        "  kind: IPPool",
        "  metadata:",
        f"    name: {name}",
        f"    namespace: {ns}",
        "    annotations:",
        f"      ipreuse.dev/network: {network}",
        "  spec:",
        f"    clusterName: {ns}",
        f"    namePrefix: {ns}-{name}",
    ]
    if ranges:
        out.append("    pools:")
        out.extend(f"    - {r}" for r in ranges)
    return "\n".join(out) + "\n"


def host(ns, name):
    return "\n".join([
        "- apiVersion: metal3.io/v1alpha1",
        "  kind: BareMetalHost",
        "  metadata:",
        f"    name: {name}",
        f"    namespace: {ns}",
        "  spec:",
        "    online: true",
    ]) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("clusters", type=int)
    p.add_argument("--existing", type=int, default=0, help="clusters that already hold a block")
    p.add_argument("--hosts", type=int, default=0, help="hosts per cluster")
    a = p.parse_args()
    v4 = ipaddress.ip_network("10.0.0.0/8")
    v6 = ipaddress.ip_network("fd00:1::/32")
    out = ["apiVersion: config.kubernetes.io/v1", "kind: ResourceList", "functionConfig:", CONFIG.rstrip("\n"), "items:"]
    for i in range(a.clusters):
        ns = f"c{i:05d}"
        prov, ext = [], []
        if i < a.existing:
            # every third block, so that the new clusters fill the gaps first
            n = 3 * i + 1
            net4 = ipaddress.ip_network((int(v4.network_address) + (n << 8), 24))
            net6 = ipaddress.ip_network((int(v6.network_address) + (n << 64), 64))
            prov = [f'{{start: "{net4[10]}", end: "{net4[200]}"}}']
            ext = [f'{{subnet: "{net6}"}}']
        out.append(pool(ns, "prov", "prov", prov).rstrip("\n"))
        out.append(pool(ns, "ext", "ext", ext).rstrip("\n"))
        for h in range(a.hosts):
            out.append(host(ns, f"{ns}-h{h}").rstrip("\n"))
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
