# comm_check_pkg.m4 - the one macro that finds a dependency of comm.
#
# COMM_CHECK_PKG([VAR], [name], [pkg-config modules], [header], [function], [-llibs],
#                [Debian package], [required|optional])
#
# Looks for the dependency in this order:
#   1. --with-NAME=DIR (headers in DIR/include, libraries in DIR/lib64 or DIR/lib), or
#      --with-NAME-incdir=DIR / --with-NAME-libdir=DIR;
#   2. pkg-config;
#   3. the compiler's default search path.
# Whatever it finds must really compile HEADER and link FUNCTION.  On success it sets
# VAR_CPPFLAGS, VAR_LDFLAGS and VAR_LIBS (never the global flags), defines COMM_HAVE_VAR to 1
# (0 when an optional package is missing) and adds one line to the summary configure prints.
# A package named with --with-NAME that cannot be used stops configure; so does a missing
# required one.  --with-NAME=no is refused for a required package.

AC_DEFUN([COMM_CHECK_PKG], [
    AC_ARG_WITH([$2],
        [AS_HELP_STRING([--with-$2=DIR], [use $2 installed under DIR])])
    AC_ARG_WITH([$2-incdir],
        [AS_HELP_STRING([--with-$2-incdir=DIR], [use $2 headers from DIR])])
    AC_ARG_WITH([$2-libdir],
        [AS_HELP_STRING([--with-$2-libdir=DIR], [use $2 libraries from DIR])])

    eval "comm_pkg_with=\${AS_TR_SH([with_$2])}"
    eval "comm_pkg_incdir=\${AS_TR_SH([with_$2_incdir])}"
    eval "comm_pkg_libdir=\${AS_TR_SH([with_$2_libdir])}"
    comm_pkg_explicit=no
    $1_CPPFLAGS=
    $1_LDFLAGS=
    $1_LIBS=
    comm_pkg_how=
    comm_pkg_version=unknown

    AS_IF([test "x$comm_pkg_with" = xno],
        [AS_IF([test "x$8" = xrequired],
            [AC_MSG_ERROR([$2 is required by comm and cannot be disabled (--without-$2)])])])

    AS_IF([test "x$comm_pkg_with" != xno], [
        AS_IF([test -n "$comm_pkg_with" && test "x$comm_pkg_with" != xyes], [
            comm_pkg_explicit=yes
            AS_IF([test -z "$comm_pkg_incdir"], [comm_pkg_incdir="$comm_pkg_with/include"])
            AS_IF([test -z "$comm_pkg_libdir"], [
                AS_IF([test -d "$comm_pkg_with/lib64"],
                    [comm_pkg_libdir="$comm_pkg_with/lib64"],
                    [comm_pkg_libdir="$comm_pkg_with/lib"])])
        ])
        AS_IF([test -n "$comm_pkg_incdir" || test -n "$comm_pkg_libdir"], [
            comm_pkg_explicit=yes
            AS_IF([test -n "$comm_pkg_incdir"], [$1_CPPFLAGS="-I$comm_pkg_incdir"])
            AS_IF([test -n "$comm_pkg_libdir"],
                [$1_LDFLAGS="-L$comm_pkg_libdir -Wl,-rpath,$comm_pkg_libdir"])
            $1_LIBS="$6"
            comm_pkg_how="--with-$2 ($comm_pkg_incdir, $comm_pkg_libdir)"
        ], [
            AS_IF([test -n "$PKG_CONFIG" && $PKG_CONFIG --exists $3 2>/dev/null], [
                $1_CPPFLAGS=`$PKG_CONFIG --cflags $3`
                $1_LDFLAGS=`$PKG_CONFIG --libs-only-L --libs-only-other $3`
                $1_LIBS=`$PKG_CONFIG --libs-only-l $3`
                comm_pkg_version=`$PKG_CONFIG --modversion $3 | head -n 1`
                comm_pkg_how="pkg-config $3 $comm_pkg_version"
            ], [
                $1_LIBS="$6"
                comm_pkg_how="default search path"
            ])
        ])

        AC_MSG_CHECKING([for $2 ($4, $5) via $comm_pkg_how])
        comm_pkg_save_CPPFLAGS=$CPPFLAGS
        comm_pkg_save_LDFLAGS=$LDFLAGS
        comm_pkg_save_LIBS=$LIBS
        CPPFLAGS="$CPPFLAGS $$1_CPPFLAGS"
        LDFLAGS="$LDFLAGS $$1_LDFLAGS"
        LIBS="$$1_LIBS $LIBS"
        AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <$4>]], [[(void) &$5;]])],
            [comm_pkg_found=yes], [comm_pkg_found=no])
        CPPFLAGS=$comm_pkg_save_CPPFLAGS
        LDFLAGS=$comm_pkg_save_LDFLAGS
        LIBS=$comm_pkg_save_LIBS
        AC_MSG_RESULT([$comm_pkg_found])
    ], [comm_pkg_found=no])

    AS_IF([test "x$comm_pkg_found" = xyes], [
        AC_DEFINE([COMM_HAVE_$1], [1], [Define to 1 if $2 is usable])
        AC_DEFINE_UNQUOTED([COMM_$1_BUILD_VERSION], ["$comm_pkg_version"],
                           [version of $2 comm was built against])
        comm_summary="$comm_summary
  $2: $comm_pkg_how"
    ], [
        AS_IF([test "x$comm_pkg_explicit" = xyes],
            [AC_MSG_ERROR([$2 was named with --with-$2 but <$4> or $5() could not be used from there (see config.log)])])
        AS_IF([test "x$8" = xrequired],
            [AC_MSG_ERROR([$2 not found: comm needs <$4> and $5(). On Debian: apt-get install $7 (or point configure at it with --with-$2=DIR)])])
        AC_DEFINE([COMM_HAVE_$1], [0], [Define to 1 if $2 is usable])
        $1_CPPFLAGS=
        $1_LDFLAGS=
        $1_LIBS=
        comm_summary="$comm_summary
  $2: not found (optional; apt-get install $7)"
    ])
    AM_CONDITIONAL([COMM_HAVE_$1], [test "x$comm_pkg_found" = xyes])
    AC_SUBST([$1_CPPFLAGS])
    AC_SUBST([$1_LDFLAGS])
    AC_SUBST([$1_LIBS])
])
