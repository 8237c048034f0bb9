#!/usr/bin/env python3
"""The hosts of a SimGrid platform file, for scripts/simulate's hostfile.

Prints "CORES SPEED" of the first host (empty fields when the file does not say), then one host
name per line in document order: <host id=...> as they are, and each <cluster> expanded from
its prefix, radical (e.g. "0-3,8") and suffix, as SimGrid names a cluster's hosts.
"""
import sys
import xml.etree.ElementTree as ElementTree


def cluster_hosts(cluster):
    names = []
    for part in cluster.get("radical", "").split(","):
        first, _, last = part.partition("-")
        for number in range(int(first), int(last or first) + 1):
            names.append(cluster.get("prefix", "") + str(number) + cluster.get("suffix", ""))
    return names


def main(path):
    hosts, first = [], None
    for element in ElementTree.parse(path).getroot().iter():
        if element.tag == "host":
            hosts.append(element.get("id"))
        elif element.tag == "cluster":
            hosts.extend(cluster_hosts(element))
        else:
            continue
        if first is None:
            first = element
    if not hosts:
        sys.exit(f"{path}: no <host> or <cluster> in it")
    # A speed list ("1Gf,0.5Gf": pstates) starts with the one in use.
    speed = first.get("speed", "").split(",")[0]
    print(first.get("core", "1"), speed)
    print("\n".join(hosts))


if __name__ == "__main__":
    main(sys.argv[1])
