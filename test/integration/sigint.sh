#!/bin/bash
# sigint.sh SIGNAL - starts a 4-rank job that sleeps, waits until every rank is running, sends
# SIGNAL to comm-run and exits with comm-run's status.
set -u
sig=${1:-INT}
out=$(mktemp "${TMPDIR:-/tmp}/sigint.XXXXXX")
comm-run -np 4 behave sleep 60 >"$out" 2>&1 &
pid=$!
for _ in $(seq 200); do
    [[ $(grep -c '^ready' "$out") == 4 ]] && break
    sleep 0.05
done
kill "-$sig" "$pid"
wait "$pid"
status=$?
cat "$out"
rm -f "$out"
exit $status
