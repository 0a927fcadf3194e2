#!/usr/bin/env bash
# Run a command with four CPU-bound processes beside it, as on a busy shared machine, then stop them.
#
#   tests/stress.sh python -m pytest          # the suite under load (what `SHIM_CI_STRESS=1 .ci/run` does)
#   SHIM_STRESS_PROCS=8 tests/stress.sh ...   # more load
#
# The suite must pass like this: no test may depend on a process starting or answering within a few
# seconds. Exits with the command's own status; the burners are stopped however the command ends.
set -uo pipefail

count="${SHIM_STRESS_PROCS:-4}"
burners=()
stop() {
    for pid in "${burners[@]}"; do kill "$pid" 2>/dev/null; done
    for pid in "${burners[@]}"; do wait "$pid" 2>/dev/null; done
    burners=()
}
trap stop EXIT
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM

for _ in $(seq "$count"); do
    sh -c 'while :; do :; done' &
    burners+=("$!")
done
echo "stress: ${count} CPU-bound processes beside: $*" >&2

"$@"
status=$?
stop
echo "stress: the command exited ${status}" >&2
exit "$status"
