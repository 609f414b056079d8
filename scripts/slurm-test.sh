#!/usr/bin/env bash
# The SLURM job array of examples/slurm on a real one-node cluster on
# loopback: starts munged, slurmctld and slurmd (Debian's munge and
# slurm-wlm packages, installed if missing), submits the quick sampling
# experiment as a 4-task array with its dependent merge job, and checks
# that the merged result equals the unsharded run; then the same for a
# small tournament in 3 tasks. Everything it starts is
# stopped on exit. Run as root (CI is), from anywhere:
#   scripts/slurm-test.sh [SLEUTH]     # default: target/debug/sleuth, built if missing
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
sleuth=${1:-$repo/target/debug/sleuth}
if [ ! -x "$sleuth" ]; then
    (cd "$repo" && cargo build -p sleuth-cli)
fi
sleuth=$(cd "$(dirname "$sleuth")" && pwd)/$(basename "$sleuth")

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends slurmctld slurmd slurm-client munge
fi

dir=$(mktemp -d /tmp/sleuth-slurm.XXXXXX)
pids=()
stop() {
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
}
trap stop EXIT
fail() {
    echo "slurm-test: $*" >&2
    for log in "$dir"/*.log "$dir"/run/slurm-*.out; do
        [ -f "$log" ] && { echo "--- $log" >&2; tail -20 "$log" >&2; }
    done
    exit 1
}

# munged, with its own key, socket and files.
mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/run"
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 700 "$dir/munge"
chmod 400 "$dir/munge/munge.key"
munged --foreground --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/socket" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge.log" --seed-file="$dir/munge/seed" &>>"$dir/daemons.log" &
pids+=($!)

# One node, this machine, on loopback; ports of their own.
host=$(hostname -s)
cpus=$(nproc)
export SLURM_CONF=$dir/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=sleuth-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
for _ in $(seq 50); do [ -S "$dir/munge/socket" ] && break; sleep 0.1; done
[ -S "$dir/munge/socket" ] || fail "munged did not start"
slurmctld -D -i &>>"$dir/daemons.log" &
pids+=($!)
slurmd -D &>>"$dir/daemons.log" &
pids+=($!)
for _ in $(seq 120); do
    state=$(sinfo -h -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 0.5
done
[ "$state" = idle ] || fail "the node is not idle (state '$state')"

# Waits (up to 10 minutes) until no job is queued or running; then the
# merge job $1 must have written SLEUTH_OUT/merged.
wait_for_jobs() {
    for _ in $(seq 1200); do
        [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
        sleep 0.5
    done
    [ -z "$(squeue -h -o %i)" ] && [ -d "$SLEUTH_OUT/merged" ] || fail "merge job $1 did not finish"
}

# The quick experiment as a 4-task array, and its merge once all succeed.
cd "$dir/run"
export SLEUTH=$sleuth SLEUTH_OUT=$dir/run/out SLEUTH_ARGS="--quick"
ids=$("$repo/examples/slurm/submit.sh" sampling 4 --cpus-per-task=1)
merge=${ids##* }
echo "slurm-test: submitted array and merge: $ids"
wait_for_jobs "$merge"

# The same experiment unsharded, outside SLURM.
"$sleuth" experiment sampling --quick --out "$dir/full" >/dev/null
# Every number but the times (columns *seconds) and uniform-time's draws
# (matched to the time) is independent of the sharding.
compare() {
    python3 - "$1" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    if r.get("method") != "uniform-time":
        print({k: v for k, v in r.items() if not k.endswith("seconds")})
PY
}
for file in games.csv states.csv runs.csv; do
    [ -s "$SLEUTH_OUT/merged/$file" ] && [ -s "$dir/full/$file" ] || fail "$file is missing"
    diff <(compare "$dir/full/$file") <(compare "$SLEUTH_OUT/merged/$file") >/dev/null ||
        fail "$file differs from the unsharded run's"
done
echo "slurm-test: 4 array tasks and their merge equal the unsharded run ($(($(wc -l <"$dir/full/runs.csv") - 1)) runs)"

# A small tournament as a 3-task array: merged, it is the unsharded tournament exactly.
export SLEUTH_OUT=$dir/run/tournament SLEUTH_ARGS="--agents random,exact --players 3..4 --games 2 --seed 4"
ids=$("$repo/examples/slurm/submit.sh" tournament 3 --cpus-per-task=1)
echo "slurm-test: submitted tournament array and merge: $ids"
wait_for_jobs "${ids##* }"
# shellcheck disable=SC2086 # a list of options
"$sleuth" tournament $SLEUTH_ARGS --out "$dir/tournament" >/dev/null
for file in games.csv summary.md; do
    [ -s "$dir/tournament/$file" ] || fail "the unsharded tournament wrote no $file"
    cmp -s "$dir/tournament/$file" "$SLEUTH_OUT/merged/$file" || fail "the tournament's $file differs from the unsharded run's"
done
echo "slurm-test: 3 tournament tasks and their merge equal the unsharded tournament"
stop
trap - EXIT
rm -rf "$dir"
