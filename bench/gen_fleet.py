#!/usr/bin/env python3
"""Writes a fleet package to stdout: N BareMetalHosts and 4 IPPools (2 IPv4 /16, 2 IPv6 /64)
in one namespace, as a plain YAML stream.

    python3 bench/gen_fleet.py 10000 > /tmp/fleet.yaml
    time target/release/ipreuse /tmp/fleet.yaml > /tmp/out.yaml
"""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
out = sys.stdout
for i in range(n):
    out.write(f"""---
apiVersion: metal3.io/v1alpha1
kind: BareMetalHost
metadata:
  name: node-{i}
  namespace: fleet
  labels:
    rack: r{i % 40}
spec:
  online: true
  bootMACAddress: 00:11:22:{(i >> 16) & 255:02x}:{(i >> 8) & 255:02x}:{i & 255:02x}
  bmc:
    address: redfish+http://10.1.{(i >> 8) & 255}.{i & 255}:8000/redfish/v1/Systems/1
    credentialsName: node-{i}-bmc-secret
""")
pools = [
    ("prov", "10.10.0.10", "10.10.255.250", 16, "10.10.0.1"),
    ("ext", "10.20.0.10", "10.20.255.250", 16, "10.20.0.1"),
    ("v6a", "2001:db8:1::10", "2001:db8:1::ffff:ffff", 64, "2001:db8:1::1"),
    ("v6b", "2001:db8:2::10", "2001:db8:2::ffff:ffff", 64, "2001:db8:2::1"),
]
for name, start, end, prefix, gw in pools:
    out.write(f"""---
apiVersion: ipam.metal3.io/v1alpha1
kind: IPPool
metadata:
  name: {name}
  namespace: fleet
spec:
  namePrefix: fleet-{name}
  pools:
  - start: {start}
    end: {end}
  prefix: {prefix}
  gateway: {gw}
""")
