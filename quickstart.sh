#!/bin/bash
# quickstart.sh - set up, build and try comm on a Debian 12 machine.
#
#   ./quickstart.sh         install what is missing (as root), build into _build, install into
#                           _install, then compile examples/hello.c with commcc and run it under
#                           comm-run with 4 ranks
#   ./quickstart.sh test    the same set-up, then the whole test suite: make check (unit,
#                           integration, layering, exports, manual pages), make check-launchers
#                           (Slurm's srun and Open MPI's mpirun, as root), make installcheck,
#                           make distcheck and, as root, make check-cluster (the tests across a
#                           simulated cluster); prints a line per test as it ends (name, PASS
#                           or FAIL, seconds), then the five slowest, the time of each step and
#                           one "tests: N passed, N failed" line
set -eu
mode=${1:-demo}
case $mode in
demo | test) ;;
-h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
*) echo "quickstart.sh: unknown mode '$mode' (expected nothing or 'test')" >&2; exit 2 ;;
esac
top=$(cd "$(dirname "$0")" && pwd)
cd "$top"
jobs=$(nproc 2>/dev/null || echo 2)

# Debian packages: the toolchain, the four libraries comm is built on, Check for the unit
# tests, groff for the manual-page check, iproute2 (ip, tc) for the simulated cluster of
# make check-cluster.
packages="gcc make autoconf automake libtool pkg-config libfabric-dev libpmix-dev libhwloc-dev
    libevent-dev check groff-base iproute2"
# gfortran for the Fortran interfaces (mpif.h, use mpi, use mpi_f08, commfort): comm builds
# without them when it is missing, but the test mode requires them (--enable-fortran below).
packages="$packages gfortran"
# For the test suite only: the launchers that make check-launchers runs comm under (Slurm with
# munge, Open MPI's mpirun) and ip for its network namespace, and gnuplot for the check of
# examples/bench/compare --plot in make installcheck; without their recommends, which are
# dozens of Slurm plugins the test does not use.
launcher_packages="slurmctld slurmd slurm-client munge openmpi-bin iproute2 gnuplot-nox"
missing_from() {
    local p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
            echo -n " $p"
    done
}
missing=$(missing_from $packages)
missing_launchers=""
[[ $mode == test ]] && missing_launchers=$(missing_from $launcher_packages)
if [[ -n $missing$missing_launchers ]]; then
    if [[ $(id -u) == 0 ]]; then
        echo "== installing:$missing$missing_launchers"
        apt-get update
        if [[ -n $missing ]]; then
            DEBIAN_FRONTEND=noninteractive apt-get install -y $missing
        fi
        if [[ -n $missing_launchers ]]; then
            DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
                $missing_launchers
        fi
    elif [[ -n $missing ]]; then
        echo "quickstart.sh: missing Debian packages:$missing" >&2
        echo "  install them with: sudo apt-get install -y$missing" >&2
        exit 1
    else
        # make check-launchers needs root anyway, and says so when it runs.
        echo "quickstart.sh: make check-launchers needs Debian packages:$missing_launchers" >&2
        echo "  install them with: sudo apt-get install -y --no-install-recommends" \
            "$missing_launchers" >&2
    fi
fi

echo "== building"
autoreconf -fi
mkdir -p _build
cd _build
# The test suite must test the Fortran interfaces: configure stops rather than leave them out.
fortran=""
[[ $mode == test ]] && fortran=--enable-fortran
../configure --prefix="$top/_install" --enable-picky $fortran >configure.out ||
    { cat configure.out; exit 1; }
sed -n '/^comm .* configured$/,$p' configure.out
make -j"$jobs" >make.out 2>&1 || { cat make.out; exit 1; }
make install >install.out 2>&1 || { cat install.out; exit 1; }
echo "installed in $top/_install"

if [[ $mode == demo ]]; then
    echo "== compiling examples/hello.c with commcc and running it on 4 ranks"
    "$top/_install/bin/commcc" -O2 -o hello "$top/examples/hello.c"
    echo "\$ _install/bin/comm-run -np 4 _build/hello"
    "$top/_install/bin/comm-run" -np 4 ./hello
    echo
    echo "Next: export PATH=$top/_install/bin:\$PATH; man -M $top/_install/share/man comm"
    exit 0
fi

# Each step's result lines as they come (name, PASS or FAIL, seconds), its output in a file;
# results.out collects every result line for the slowest tests at the end, steps.out how long
# each step took.
set -o pipefail
: >results.out
: >steps.out
results='^(PASS|FAIL|ERROR|XPASS|XFAIL|SKIP): '
step_started=$SECONDS
step_done() {
    echo "$1 $((SECONDS - step_started))" >>steps.out
    step_started=$SECONDS
}
echo "== make check (unit tests, integration runs under comm-run, checks of the build)"
status=0
make -j"$jobs" check 2>&1 | tee check.out | grep --line-buffered -E "$results" |
    tee -a results.out || status=1
if [[ $status != 0 ]]; then
    cat test-suite.log || tail -60 check.out
