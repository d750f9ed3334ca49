#!/bin/bash
# check-exports.sh - libcomm exports the MPI interface and nothing else: every function that
# mpi.h declares exists as a PMPI_ function and an MPI_ function, and no other symbol is visible.
# The MPI_ names are weak aliases of the PMPI_ ones in the objects; linked with link-time
# optimization they become strong in libcomm.so, which changes nothing for the dynamic linker (a
# tool library loaded first still wins: the pmpi-tool-4 test shows it).  In a static libcomm.a
# (--enable-static) they must stay weak, or a tool linked in front of it would clash.
set -u
builddir=${TEST_BUILDDIR:?}
srcdir=${TEST_SRCDIR:?}
lib=$builddir/api/.libs/libcomm.so
bad=0
[[ -f $lib ]] || { echo "exports: $lib not built"; exit 1; }

exported=$(nm -D --defined-only "$lib" | awk '{print $2, $3}')
while read -r type name; do
    case $name in
    MPI_*) [[ $type == [WT] ]] || { echo "exports: $name is not a function ($type)"; bad=1; } ;;
    PMPI_*) [[ $type == T ]] || { echo "exports: $name is not a function ($type)"; bad=1; } ;;
    # The Fortran interfaces (fortran/, when built): the storage of the special addresses
    # (common blocks /mpi_fortran_*/), and the entry points mpi_xxx_ and mpi_xxx_f08_.
    mpi_fortran_*_)
        [[ $type == [BD] ]] || { echo "exports: $name is not Fortran storage ($type)"; bad=1; } ;;
    mpi_*_)
        [[ $name =~ ^mpi_[a-z0-9_]+_$ && $type == T ]] ||
            { echo "exports: $name is not a Fortran entry point ($type)"; bad=1; } ;;
    _init | _fini) ;;
    # AddressSanitizer's marker of an exported variable (configure --enable-sanitizers), which
    # catches two definitions of it at run time.
    __odr_asan.mpi_fortran_*_) ;;
    *) echo "exports: $name should not be exported"; bad=1 ;;
    esac
done <<<"$exported"

declared=$(grep -E '^COMM_MPI_API ' "$srcdir/include/mpi.h" | grep -oE '[ *](P?MPI_[A-Za-z0-9_]+)\(' |
    grep -oE 'P?MPI_[A-Za-z0-9_]+' | sort -u)
for f in $declared; do
    grep -qE " $f\$" <<<"$exported" || { echo "exports: $f is declared in mpi.h but missing"; bad=1; }
done
# The static library, when built: its MPI_ names weak.
archive=$builddir/api/.libs/libcomm.a
if [[ -f $archive ]]; then
    strong=$(nm --defined-only "$archive" 2>/dev/null | awk '$2 == "T" && $3 ~ /^MPI_/ {print $3}')
    for f in $strong; do
        echo "exports: $f is strong in libcomm.a (a tool defining it could not link in front)"
        bad=1
    done
fi
n=$(wc -w <<<"$declared")
[[ $bad == 0 ]] && echo "exports: $n declared functions exported, nothing else"
exit $bad
