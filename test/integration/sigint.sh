#!/bin/bash
# sigint.sh SIGNAL - starts a 4-rank job that sleeps, waits until every rank is running, sends
# SIGNAL to comm-run and exits with comm-run's status.
set -u
sig=${1:-INT}
out=$(mktemp "${TMPDIR:-/tmp}/sigint.XXXXXX")
comm-run -np 4 behave sleep 60 >"$out" 2>&1 &
pid=$!
# Up to 60 s for the ranks to start (well under 1 s on an idle machine).
for _ in $(seq 1200); do
    [[ $(grep -c '^ready' "$out") == 4 ]] && break
    sleep 0.05
done
kill "-$sig" "$pid"
wait "$pid"
status=$?
cat "$out"
rm -f "$out"
exit $status
