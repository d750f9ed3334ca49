#!/bin/bash
# check-mpi-functions.sh - keeps test/mpi-functions.txt true: every MPI 3.1 function it lists
# (outside I/O) is exported by libcomm as MPI_x and PMPI_x, except
# those marked "not-yet", and none of those marked "not-yet" is exported (then the mark is
# stale: remove it).
set -u
builddir=${TEST_BUILDDIR:?}
srcdir=${TEST_SRCDIR:?}
lib=$builddir/api/.libs/libcomm.so
list=$srcdir/test/mpi-functions.txt
bad=0
[[ -f $lib ]] || { echo "mpi-functions: $lib not built"; exit 1; }
[[ -f $list ]] || { echo "mpi-functions: $list not found"; exit 1; }

declare -A exported
while read -r _ _ sym; do
    exported[$sym]=1
done < <(nm -D --defined-only "$lib")
has() { [[ -n ${exported[$1]:-} ]]; }

n=0 nyet=0
while read -r name status rest; do
    [[ -z $name || $name == \#* ]] && continue
    case $status in
    "" | error | removed) ;;
    not-yet) ;;
    *) echo "mpi-functions: $name: unknown status '$status' (line: $name $status $rest)"; bad=1 ;;
    esac
    n=$((n + 1))
    if [[ $status == not-yet ]]; then
        nyet=$((nyet + 1))
        if has "$name" || has "P$name"; then
            echo "mpi-functions: $name is exported but marked not-yet: remove the mark"
            bad=1
        fi
        continue
    fi
    for sym in "$name" "P$name"; do
        has "$sym" || { echo "mpi-functions: $sym is listed but not exported"; bad=1; }
    done
done <"$list"

dups=$(grep -vE '^(#|$)' "$list" | awk '{print $1}' | sort | uniq -d)
[[ -z $dups ]] || { echo "mpi-functions: listed twice: $dups"; bad=1; }
[[ $bad == 0 ]] && echo "mpi-functions: $n functions listed, $((n - nyet)) exported, $nyet not yet"
exit $bad
