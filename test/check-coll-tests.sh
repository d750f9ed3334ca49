#!/bin/bash
# check-coll-tests.sh - every collective algorithm is tested: for each algorithm that
# `comm-info --parsable` lists, test/integration/testlist forces it (COMM_COLL_<OP>=<name>) on
# that operation's test program at 1, 2, 3, 4, 5, 7 and 8 ranks, and each such line has its
# output checks in expect/.  The man page documents every algorithm in its setting's entry.
# Every one-sided program (test/integration/rma_*.c) has an 8-rank line in that testlist or in
# test/cluster/testlist.
set -u
builddir=${TEST_BUILDDIR:?}
srcdir=${TEST_SRCDIR:?}
testlist=$srcdir/test/integration/testlist
expect=$srcdir/test/integration/expect
man7=$srcdir/man/comm.7
bad=0
n_algs=0

algs=$("$builddir/launcher/comm-info" --parsable | awk -F: '$1 == "coll" && $3 == "algorithm" {print $2 ":" $4}')
[[ -n $algs ]] || { echo "coll-tests: comm-info listed no collective algorithm"; exit 1; }
for fa in $algs; do
    family=${fa%%:*}
    alg=${fa#*:}
    var=COMM_COLL_${family^^}
    n_algs=$((n_algs + 1))
    for np in 1 2 3 4 5 7 8; do
        name=coll-$family-$alg-$np
        line=$(awk -v n="$name" '$1 == n' "$testlist")
        if [[ -z $line ]]; then
            echo "coll-tests: testlist has no line $name"
            bad=1
        elif [[ $line != *"$var=$alg comm-run -np $np coll_$family"* ]]; then
            echo "coll-tests: $name does not force $var=$alg on coll_$family at $np ranks"
            bad=1
        elif [[ ! -f $expect/$name ]]; then
            echo "coll-tests: expect/$name is missing"
            bad=1
        fi
    done
    # The setting's entry in comm(7) names the algorithm.
    entry=$(awk -v n="$var" 'prev == ".TP" && $0 == ".B " n {on = 1; prev = $0; next}
                             on && /^\.(TP|SH|SS)/ {exit} on {print} {prev = $0}' "$man7")
    grep -qE "^\.B[R]? $alg( |$)" <<<"$entry" ||
        { echo "coll-tests: comm(7) does not name $alg under $var"; bad=1; }
done
# One-sided programs: each runs at 8 ranks somewhere (here, or across the simulated cluster).
n_rma=0
for src in "$srcdir"/test/integration/rma_*.c; do
    [[ -f $src ]] || continue
    prog=$(basename "$src" .c)
    n_rma=$((n_rma + 1))
    if ! awk -v p="$prog" '$0 !~ /^#/ && $0 ~ ("comm-run -np 8 " p "( |$)") {found = 1}
                           END {exit !found}' "$testlist" "$srcdir/test/cluster/testlist"; then
        echo "coll-tests: no 8-rank line runs $prog (add one to test/cluster/testlist)"
        bad=1
    fi
done
[[ $bad == 0 ]] && echo "coll-tests: $n_rma one-sided programs each run at 8 ranks"
[[ $bad == 0 ]] && echo "coll-tests: $n_algs algorithms, each forced at 7 sizes and documented"
exit $bad
