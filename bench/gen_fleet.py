#!/usr/bin/env python3
"""Writes a package to stdout as a plain YAML stream, to measure how ipreuse scales.

    python3 bench/gen_fleet.py 10000 > /tmp/fleet.yaml          # N hosts, 4 pools, one namespace
    python3 bench/gen_fleet.py 20000 --shape namespaces > /tmp/ns.yaml
    python3 bench/gen_fleet.py 600 --shape overlap > /tmp/overlap.yaml
    python3 bench/gen_fleet.py 50000 --shape entries > /tmp/entries.yaml
    python3 bench/gen_fleet.py 100 --shape network --hosts 100 > /tmp/net.yaml
    python3 bench/gen_fleet.py 1 --shape network --hosts 10000 > /tmp/net1.yaml
    python3 bench/gen_fleet.py 100 --shape clusterclass > /tmp/cc.yaml   # 100 Clusters, 10 classes
    /usr/bin/time -f "%e s %M KB" target/release/ipreuse /tmp/fleet.yaml > /dev/null

Shapes (N is the dimension that grows):
- fleet: N BareMetalHosts and 4 IPPools (2 IPv4 /16, 2 IPv6 /64) in one namespace; above
  65,000 hosts, which a /16 cannot hold, the IPv4 pools are /13.
- namespaces: N namespaces, each with one host and one pool (same range everywhere).
- overlap: N pools over one IPv4 /16 in one namespace, with --hosts hosts (default 10).
- entries: one pool whose N entries already exist, for N hosts of the input, half of them
  scattered (every other address), and N stale entries of hosts that are gone.
- network: N namespaces (clusters) with --hosts hosts each and one IPPool each, all over one
  IPv4 /16 and annotated `ipreuse.dev/network: prov` (SPEC §10: they share the addresses, and
  every pool overlaps every other, the worst case); --plain leaves the annotation out.
  `1 --hosts N*H` is the same hosts in one namespace, to compare with.
- pool24, pool64: N hosts (N <= 240) and one pool of 241 addresses, in a /24 or in a /64.
- clusterclass: N Clusters stamped from --classes ClusterClasses (default 10), class k and its
  Clusters in namespace class-k, --hosts hosts a Cluster (default 10: 3 control plane, the rest
  workers; an odd class has a second MachineDeployment class, storage, with 2 of them). Each class
  swaps the control plane's data template from a variable (as CAPM3's e2e class does), puts the
  Cluster's name in every hostSelector and names the workers' data templates with
  valueFrom.template patches, and one patch with enabledIf (variable dualNetwork, true on every
  third Cluster, default false) gives the workers a third pool. Each Cluster has its own pools
  (2 to 4) and data templates; the class's own placeholder data template is used by no copy.
  `100 --shape clusterclass` is the input of the ClusterClass row of BENCHMARKS.md.

--status gives every host an inspected host's status (hardware); --resource-list writes the
package as the ResourceList kpt and kustomize hand a function (what bench/compare.py measures).
--live (fleet shape) adds what a running cluster holds for each host once it is provisioned:
its Metal3Machine, Metal3DataClaim and Metal3Data, and for each of the 4 pools an IPClaim
named `{host}-{pool}` (owned by the Metal3Data) with its IPAddress: 11 objects a host, labelled
as CAPM3 labels them (the function finds nothing to write in them);
and the Metal3DataTemplate they were made from, which takes an address from each pool.
"""
import argparse
import sys


STATUS = False
LIVE = False
NETWORK = "prov"
CLASSES = 10


def host(out, name, ns, i, labels=()):
    extra = "".join(f"\n    {k}: {v}" for k, v in labels)
    out.write(f"""---
apiVersion: metal3.io/v1alpha1
kind: BareMetalHost
metadata:
  name: {name}
  namespace: {ns}
  labels:
    rack: r{i % 40}{extra}
spec:
  online: true
  bootMACAddress: 00:11:22:{(i >> 16) & 255:02x}:{(i >> 8) & 255:02x}:{i & 255:02x}
  bmc:
    address: redfish+http://10.1.{(i >> 8) & 255}.{i & 255}:8000/redfish/v1/Systems/1
    credentialsName: {name}-bmc-secret
""")
    if STATUS:
        # What the baremetal-operator reports once a host is inspected (never read by ipreuse).
        out.write(f"""status:
  operationalStatus: OK
  provisioning:
    state: provisioned
    ID: 5f1c2d3e-0000-4000-8000-{i:012x}
  hardware:
    cpu:
      arch: x86_64
      model: Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz
      count: 128
    ramMebibytes: 524288
    nics:
    - name: eno1
      mac: 00:11:22:{(i >> 16) & 255:02x}:{(i >> 8) & 255:02x}:{i & 255:02x}
      speedGbps: 25
    systemVendor:
      manufacturer: Dell Inc.
      productName: PowerEdge R650
""")


