#!/bin/bash
# check-man.sh - the manual pages agree with the code: comm(7) documents every setting that
# comm-info lists, with its default, and nothing that is not a setting; comm-run(1) documents
# every option of `comm-run --help`; every page renders without warnings.
set -u
builddir=${TEST_BUILDDIR:?}
srcdir=${TEST_SRCDIR:?}
man7=$srcdir/man/comm.7
bad=0

settings=$("$builddir/launcher/comm-info" --parsable | grep '^setting:')
names=$(awk -F: '$3 == "default" {print $2}' <<<"$settings")
[[ -n $names ]] || { echo "man: comm-info listed no setting"; exit 1; }
for n in $names; do
    def=$(awk -F: -v n="$n" '$2 == n && $3 == "default" {sub(/^[^:]*:[^:]*:[^:]*:/, ""); print}' <<<"$settings")
    grep -qx "\.B $n" "$man7" || { echo "man: comm(7) does not document $n"; bad=1; continue; }
    # The entry is the .TP whose tag line is ".B NAME", up to the next .TP or section.
    entry=$(awk -v n="$n" 'prev == ".TP" && $0 == ".B " n {on = 1; prev = $0; next}
                           on && /^\.(TP|SH|SS)/ {exit} on {print} {prev = $0}' "$man7")
    if [[ $n == COMM_CC || $n == COMM_FC ]]; then
        # Its default is whatever compiler built comm: the page says so in words.
        grep -qF "Default: the compiler comm was built with" <<<"$entry" ||
            { echo "man: comm(7) does not say $n defaults to the build compiler"; bad=1; }
    elif [[ -n $def ]]; then
        grep -qF "Default: \\fB$def\\fR." <<<"$entry" ||
            { echo "man: comm(7) gives $n no 'Default: \\fB$def\\fR.'"; bad=1; }
    else
        grep -qF "Default: none." <<<"$entry" ||
            { echo "man: comm(7) gives $n no 'Default: none.'"; bad=1; }
    fi
done
for n in $(grep -oE '^\.B (COMM_[A-Z0-9_]+|MPIEXEC_[A-Z_]+)$' "$man7" | awk '{print $2}' | sort -u); do
    grep -qx "$n" <<<"$names" || { echo "man: comm(7) documents $n, which is not a setting"; bad=1; }
done

for opt in $("$builddir/launcher/comm-run" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
    grep -qF -- "${opt//-/\\-}" "$srcdir/man/comm-run.1" ||
        grep -qF -- "$opt" "$srcdir/man/comm-run.1" ||
        { echo "man: comm-run(1) does not document $opt"; bad=1; }
done

for page in "$srcdir"/man/*.[157]; do
    w=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" 2>&1)
    [[ -z $w ]] || { echo "man: $(basename "$page") renders with warnings: $w"; bad=1; }
done
[[ $bad == 0 ]] && echo "man: $(wc -w <<<"$names") settings and the comm-run options documented"
exit $bad