fi
step_done "make check"
echo "== make check-launchers (srun --mpi=pmix and mpirun.openmpi; needs root)"
make check-launchers 2>&1 | tee launchers.out | grep --line-buffered '^run-slurm-test: ' |
    sed -u -E 's/^run-slurm-test: ([a-z_-]+): ok (.*)$/PASS: launchers\/\1 \2/' |
    tee -a results.out || { cat launchers.out; status=1; }
step_done "make check-launchers"
echo "== make installcheck"
make installcheck >installcheck.out 2>&1 && grep '^installcheck:' installcheck.out ||
    { cat installcheck.out; status=1; }
step_done "make installcheck"
echo "== make distcheck (the tarball builds, installs and passes the unit and integration tests)"
make distcheck 2>&1 | tee distcheck.out | grep --line-buffered -E "$results" |
    sed -u -E 's/^([A-Z]+): /\1: distcheck\//' | tee -a results.out &&
    grep -E 'archives ready|\.tar\.gz$' distcheck.out || { tail -60 distcheck.out; status=1; }
step_done "make distcheck"
# The cluster tests need root (network namespaces); CI runs as root.
cluster=no
if [[ $(id -u) == 0 ]]; then
    cluster=yes
    echo "== make check-cluster (comm-run across network namespaces)"
    make check-cluster 2>&1 | tee check-cluster.out | grep --line-buffered -E "$results" |
        tee -a results.out || { cat check-cluster.out; status=1; }
    step_done "make check-cluster"
else
    echo "== make check-cluster: not run, it needs root (sudo make -C _build check-cluster)"
fi

# One line for the whole suite: each Check case, each integration run, each other check.
passed=0
failed=0
for log in test/unit/*_test.log; do
    [[ -f $log ]] || continue
    line=$(grep -E '^[0-9]+%: Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+' "$log" | tail -n 1)
    if [[ -z $line ]]; then
        echo "FAIL: $log: no Check summary (the test program ended early)"
        failed=$((failed + 1))
        continue
    fi
    read -r n f e <<<"$(sed -E 's/.*Checks: ([0-9]+), Failures: ([0-9]+), Errors: ([0-9]+).*/\1 \2 \3/' <<<"$line")"
    passed=$((passed + n - f - e))
    failed=$((failed + f + e))
done
for pass in default noshm fortran fortran-noshm; do
    line=$(grep -E '^integration( \(noshm\))?: [0-9]+ passed, [0-9]+ failed$' \
        "test/integration/$pass.log" 2>/dev/null || true)
    if [[ -n $line ]]; then
        read -r p f <<<"$(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\1 \2/' <<<"$line")"
        passed=$((passed + p))
        failed=$((failed + f))
    elif [[ $pass == fortran* && ! -f test/integration/$pass.log ]]; then
        : # the Fortran interfaces are not built: their lists do not run
    else
        echo "FAIL: integration pass $pass: no summary line in test/integration/$pass.log"
        failed=$((failed + 1))
    fi
done
for trs in test/*.sh.trs; do
    [[ -f $trs ]] || continue
    if grep -q '^:test-result: PASS' "$trs"; then
        passed=$((passed + 1))
    else
        echo "FAIL: ${trs%.trs}"
        failed=$((failed + 1))
    fi
done
# Each launcher run of check-launchers, or one failure when it did not get to the end.
if grep -q '^run-slurm-test: PASS' launchers.out 2>/dev/null; then
    passed=$((passed + $(grep -cE '^run-slurm-test: [a-z_-]+: ok' launchers.out)))
else
    echo "FAIL: make check-launchers: it did not get to the end (launchers.out)"
    failed=$((failed + 1))
fi
if [[ $cluster == yes ]]; then
    for summary in launcher-tests rail-tests cluster; do
        line=$(grep -E "^$summary: [0-9]+ passed, [0-9]+ failed$" check-cluster.out || true)
        if [[ -n $line ]]; then
            read -r p f <<<"$(sed -E 's/^[a-z-]+: ([0-9]+) passed, ([0-9]+) failed/\1 \2/' <<<"$line")"
            passed=$((passed + p))
            failed=$((failed + f))
        else
            echo "FAIL: $summary: ended without its summary line (check-cluster.out)"
            failed=$((failed + 1))
        fi
    done
fi
for step in installcheck distcheck; do
    if grep -qE '^installcheck:.*work|archives ready' "$step.out" 2>/dev/null; then
        passed=$((passed + 1))
    else
        echo "FAIL: make $step"
        failed=$((failed + 1))
    fi
done
[[ $status == 0 && $failed == 0 ]] || status=1
echo "== the slowest tests"
# (awk, not head, takes the first five: head would end the pipe early, and pipefail with it)
sed -nE 's/^[A-Z]+: (.*) \(([0-9]+\.[0-9]) s\).*/\2 \1/p' results.out | sort -rn -k1,1 |
    awk 'NR <= 5 { t = $1; $1 = ""; printf "%7s s %s\n", t, $0 }'
echo "== time taken: $(awk '{ t = $NF; $NF = ""; printf "%s%s%d s", sep, $0, t; sep = ", " }' \
    steps.out)"
echo "tests: $passed passed, $failed failed"
exit $status