def pool(out, name, ns, start, end, prefix, gw, entries=(), network=None):
    annotations = f"\n  annotations:\n    ipreuse.dev/network: {network}" if network else ""
    out.write(f"""---
apiVersion: ipam.metal3.io/v1alpha1
kind: IPPool
metadata:
  name: {name}
  namespace: {ns}{annotations}
spec:
  namePrefix: {ns}-{name}
  pools:
  - start: {start}
    end: {end}
  prefix: {prefix}
  gateway: {gw}
""")
    if entries:
        out.write("  preAllocations:\n")
        for key, addr in entries:
            out.write(f"    {key}: \"{addr}\"\n")


def v4(n):
    return f"{(n >> 24) & 255}.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}"


def live(out, name, ns, i, pools):
    """What a running cluster holds for host `name` (the i-th), provisioned from `pools`."""
    machine = f"workers-{i:06x}"
    data = f"workers-template-{i}"
    capm3 = "infrastructure.cluster.x-k8s.io/v1beta1"
    out.write(f"""---
apiVersion: {capm3}
kind: Metal3Machine
metadata:
  name: {machine}
  namespace: {ns}
  annotations:
    metal3.io/BareMetalHost: {ns}/{name}
spec:
  dataTemplate:
    name: workers-template
---
apiVersion: {capm3}
kind: Metal3DataClaim
metadata:
  name: {machine}
  namespace: {ns}
  ownerReferences:
  - apiVersion: {capm3}
    kind: Metal3Machine
    name: {machine}
    controller: true
spec:
  template:
    name: workers-template
---
apiVersion: {capm3}
kind: Metal3Data
metadata:
  name: {data}
  namespace: {ns}
  labels:
    infrastructure.cluster.x-k8s.io/data-name: {data}
    infrastructure.cluster.x-k8s.io/pool-name: {pools[0][0]}
spec:
  index: {i}
  claim:
    name: {machine}
    namespace: {ns}
  template:
    name: workers-template
    namespace: {ns}
""")
    for pool_name, start, _end, prefix, gw in pools:
        address = pool_address(start, i)
        claim = f"{name}-{pool_name}"
        out.write(f"""---
apiVersion: ipam.metal3.io/v1alpha1
kind: IPClaim
metadata:
  name: {claim}
  namespace: {ns}
  labels:
    infrastructure.cluster.x-k8s.io/pool-name: {pool_name}
    infrastructure.cluster.x-k8s.io/data-name: {data}
  ownerReferences:
  - apiVersion: {capm3}
    kind: Metal3Data
    name: {data}
    controller: true
spec:
  pool:
    name: {pool_name}
---
apiVersion: ipam.metal3.io/v1alpha1
kind: IPAddress
metadata:
  name: {ns}-{pool_name}-{address.replace('.', '-').replace(':', '-')}
  namespace: {ns}
spec:
  address: "{address}"
  prefix: {prefix}
  gateway: "{gw}"
  claim:
    name: {claim}
  pool:
    name: {pool_name}
""")


def pool_address(start, i):
    """The i-th address of a pool that starts at `start`."""
    if ":" in start:
        head, last = start.rsplit(":", 1)
        return f"{head}:{int(last, 16) + i:x}"
    a, b, c, d = (int(x) for x in start.split("."))
    n = ((a << 24) | (b << 16) | (c << 8) | d) + i
    return v4(n)


