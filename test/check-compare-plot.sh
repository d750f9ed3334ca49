#!/bin/bash
# check-compare-plot.sh BINDIR - examples/bench/compare --plot with the comm installed in BINDIR
# alone (no peer): it draws one PNG per table (latency.png, allreduce-2.png) from data files
# with a row per size above 0, says when gnuplot is missing, and refuses a --plot without a
# directory.  Run by make installcheck; needs gnuplot (apt-get install gnuplot-nox).
set -u
bindir=${1:?usage: check-compare-plot.sh BINDIR}
here=$(cd "$(dirname "$0")" && pwd)
compare=$here/../examples/bench/compare
work=$(mktemp -d "${TMPDIR:-/tmp}/comm-plot.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
bad=0
fail() {
    echo "compare --plot: $*"
    bad=1
}
command -v gnuplot >/dev/null ||
    { echo "compare --plot: needs gnuplot to be checked: apt-get install gnuplot-nox"; exit 1; }

if ! BENCH_COMM_BINDIR=$bindir timeout 300 "$compare" --peers '' --bench latency,allreduce \
    --np 2 --sizes 0,1,1024 -i 20 -x 2 --plot "$work/plots" >"$work/out" 2>&1; then
    fail "the run failed:"
    sed 's/^/    /' "$work/out"
fi
for name in latency allreduce-2; do
    png=$work/plots/$name.png
    if [[ $(head -c 8 "$png" 2>/dev/null | od -An -tx1 | tr -d ' \n') != 89504e470d0a1a0a ]]; then
        fail "$name.png is not a PNG file"
        continue
    fi
    (($(stat -c %s "$png") > 5000)) || fail "$name.png is too small to hold a plot"
    # The header, then sizes 1 and 1024 (0 has no place on a log scale), each with a value.
    rows=$(awk 'NR > 1 && $2 + 0 > 0 { print $1 }' "$work/plots/$name.dat" | tr '\n' ' ')
    [[ $rows == "1 1024 " ]] || fail "$name.dat has rows for sizes '$rows', not '1 1024 '"
    [[ $(head -n 1 "$work/plots/$name.dat") == "size comm" ]] ||
        fail "$name.dat's header is '$(head -n 1 "$work/plots/$name.dat")'"
done
grep -q "plotted $work/plots/latency.png" "$work/out" || fail "no 'plotted' line for latency.png"

GNUPLOT=$work/no-gnuplot BENCH_COMM_BINDIR=$bindir "$compare" --peers '' --plot "$work/p2" \
    >"$work/missing.out" 2>&1
status=$?
[[ $status == 1 ]] || fail "without gnuplot: exit status $status, expected 1"
grep -q "needs gnuplot.*apt-get install gnuplot-nox" "$work/missing.out" ||
    fail "without gnuplot: no line says how to install it: $(cat "$work/missing.out")"
BENCH_COMM_BINDIR=$bindir "$compare" --plot >"$work/usage.out" 2>&1
status=$?
[[ $status == 2 ]] || fail "--plot without a directory: exit status $status, expected 2"

[[ $bad == 0 ]] && echo "installcheck: compare --plot draws latency.png and allreduce-2.png"
exit $bad
