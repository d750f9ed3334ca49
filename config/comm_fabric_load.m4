# comm_fabric_load.m4 - what btl/ofi needs to load libfabric at run time.
#
# COMM_FABRIC_LOAD (after COMM_CHECK_PKG([FABRIC], ...))
#
# libcomm does not link libfabric: btl/ofi loads it with dlopen when a job needs the network,
# because Debian's libfabric pulls in libraries (libpsm2, libinfinipath) whose constructors
# spend ~0.2 s calibrating a clock in every process that loads them.  So that the loaded
# library is used exactly as a link would have used it, this links a test program against
# FABRIC_LIBS and reads from it the file name the dynamic linker would look for (its NEEDED
# entry) and the version of each libfabric function btl/ofi calls.  Defines
# COMM_FABRIC_SONAME and COMM_FI_<FUNCTION>_VERSION; stops configure when it cannot tell.

AC_DEFUN([COMM_FABRIC_LOAD], [
    AC_REQUIRE([AC_PROG_SED])
    AC_CHECK_TOOL([OBJDUMP], [objdump], [no])
    AS_IF([test "x$OBJDUMP" = xno],
        [AC_MSG_ERROR([objdump not found: configure reads from it which libfabric file and
 symbol versions btl/ofi loads (apt-get install binutils)])])
    AC_SEARCH_LIBS([dlvsym], [dl], [],
        [AC_MSG_ERROR([dlvsym() not found: btl/ofi loads libfabric with it])])
    AC_MSG_CHECKING([which libfabric file and function versions btl/ofi loads])
    comm_fabric_save_CPPFLAGS=$CPPFLAGS
    comm_fabric_save_LDFLAGS=$LDFLAGS
    comm_fabric_save_LIBS=$LIBS
    CPPFLAGS="$CPPFLAGS $FABRIC_CPPFLAGS"
    LDFLAGS="$LDFLAGS $FABRIC_LDFLAGS"
    LIBS="$FABRIC_LIBS $LIBS"
    comm_fabric_soname=
    comm_fabric_symbols=
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <rdma/fabric.h>]], [[
        struct fi_info *info = fi_dupinfo(NULL);
        struct fid_fabric *fabric = NULL;
        (void) fi_getinfo(FI_VERSION(1, 0), NULL, NULL, 0, info, &info);
        fi_freeinfo(info);
        (void) fi_fabric(NULL, &fabric, NULL);
        (void) fi_strerror(0);
        return (int) fi_version();]])],
        [comm_fabric_soname=`$OBJDUMP -p conftest$ac_exeext |
            $SED -n 's/^ *NEEDED *\(libfabric[[^ ]]*\) *$/\1/p'`
         comm_fabric_symbols=`$OBJDUMP -T conftest$ac_exeext`])
    CPPFLAGS=$comm_fabric_save_CPPFLAGS
    LDFLAGS=$comm_fabric_save_LDFLAGS
    LIBS=$comm_fabric_save_LIBS
    AS_IF([test -z "$comm_fabric_soname"],
        [AC_MSG_ERROR([cannot tell which file a program linked with $FABRIC_LIBS loads
 (no NEEDED libfabric entry; see config.log)])])
    comm_fabric_found="$comm_fabric_soname"
    for comm_fabric_fn in getinfo freeinfo dupinfo fabric strerror version; do
        comm_fabric_ver=`printf '%s\n' "$comm_fabric_symbols" |
            $SED -n "s/.*[[( ]]\(FABRIC_[[0-9.]]*\)[[) ]]* *fi_$comm_fabric_fn\$/\1/p" |
            head -n 1`
        AS_IF([test -z "$comm_fabric_ver"],
            [AC_MSG_ERROR([cannot tell which version of fi_$comm_fabric_fn() a program
 linked with $FABRIC_LIBS uses (see config.log)])])
        comm_fabric_found="$comm_fabric_found fi_$comm_fabric_fn@$comm_fabric_ver"
        AS_CASE([$comm_fabric_fn],
            [getinfo], [comm_fabric_v_getinfo=$comm_fabric_ver],
            [freeinfo], [comm_fabric_v_freeinfo=$comm_fabric_ver],
            [dupinfo], [comm_fabric_v_dupinfo=$comm_fabric_ver],
            [fabric], [comm_fabric_v_fabric=$comm_fabric_ver],
            [strerror], [comm_fabric_v_strerror=$comm_fabric_ver],
            [version], [comm_fabric_v_version=$comm_fabric_ver])
    done
    AC_MSG_RESULT([$comm_fabric_found])
    AC_DEFINE_UNQUOTED([COMM_FABRIC_SONAME], ["$comm_fabric_soname"],
                       [the libfabric file btl/ofi loads by default])
    AC_DEFINE_UNQUOTED([COMM_FI_GETINFO_VERSION], ["$comm_fabric_v_getinfo"],
                       [symbol version of fi_getinfo in the libfabric comm was built against])
    AC_DEFINE_UNQUOTED([COMM_FI_FREEINFO_VERSION], ["$comm_fabric_v_freeinfo"],
                       [symbol version of fi_freeinfo in the libfabric comm was built against])
    AC_DEFINE_UNQUOTED([COMM_FI_DUPINFO_VERSION], ["$comm_fabric_v_dupinfo"],
                       [symbol version of fi_dupinfo in the libfabric comm was built against])
    AC_DEFINE_UNQUOTED([COMM_FI_FABRIC_VERSION], ["$comm_fabric_v_fabric"],
                       [symbol version of fi_fabric in the libfabric comm was built against])
    AC_DEFINE_UNQUOTED([COMM_FI_STRERROR_VERSION], ["$comm_fabric_v_strerror"],
                       [symbol version of fi_strerror in the libfabric comm was built against])
    AC_DEFINE_UNQUOTED([COMM_FI_VERSION_VERSION], ["$comm_fabric_v_version"],
                       [symbol version of fi_version in the libfabric comm was built against])
    comm_summary="$comm_summary
  libfabric loaded at run time: $comm_fabric_soname"
])