def fleet(out, n, _hosts):
    if n <= 65000:
        v4_pools = [
            ("prov", "10.10.0.10", "10.10.255.250", 16, "10.10.0.1"),
            ("ext", "10.20.0.10", "10.20.255.250", 16, "10.20.0.1"),
        ]
    else:
        # a /16 holds 65,521 hosts once its gateway and ends are left out
        v4_pools = [
            ("prov", "10.8.0.10", "10.15.255.250", 13, "10.8.0.1"),
            ("ext", "10.16.0.10", "10.23.255.250", 13, "10.16.0.1"),
        ]
    pools = v4_pools + [
        ("v6a", "2001:db8:1::10", "2001:db8:1::ffff:ffff", 64, "2001:db8:1::1"),
        ("v6b", "2001:db8:2::10", "2001:db8:2::ffff:ffff", 64, "2001:db8:2::1"),
    ]
    for i in range(n):
        host(out, f"node-{i}", "fleet", i)
        if LIVE:
            live(out, f"node-{i}", "fleet", i, pools)
    for name, start, end, prefix, gw in pools:
        pool(out, name, "fleet", start, end, prefix, gw)
    if LIVE:
        # the template every Metal3Data names, one address from each pool
        out.write("""---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: Metal3DataTemplate
metadata:
  name: workers-template
  namespace: fleet
spec:
  clusterName: fleet
  metaData:
    ipAddressesFromIPPool:
""")
        for name, *_ in pools:
            out.write(f"    - key: ip_{name}\n      name: {name}\n")


def namespaces(out, n, _hosts):
    for i in range(n):
        ns = f"cluster-{i}"
        host(out, "node-0", ns, i)
        pool(out, "prov", ns, "10.10.0.10", "10.10.0.250", 24, "10.10.0.1")


def overlap(out, n, hosts):
    for i in range(hosts):
        host(out, f"node-{i}", "shared", i)
    for i in range(n):
        pool(out, f"pool-{i}", "shared", "10.10.0.10", "10.10.255.250", 16, "10.10.0.1")


def entries(out, n, _hosts):
    base = 10 << 24
    kept = []
    for i in range(n):
        host(out, f"node-{i}", "fleet", i)
        # The first half packed, the second half every other address (many held ranges).
        offset = i if i < n // 2 else n // 2 + 2 * (i - n // 2)
        kept.append((f"node-{i}-prov", v4(base + 10 + offset)))
    gone = [(f"gone-{i}-prov", v4(base + 10 + 2 * n + i)) for i in range(n)]
    pool(out, "prov", "fleet", "10.0.0.10", "10.255.255.250", 8, "10.0.0.1", kept + gone)


def network(out, n, hosts):
    for c in range(n):
        ns = f"cluster-{c}"
        for i in range(hosts):
            host(out, f"node-{i}", ns, c * hosts + i)
        pool(out, "prov", ns, "10.10.0.10", "10.10.255.250", 16, "10.10.0.1", network=NETWORK)


def small_pool(out, n, _hosts, prefix=24):
    """N hosts (at most 240) and one pool of 241 addresses, in a /24 or a /64."""
    for i in range(n):
        host(out, f"node-{i}", "fleet", i)
    if prefix == 64:
        pool(out, "prov", "fleet", "2001:db8::10", "2001:db8::100", 64, "2001:db8::1")
    else:
        pool(out, "prov", "fleet", "10.10.0.10", "10.10.0.250", 24, "10.10.0.1")


def small_pool_v6(out, n, hosts):
    small_pool(out, n, hosts, 64)


CAPM3 = "infrastructure.cluster.x-k8s.io/v1beta1"


def machine_template(out, name, ns, role):
    out.write(f"""---
apiVersion: {CAPM3}
kind: Metal3MachineTemplate
metadata:
  name: {name}
  namespace: {ns}
spec:
  template:
    spec:
      dataTemplate:
        name: {ns}-placeholder
      image:
        url: http://172.22.0.1/images/node.img
        checksum: http://172.22.0.1/images/node.img.sha256sum
        checksumType: sha256
        format: raw
      hostSelector:
        matchLabels:
          role: {role}
""")


def data_template(out, name, ns, pools):
    networks = "".join(f"""
      - id: net{j}
        ipAddressFromIPPool: {p}
        link: enp{j + 1}s0""" for j, p in enumerate(pools))
    out.write(f"""---
apiVersion: {CAPM3}
kind: Metal3DataTemplate
metadata:
  name: {name}
  namespace: {ns}
spec:
  clusterName: {ns}
  metaData:
    ipAddressesFromIPPool:
    - key: provisioningIP
      name: {pools[0]}
    objectNames:
    - key: name
      object: machine
  networkData:
    networks:
      ipv4:{networks}
""")


