#!/usr/bin/env bash
# usage: on_hosts.sh CLUSTER_SCRIPT A2AFFT HOSTS "MPIRUN_OPTIONS" [--rank-hosts H0,H1,...]
#                    [--] COMMAND [ARGS...]
# Runs COMMAND on emulated hosts (scripts/cluster --hosts HOSTS) after making sure that the MPI
# library really sees them as nodes: with no virtual layout in the environment, `a2afft
# topology` on the same hosts must report one real node per host, of HOSTS' sizes, on hosts
# nodea, nodeb, ..., marked as emulated, and rank i on host Hi (by default host by host:
# nodea's ranks first). Where hosts cannot be emulated (not root, unshare refused) the test
# fails and says so: it never passes without having run on several nodes. Its own lines go to
# stderr, where a caller that drops COMMAND's stdout (hpcc_check.sh) still shows them.
set -euo pipefail
cluster=$1 a2afft=$2 hosts=$3 mpirun_options=$4
shift 4
rank_hosts=""
if [ "${1:-}" = "--rank-hosts" ]; then
  rank_hosts=$2
  shift 2
fi
# The `--` may be left out, so that a script that appends its own `--` sections to a launcher
# (check_run.sh) can use this one as its launcher.
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "usage: $0 CLUSTER_SCRIPT A2AFFT HOSTS \"MPIRUN_OPTIONS\" [--rank-hosts H0,H1,...] [--] COMMAND..." >&2; exit 2; }
fail() {
  echo "FAILED: $*" >&2
  exit 1
}

# A virtual layout would make a2afft regroup the ranks itself: the nodes must be the MPI
# library's own.
for variable in A2AFFT_RANKS_PER_NODE A2AFFT_NODE_SIZES A2AFFT_NUMA_PER_NODE; do
  [ -z "${!variable+set}" ] || fail "$variable is set (${!variable}); the cluster tests need the real nodes"
done

# What a2afft must see: HxR or R1,R2,... ranks per host.
if [[ $hosts =~ ^([0-9]+)x([0-9]+)$ ]]; then
  sizes=()
  for ((h = 0; h < BASH_REMATCH[1]; ++h)); do sizes+=("${BASH_REMATCH[2]}"); done
else
  IFS=, read -ra sizes <<< "$hosts"
fi
letters=abcdefghijklmnopqrstuvwxyz
ranks=0 host_list="" size_list=""
host_by_host=""
for ((h = 0; h < ${#sizes[@]}; ++h)); do
  ranks=$((ranks + sizes[h]))
  host_list+="${host_list:+, }node${letters:h:1}"
  size_list+="${size_list:++}${sizes[h]}"
  for ((r = 0; r < sizes[h]; ++r)); do host_by_host+="${host_by_host:+,}node${letters:h:1}"; done
done
rank_hosts=${rank_hosts:-$host_by_host}
# RankLayout::describe() names equal nodes by one size.
[[ $(printf '%s\n' "${sizes[@]}" | sort -u | wc -l) -ne 1 ]] || size_list=${sizes[0]}
expected="# layout: $ranks ranks, ${#sizes[@]} nodes of $size_list; NUMA: [^;]*; hosts: $host_list (emulated hosts"

run_on_hosts() {
  "$cluster" --hosts "$hosts" --mpirun-args "$mpirun_options" -- "$@"
}

status=0
topology=$(run_on_hosts "$a2afft" topology 2>&1) || status=$?
printf '%s\n' "$topology" >&2
if [ $status -ne 0 ]; then
  if printf '%s\n' "$topology" | grep -q '^scripts/cluster: emulated hosts need'; then
    fail "this machine cannot emulate hosts (the line above says why); the cluster tests need root and unshare --uts"
  fi
  fail "a2afft topology on hosts $hosts exited with status $status"
fi
printf '%s\n' "$topology" | grep -q "^$expected" ||
  fail "a2afft topology does not see ${#sizes[@]} real nodes of $size_list on $host_list marked as emulated (expected a line starting: $expected)"
# The table's rows: rank, host, node, local rank, node size, NUMA[, role].
seen_rank_hosts=$(printf '%s\n' "$topology" | awk '$1 ~ /^[0-9]+$/ && NF >= 6 { print $2 }' | paste -sd,)
[ "$seen_rank_hosts" = "$rank_hosts" ] ||
  fail "the ranks' hosts are $seen_rank_hosts, expected $rank_hosts"
echo "ok: the MPI library sees ${#sizes[@]} nodes of $size_list on emulated hosts $host_list; ranks on $rank_hosts" >&2

run_on_hosts "$@" || fail "'$*' on hosts $hosts exited with status $?"
