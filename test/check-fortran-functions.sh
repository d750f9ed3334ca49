#!/bin/bash
# check-fortran-functions.sh - every function of mpi.h that has a Fortran binding (all but the
# tools interface MPI_T_* and the handle conversions MPI_*_c2f / MPI_*_f2c) has its Fortran
# entry point mpi_xxx_ exported by libcomm, and is declared in mpif.h, in module mpi and in
# module mpi_f08 (the generated sources of the modules, fortran/mpi.f90 and mpi_f08.f90).
set -u
builddir=${TEST_BUILDDIR:?}
srcdir=${TEST_SRCDIR:?}
lib=$builddir/api/.libs/libcomm.so
mpih=$srcdir/include/mpi.h
bad=0
for f in "$lib" "$builddir/fortran/mpif.h" "$builddir/fortran/mpi.f90" \
    "$builddir/fortran/mpi_f08.f90" "$builddir/fortran/mpi.mod" "$builddir/fortran/mpi_f08.mod"; do
    [[ -f $f ]] || { echo "fortran-functions: $f not built"; exit 1; }
done

# The C functions: "COMM_MPI_API type MPI_Name(" and "COMM_DECLARE(type, Name, (".
functions=$( {
    tr '\n' ' ' <"$mpih" | grep -oE 'COMM_MPI_API [A-Za-z_ *]*[ *]MPI_[A-Za-z0-9_]+\(' |
        grep -oE 'MPI_[A-Za-z0-9_]+\($' | tr -d '('
    grep -oE '^COMM_DECLARE\([A-Za-z_ *]+, *[A-Za-z0-9_]+,' "$mpih" |
        sed -E 's/^COMM_DECLARE\([^,]*, *([A-Za-z0-9_]+),$/MPI_\1/'
} | grep -vE '^MPI_T_|_(c2f|f2c)$' | sort -u)

declare -A exported
while read -r _ type sym; do
    [[ $type == T ]] && exported[$sym]=1
done < <(nm -D --defined-only "$lib")

lower() { tr '[:upper:]' '[:lower:]'; }
declare -A in_mpif in_mpi in_f08
while read -r name; do in_mpif[$name]=1; done < <(
    grep -iE '^ +external +MPI_' "$builddir/fortran/mpif.h" | awk '{print $2}' | lower)
mod_names() {
    grep -ioE '^ *(subroutine|([a-z() =_]+ )?function) +MPI_[A-Za-z0-9_]+' "$1" |
        grep -oE 'MPI_[A-Za-z0-9_]+$' | lower
}
while read -r name; do in_mpi[$name]=1; done < <(mod_names "$builddir/fortran/mpi.f90")
while read -r name; do in_f08[$name]=1; done < <(mod_names "$builddir/fortran/mpi_f08.f90")

n=0
for f in $functions; do
    n=$((n + 1))
    l=${f,,}
    [[ -n ${exported[${l}_]:-} ]] || { echo "fortran-functions: $f: libcomm does not export ${l}_"; bad=1; }
    [[ -n ${in_mpif[$l]:-} ]] || { echo "fortran-functions: $f is not declared in mpif.h"; bad=1; }
    [[ -n ${in_mpi[$l]:-} ]] || { echo "fortran-functions: $f is not in module mpi"; bad=1; }
    [[ -n ${in_f08[$l]:-} ]] || { echo "fortran-functions: $f is not in module mpi_f08"; bad=1; }
done
[[ $n -gt 300 ]] || { echo "fortran-functions: only $n functions read from $mpih"; bad=1; }
if [[ $bad == 0 ]]; then
    echo "fortran-functions: $n functions, each in libcomm, mpif.h, mpi and mpi_f08"
else
    echo "fortran-functions: $n functions checked"
fi
exit $bad