def cluster_class(out, ns, storage):
    """A ClusterClass in the shape of CAPM3's e2e class, with the patches a fleet's class grows."""
    md_names = "\n            - worker" + ("\n            - storage" if storage else "")
    md_classes = "".join(f"""
    - class: {c}
      bootstrap:
        templateRef:
          apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
          kind: KubeadmConfigTemplate
          name: {ns}-workers
      infrastructure:
        templateRef:
          apiVersion: {CAPM3}
          kind: Metal3MachineTemplate
          name: {ns}-{c}""" for c in (["worker", "storage"] if storage else ["worker"]))
    out.write(f"""---
apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterClass
metadata:
  name: {ns}
  namespace: {ns}
spec:
  variables:
  - name: controlPlaneDataTemplate
    required: true
    schema:
      openAPIV3Schema:
        type: string
  - name: dualNetwork
    required: false
    schema:
      openAPIV3Schema:
        type: boolean
        default: false
  patches:
  - name: controlPlaneDataTemplateSub
    definitions:
    - selector:
        apiVersion: {CAPM3}
        kind: Metal3MachineTemplate
        matchResources:
          controlPlane: true
      jsonPatches:
      - op: replace
        path: /spec/template/spec/dataTemplate/name
        valueFrom:
          variable: controlPlaneDataTemplate
  - name: hostSelectorSub
    definitions:
    - selector:
        apiVersion: {CAPM3}
        kind: Metal3MachineTemplate
        matchResources:
          controlPlane: true
          machineDeploymentClass:
            names:{md_names}
      jsonPatches:
      - op: add
        path: /spec/template/spec/hostSelector/matchLabels/cluster
        valueFrom:
          template: "{{{{ .builtin.cluster.name }}}}"
  - name: workerDataTemplateSub
    definitions:
    - selector:
        apiVersion: {CAPM3}
        kind: Metal3MachineTemplate
        matchResources:
          machineDeploymentClass:
            names:{md_names}
      jsonPatches:
      - op: replace
        path: /spec/template/spec/dataTemplate/name
        valueFrom:
          template: "{{{{ .builtin.cluster.name }}}}-{{{{ .builtin.machineDeployment.class }}}}"
  - name: dualNetworkSub
    enabledIf: "{{{{ .dualNetwork }}}}"
    definitions:
    - selector:
        apiVersion: {CAPM3}
        kind: Metal3MachineTemplate
        matchResources:
          machineDeploymentClass:
            names:
            - worker
      jsonPatches:
      - op: replace
        path: /spec/template/spec/dataTemplate/name
        valueFrom:
          template: "{{{{ .builtin.cluster.name }}}}-worker-dual"
  controlPlane:
    templateRef:
      apiVersion: controlplane.cluster.x-k8s.io/v1beta2
      kind: KubeadmControlPlaneTemplate
      name: {ns}-control-plane
    machineInfrastructure:
      templateRef:
        apiVersion: {CAPM3}
        kind: Metal3MachineTemplate
        name: {ns}-control-plane
  infrastructure:
    templateRef:
      apiVersion: {CAPM3}
      kind: Metal3ClusterTemplate
      name: {ns}-cluster
  workers:
    machineDeployments:{md_classes}
""")
    machine_template(out, f"{ns}-control-plane", ns, "control-plane")
    machine_template(out, f"{ns}-worker", ns, "worker")
    if storage:
        machine_template(out, f"{ns}-storage", ns, "storage")
    # The class's own data template, which every patched copy replaces (as in CAPM3's e2e class).
    data_template(out, f"{ns}-placeholder", ns, [f"{ns}-placeholder-pool"])
    pool(out, f"{ns}-placeholder-pool", ns, "10.0.0.10", "10.0.0.250", 24, "10.0.0.1")


