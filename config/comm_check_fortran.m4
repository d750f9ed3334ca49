# comm_check_fortran.m4 - whether the Fortran interfaces (fortran/) can be built.
#
# COMM_CHECK_FORTRAN
#
# Expects AC_PROG_FC to have run (FC empty when it found no compiler) and enable_fortran to be
# yes, no or auto.  The interfaces need, of the Fortran compiler, free-form .f90 sources and
# assumed-rank `type(*), dimension(..)` dummies in bind(C) interfaces (the choice buffers of
# mpi_f08), and of the C compiler, ISO_Fortran_binding.h with descriptors that agree with the
# Fortran compiler's: a small Fortran program passes a 2-D integer array to a C function that
# reads its descriptor, and must run (when cross-compiling it is not run).
#
# Sets comm_fortran to yes or no and comm_fortran_why to the reason when no; on yes also
# FC_VERSION_TEXT (e.g. "gfortran 12.2") and COMM_FORTRAN_CPPFLAGS (the -I that finds
# ISO_Fortran_binding.h, if the C compiler does not find it by itself).  Never stops configure:
# the caller decides what a "no" means.

AC_DEFUN([COMM_CHECK_FORTRAN], [
    comm_fortran=no
    comm_fortran_why=
    COMM_FORTRAN_CPPFLAGS=
    FC_VERSION_TEXT=
    AS_IF([test "x$enable_fortran" = xno],
        [comm_fortran_why="--disable-fortran"],
        [test -z "$FC" || test "x$FC" = xno],
        [comm_fortran_why="no Fortran compiler found; on Debian: apt-get install gfortran"],
        [comm_fortran=yes])

    AS_IF([test $comm_fortran = yes], [
        comm_fc_name=`set dummy $FC; echo "$[2]" | $SED 's|.*/||'`
        comm_fc_version=`$FC -dumpfullversion 2>/dev/null || $FC -dumpversion 2>/dev/null`
        comm_fc_version=`echo "$comm_fc_version" | $SED -n '1s/^\([[0-9]]*\.[[0-9]]*\).*/\1/p'`
        AS_IF([test -n "$comm_fc_version"],
            [FC_VERSION_TEXT="$comm_fc_name $comm_fc_version"],
            [FC_VERSION_TEXT=`$FC --version 2>/dev/null | $SED -n 1p`
             test -n "$FC_VERSION_TEXT" || FC_VERSION_TEXT=$comm_fc_name])

        AC_LANG_PUSH([Fortran])
        AC_FC_SRCEXT([f90], [],
            [comm_fortran=no
             comm_fortran_why="$FC_VERSION_TEXT does not compile free-form .f90 sources"])
        AS_IF([test $comm_fortran = yes], [
            AC_MSG_CHECKING([whether $FC takes type(*), dimension(..) in a bind(C) interface])
            AC_COMPILE_IFELSE([AC_LANG_SOURCE([[
module conftest_mod
    use, intrinsic :: iso_c_binding, only: c_int
    implicit none
    interface
        subroutine conftest_send(buf, count) bind(C, name="conftest_send")
            import :: c_int
            type(*), dimension(..), intent(in) :: buf
            integer(c_int), intent(in) :: count
        end subroutine conftest_send
    end interface
end module conftest_mod

program conftest
    use conftest_mod
    implicit none
    integer :: a(2, 3), s
    real :: r(4)
    a = 0
    s = 0
    r = 0
    call conftest_send(a, 6)
    call conftest_send(s, 1)
    call conftest_send(r, 4)
end program conftest
]])], [AC_MSG_RESULT([yes])],
            [AC_MSG_RESULT([no])
             comm_fortran=no
             comm_fortran_why="$FC_VERSION_TEXT lacks assumed-rank type(*), dimension(..) in bind(C) interfaces (Fortran 2018; gfortran 9 or newer)"])
            rm -f conftest_mod.mod
        ])
        AC_LANG_POP([Fortran])
    ])

    dnl The C side: the header, from the C compiler's own path or from the Fortran compiler's.
    AS_IF([test $comm_fortran = yes], [
        AC_MSG_CHECKING([for ISO_Fortran_binding.h])
        comm_fortran_save_CPPFLAGS=$CPPFLAGS
        comm_fortran_cfi=no
        for comm_fortran_inc in "" "`$FC -print-file-name=include 2>/dev/null`"; do
            AS_IF([test -n "$comm_fortran_inc" && test ! -f "$comm_fortran_inc/ISO_Fortran_binding.h"],
                [continue])
            CPPFLAGS="$comm_fortran_save_CPPFLAGS${comm_fortran_inc:+ -I$comm_fortran_inc}"
            AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <ISO_Fortran_binding.h>]],
                [[CFI_cdesc_t *d = 0; return d ? (int)d->elem_len + d->rank : CFI_VERSION - CFI_VERSION;]])],
                [comm_fortran_cfi=yes
                 COMM_FORTRAN_CPPFLAGS=${comm_fortran_inc:+-I$comm_fortran_inc}
                 break])
        done
        CPPFLAGS=$comm_fortran_save_CPPFLAGS
        AC_MSG_RESULT([$comm_fortran_cfi${COMM_FORTRAN_CPPFLAGS:+ ($COMM_FORTRAN_CPPFLAGS)}])
        AS_IF([test $comm_fortran_cfi = no],
            [comm_fortran=no
             comm_fortran_why="$CC finds no ISO_Fortran_binding.h; on Debian it comes with gfortran (libgfortran-dev)"])
    ])

    dnl Both together: a Fortran program hands a 2-D array to C, which reads the descriptor.
    AS_IF([test $comm_fortran = yes], [
        AC_MSG_CHECKING([whether $CC reads the array descriptors $FC passes])
        cat >conftest_cfi.c <<_COMM_EOF
#include <ISO_Fortran_binding.h>
int conftest_rank(CFI_cdesc_t *d);
int conftest_rank(CFI_cdesc_t *d)
{
    const int *a = d->base_addr;
    if (d->rank != 2 || d->elem_len != sizeof(int) || d->dim[[1]].extent != 3 || a[[5]] != 6) {
        return -1;
    }
    return d->rank;
}
_COMM_EOF
        comm_fortran_ok=no
        AS_IF([$CC $CPPFLAGS $COMM_FORTRAN_CPPFLAGS $CFLAGS -c conftest_cfi.c -o conftest_cfi.$ac_objext >&AS_MESSAGE_LOG_FD 2>&1], [
            AC_LANG_PUSH([Fortran])
            comm_fortran_save_LIBS=$LIBS
            LIBS="conftest_cfi.$ac_objext $LIBS"
            AC_RUN_IFELSE([AC_LANG_SOURCE([[
program conftest
    use, intrinsic :: iso_c_binding, only: c_int
    implicit none
    interface
        function conftest_rank(buf) bind(C, name="conftest_rank") result(r)
            import :: c_int
            type(*), dimension(..), intent(in) :: buf
            integer(c_int) :: r
        end function conftest_rank
    end interface
    integer :: a(2, 3), i
    a = reshape((/ (i, i = 1, 6) /), (/ 2, 3 /))
    if (conftest_rank(a) /= 2) stop 1
end program conftest
]])], [comm_fortran_ok=yes], [],
                [comm_fortran_ok="yes (cross-compiling: not run)"])
            LIBS=$comm_fortran_save_LIBS
            AC_LANG_POP([Fortran])
        ])
        rm -f conftest_cfi.c conftest_cfi.$ac_objext
        AC_MSG_RESULT([$comm_fortran_ok])
        AS_IF([test "x$comm_fortran_ok" = xno],
            [comm_fortran=no
             comm_fortran_why="$CC and $FC_VERSION_TEXT disagree on ISO_Fortran_binding.h array descriptors (a test program failed; see config.log)"])
    ])
])
