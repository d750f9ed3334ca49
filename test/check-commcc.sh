#!/bin/bash
# check-commcc.sh - the commcc wrapper prints the flags it would use and refuses bad usage.
# (A real compile and run with the installed wrapper is in `make installcheck`.)
set -u
builddir=${TEST_BUILDDIR:?}
cc=$builddir/launcher/commcc
bad=0
fail() { echo "commcc: $*"; bad=1; }

compile=$("$cc" --showme:compile) || fail "--showme:compile failed"
[[ $compile == -I/* ]] || fail "--showme:compile printed '$compile'"
link=$("$cc" --showme:link) || fail "--showme:link failed"
[[ $link == *-lcomm* && $link == *-Wl,-rpath,* ]] || fail "--showme:link printed '$link'"
show=$("$cc" --showme -O2 -o app app.c)
[[ $show == *"$compile -O2 -o app app.c $link" ]] || fail "--showme printed '$show'"
show=$("$cc" --showme -c app.c)
[[ $show != *-lcomm* ]] || fail "-c should not link: '$show'"
[[ $("$cc" --showme:version) == "comm "* ]] || fail "--showme:version"
"$cc" --showme:nonsense >/dev/null 2>&1
[[ $? == 2 ]] || fail "--showme:nonsense should exit 2"
"$cc" >/dev/null 2>&1
[[ $? == 2 ]] || fail "no input files should exit 2"
"$cc" --help | grep -q '^Usage: commcc' || fail "--help"
[[ $bad == 0 ]] && echo "commcc: flags and usage errors as documented"
exit $bad
