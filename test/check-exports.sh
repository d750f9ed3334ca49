#!/bin/bash
# check-exports.sh - libcomm exports the MPI interface and nothing else: every function that
# mpi.h declares exists as a strong PMPI_ symbol and a weak MPI_ symbol (so profiling tools can
# interpose), and no other symbol is visible.
set -u
builddir=${TEST_BUILDDIR:?}
srcdir=${TEST_SRCDIR:?}
lib=$builddir/runtime/.libs/libcomm.so
bad=0
[[ -f $lib ]] || { echo "exports: $lib not built"; exit 1; }

exported=$(nm -D --defined-only "$lib" | awk '{print $2, $3}')
while read -r type name; do
    case $name in
    MPI_*) [[ $type == W ]] || { echo "exports: $name is not weak ($type)"; bad=1; } ;;
    PMPI_*) [[ $type == T ]] || { echo "exports: $name is not a function ($type)"; bad=1; } ;;
    # The Fortran interfaces (fortran/, when built): the storage of the special addresses
    # (common blocks /mpi_fortran_*/), and the entry points mpi_xxx_ and mpi_xxx_f08_.
    mpi_fortran_*_)
        [[ $type == [BD] ]] || { echo "exports: $name is not Fortran storage ($type)"; bad=1; } ;;
    mpi_*_)
        [[ $name =~ ^mpi_[a-z0-9_]+_$ && $type == T ]] ||
            { echo "exports: $name is not a Fortran entry point ($type)"; bad=1; } ;;
    _init | _fini) ;;
    # The Fortran entry points (fortran/): mpi_xxx_ functions, mpi_fortran_xxx_ common blocks.
    mpi_fortran_*_) ;;
    mpi_*_) [[ $type == T ]] || { echo "exports: $name is not a function ($type)"; bad=1; } ;;
    *) echo "exports: $name should not be exported"; bad=1 ;;
    esac
done <<<"$exported"

declared=$(grep -E '^COMM_MPI_API ' "$srcdir/runtime/api/mpi.h" | grep -oE '[ *](P?MPI_[A-Za-z0-9_]+)\(' |
    grep -oE 'P?MPI_[A-Za-z0-9_]+' | sort -u)
for f in $declared; do
    grep -qE " $f\$" <<<"$exported" || { echo "exports: $f is declared in mpi.h but missing"; bad=1; }
done
n=$(wc -w <<<"$declared")
[[ $bad == 0 ]] && echo "exports: $n declared functions exported, nothing else"
exit $bad
