#!/bin/bash
# check-commfort.sh - the commfort wrapper prints the flags it would use and refuses bad usage,
# commf90 and commf77 (links to it) name themselves, and comm-fort.pc gives the same flags; or,
# in a build without the Fortran interfaces, there is no commfort and comm-info says why.
set -u
builddir=${TEST_BUILDDIR:?}
fc=$builddir/launcher/commfort
bad=0
fail() { echo "commfort: $*"; bad=1; }

info=$("$builddir/launcher/comm-info" --parsable) || { echo "commfort: comm-info failed"; exit 1; }
built=$(sed -n 's/^build:fortran:built://p' <<<"$info")
summary=$(sed -n 's/^build:fortran:summary://p' <<<"$info")
case $built in
no)
    [[ ! -e $fc ]] || fail "built without Fortran, yet $fc exists"
    why=$(sed -n 's/^build:fortran:why://p' <<<"$info")
    [[ -n $why ]] || fail "comm-info gives no build:fortran:why"
    [[ $summary == "no ($why)" ]] || fail "comm-info's summary is '$summary', not 'no ($why)'"
    [[ $bad == 0 ]] && echo "commfort: not built, and comm-info says why: $why"
    exit $bad
    ;;
yes) ;;
*) echo "commfort: comm-info --parsable gives build:fortran:built '$built'"; exit 1 ;;
esac

[[ -x $fc ]] || { echo "commfort: built with Fortran, yet no $fc"; exit 1; }
compiler=$(sed -n 's/^build:fortran:compiler://p' <<<"$info")
command=$(sed -n 's/^build:fc:command://p' <<<"$info")
[[ $(sed -n 's/^build:fortran:interfaces://p' <<<"$info") == "mpif.h, use mpi, use mpi_f08" ]] ||
    fail "comm-info does not list the three interfaces"
[[ $summary == "yes ($compiler: mpif.h, use mpi, use mpi_f08)" ]] ||
    fail "comm-info's summary is '$summary'"

compile=$("$fc" --showme:compile) || fail "--showme:compile failed"
[[ $compile == -I/* ]] || fail "--showme:compile printed '$compile'"
link=$("$fc" --showme:link) || fail "--showme:link failed"
[[ $link == -L/*" -Wl,-rpath,/"*" -lcomm_fort -lcomm" ]] || fail "--showme:link printed '$link'"
show=$("$fc" --showme -O2 -o app app.f90)
[[ $show == "$command $compile -O2 -o app app.f90 $link" ]] || fail "--showme printed '$show'"
for only in -c -E -S -fsyntax-only; do
    show=$("$fc" --showme $only app.f90)
    [[ $show == "$command $compile $only app.f90" ]] || fail "$only should not link: '$show'"
done
# Another compiler gets the include directory only (-fallow-argument-mismatch is gfortran's).
[[ $compile == "${compile%% *} -fallow-argument-mismatch" || $compile != *" "* ]] ||
    fail "--showme:compile has '$compile'"
show=$(COMM_FC="myfc -fcheck=all" "$fc" --showme -o app app.f90)
[[ $show == "myfc -fcheck=all ${compile%% *} -o app app.f90 $link" ]] ||
    fail "COMM_FC was not used: '$show'"
[[ $("$fc" --showme:version) == "comm "[0-9]* ]] || fail "--showme:version"
[[ $("$fc" --version) == "commfort (comm) "[0-9]* ]] || fail "--version"

err=$("$fc" --showme:nonsense 2>&1 >/dev/null)
[[ $? == 2 ]] || fail "--showme:nonsense should exit 2"
[[ $err == *"unknown option '--showme:nonsense'"* ]] || fail "--showme:nonsense said '$err'"
err=$("$fc" 2>&1 >/dev/null)
[[ $? == 2 ]] || fail "no input files should exit 2"
[[ $err == "commfort: no input files"* ]] || fail "no input files said '$err'"
help=$("$fc" --help)
[[ $help == "Usage: commfort "* ]] || fail "--help"
grep -qF "COMM_FC" <<<"$help" || fail "--help does not name COMM_FC"
grep -qF "written by $compiler" <<<"$help" || fail "--help does not name $compiler for the modules"

# commf90 and commf77 are links to the same script, as make install makes them.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-commfort.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for name in commf90 commf77; do
    ln -s "$fc" "$tmp/$name"
    [[ $("$tmp/$name" --help) == "Usage: $name "* ]] || fail "$name --help does not name $name"
    [[ $("$tmp/$name" --showme:link) == "$link" ]] || fail "$name links differently"
done

# comm-fort.pc (with comm.pc, which it requires) gives the wrapper's flags.
if command -v pkg-config >/dev/null; then
    pc_libs=$(PKG_CONFIG_PATH=$builddir pkg-config --libs comm-fort) || fail "pkg-config comm-fort"
    [[ $pc_libs == *-lcomm_fort* && $pc_libs == *-lcomm* ]] || fail "comm-fort.pc libs '$pc_libs'"
    pc_cflags=$(echo $(PKG_CONFIG_PATH=$builddir pkg-config --cflags comm-fort))
    [[ $pc_cflags == "$compile" ]] || fail "comm-fort.pc cflags '$pc_cflags', not '$compile'"
fi
[[ $bad == 0 ]] && echo "commfort: flags, names and usage errors as documented ($compiler)"
exit $bad
