#!/bin/bash
# Submits an experiment as a SLURM job array and its merge as a job that
# waits for every array task to succeed:
#   examples/slurm/submit.sh sampling 20      # Neller and Luo's experiment in 20 shards
#   examples/slurm/submit.sh tournament 8
# SLEUTH, SLEUTH_OUT and SLEUTH_ARGS are passed on to the jobs (see the .sbatch files);
# further arguments go to both sbatch calls (e.g. --partition=short).
# Prints the two job ids.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kind=${1:?usage: submit.sh sampling|tournament SHARDS [sbatch options]}
shards=${2:?usage: submit.sh sampling|tournament SHARDS [sbatch options]}
shift 2
case $kind in
    sampling | tournament) ;;
    *) echo "submit.sh: unknown experiment '$kind': sampling or tournament" >&2; exit 2 ;;
esac
array=$(sbatch --parsable --array="0-$((shards - 1))" "$@" "$here/$kind.sbatch")
merge=$(sbatch --parsable --dependency="afterok:${array%%;*}" --export="ALL,SHARDS=$shards" "$@" "$here/$kind-merge.sbatch")
echo "$array $merge"