def clusterclass(out, n, hosts):
    """N Clusters stamped from CLASSES ClusterClasses, one namespace a class."""
    if hosts < 6:
        sys.exit("--hosts: at least 6 per Cluster (3 control plane, 1 worker, 2 storage)")
    for k in range(CLASSES):
        cluster_class(out, f"class-{k}", storage=k % 2 == 1)
    for c in range(n):
        k = c % CLASSES
        ns = f"class-{k}"
        name = f"cluster-{c}"
        storage = k % 2 == 1
        dual = c % 3 == 0
        roles = ["control-plane"] * 3 + ["storage"] * (2 if storage else 0)
        roles += ["worker"] * (hosts - len(roles))
        mds = [("md-0", "worker", roles.count("worker"))]
        if storage:
            mds.append(("md-1", "storage", 2))
        md_text = "".join(f"""
      - class: {cls}
        name: {md}
        replicas: {r}""" for md, cls, r in mds)
        dual_text = """
    - name: dualNetwork
      value: true""" if dual else ""
        out.write(f"""---
apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata:
  name: {name}
  namespace: {ns}
spec:
  topology:
    classRef:
      name: {ns}
    version: v1.34.1
    controlPlane:
      replicas: 3
    workers:
      machineDeployments:{md_text}
    variables:
    - name: controlPlaneDataTemplate
      value: {name}-cp{dual_text}
""")
        for i, role in enumerate(roles):
            host(out, f"{name}-node-{i}", ns, c * hosts + i,
                 [("cluster", name), ("role", role)])
        base = (10 << 24) + (c + 1) * 256  # one /24 a Cluster and network
        nets = {"prov": 1 << 20, "ext": 2 << 20, "ext2": 3 << 20, "stor": 4 << 20}
        pools = ["prov", "ext"] + (["ext2"] if dual else []) + (["stor"] if storage else [])
        for p in pools:
            b = base + nets[p]
            pool(out, f"{name}-{p}", ns, v4(b + 10), v4(b + 250), 24, v4(b + 1))
        data_template(out, f"{name}-cp", ns, [f"{name}-prov", f"{name}-ext"])
        if dual:
            data_template(out, f"{name}-worker-dual", ns,
                          [f"{name}-prov", f"{name}-ext", f"{name}-ext2"])
        else:
            data_template(out, f"{name}-worker", ns, [f"{name}-prov", f"{name}-ext"])
        if storage:
            data_template(out, f"{name}-storage", ns, [f"{name}-prov", f"{name}-stor"])


SHAPES = {
    "fleet": fleet,
    "namespaces": namespaces,
    "overlap": overlap,
    "entries": entries,
    "network": network,
    "pool24": small_pool,
    "pool64": small_pool_v6,
    "clusterclass": clusterclass,
}


class Indented:
    """Writes a stream's documents as the items of a ResourceList (`---` lines dropped)."""

    def __init__(self, out):
        self.out = out
        self.first_line = False

    def write(self, text):
        for line in text.splitlines():
            if line == "---":
                self.first_line = True
                continue
            prefix = "- " if self.first_line else "  "
            self.first_line = False
            self.out.write(prefix + line + "\n")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("n", nargs="?", type=int, default=10000, help="the dimension that grows")
    p.add_argument("--shape", choices=sorted(SHAPES), default="fleet")
    p.add_argument("--hosts", type=int, default=10,
                   help="hosts of the overlap shape, per namespace of the network shape, per Cluster of the clusterclass shape")
    p.add_argument("--plain", action="store_true", help="network shape: no ipreuse.dev/network annotation")
    p.add_argument("--status", action="store_true",
                   help="give every host the status an inspected host has (hardware, about 15 lines)")
    p.add_argument("--classes", type=int, default=10,
                   help="clusterclass shape: how many ClusterClasses the N Clusters are stamped from")
    p.add_argument("--resource-list", action="store_true",
                   help="write a ResourceList (what kpt and kustomize hand a function) instead of a stream")
    p.add_argument("--live", action="store_true",
                   help="fleet shape: add each provisioned host's live objects (Metal3Machine, "
                        "Metal3DataClaim, Metal3Data, and an IPClaim and IPAddress a pool)")
    a = p.parse_args()
    if a.live and a.shape != "fleet":
        p.error("--live is for the fleet shape")
    global STATUS, LIVE, NETWORK, CLASSES
    STATUS = a.status
    LIVE = a.live
    CLASSES = a.classes
    NETWORK = None if a.plain else "prov"
    out = sys.stdout
    if a.resource_list:
        out.write("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n")
        out = Indented(out)
    SHAPES[a.shape](out, a.n, a.hosts)


if __name__ == "__main__":
    main()
