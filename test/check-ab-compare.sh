#!/bin/bash
# check-ab-compare.sh - examples/bench/ab-compare runs a point-to-point benchmark, mbw_mr and a
# collective of one build tree against itself and prints a row per benchmark and size with two
# values and their ratio; it refuses an unknown benchmark, an odd number of ranks for mbw_mr and
# a build tree without the benchmark.
set -u
builddir=${TEST_BUILDDIR:?}
srcdir=${TEST_SRCDIR:?}
ab=$srcdir/examples/bench/ab-compare
work=$(mktemp -d "${TMPDIR:-/tmp}/comm-ab.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
bad=0
fail() { echo "ab-compare: $*"; bad=1; }

if ! timeout 300 "$ab" --bench latency,mbw_mr,allreduce --sizes 8 --repeat 2 --np 2 \
    "$builddir" "$builddir" >"$work/out" 2>&1; then
    fail "the run failed:"
    sed 's/^/    /' "$work/out"
fi
# Rows: bench size A unit B unit ratio, each value above 0 and the ratio B/A.
for bench in latency mbw_mr allreduce; do
    for size in 8; do
        row=$(awk -v b="$bench" -v s="$size" '$1 == b && $2 == s' "$work/out")
        if ! awk -v b="$bench" '{
                u = (b == "mbw_mr") ? "msg/s" : "us"
                r = $5 / $3
                exit !(NF == 7 && $3 > 0 && $5 > 0 && $4 == u && $6 == u &&
                       $7 > r - 0.001 && $7 < r + 0.001)
            }' <<<"$row"; then
            fail "no proper row for $bench at $size bytes: '$row'"
        fi
    done
done
grep -q '^# medians of 2 alternating runs each, 2 ranks$' "$work/out" ||
    fail "no line says what the values are: $(head -3 "$work/out")"

"$ab" --bench latency,nonsense "$builddir" "$builddir" >"$work/unknown" 2>&1
status=$?
[[ $status == 2 ]] && grep -q "unknown benchmark 'nonsense'" "$work/unknown" ||
    fail "an unknown benchmark: status $status, '$(cat "$work/unknown")'"
"$ab" --bench mbw_mr --np 3 "$builddir" "$builddir" >"$work/odd" 2>&1
status=$?
[[ $status == 2 ]] && grep -q "mbw_mr pairs ranks.*not 3" "$work/odd" ||
    fail "mbw_mr with 3 ranks: status $status, '$(cat "$work/odd")'"
mkdir -p "$work/tree/launcher" "$work/tree/examples/bench"
ln -s "$builddir/launcher/comm-run" "$work/tree/launcher/comm-run"
"$ab" --bench bcast "$builddir" "$work/tree" >"$work/missing" 2>&1
status=$?
[[ $status == 2 ]] && grep -q "$work/tree/examples/bench/bcast is missing" "$work/missing" ||
    fail "a tree without bcast: status $status, '$(cat "$work/missing")'"

[[ $bad == 0 ]] && echo "ab-compare: latency, mbw_mr and allreduce rows; bad usage refused"
exit $bad
