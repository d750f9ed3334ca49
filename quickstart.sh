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
#                           simulated cluster); ends with one "tests: N passed, N failed" line
set -eu
mode=${1:-demo}
case $mode in
demo | test) ;;
-h | --help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
# For the test suite only: the launchers that make check-launchers runs comm under (Slurm with
# munge, Open MPI's mpirun) and ip for its network namespace; without their recommends, which
# are dozens of Slurm plugins the test does not use.
launcher_packages="slurmctld slurmd slurm-client munge openmpi-bin iproute2"
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
../configure --prefix="$top/_install" --enable-picky >configure.out ||
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

echo "== make check"
status=0
make -j"$jobs" check >check.out 2>&1 || status=1
grep -E '^(PASS|FAIL|ERROR|XPASS|XFAIL|SKIP):' check.out || true
if [[ $status != 0 ]]; then
    cat test-suite.log || cat check.out
fi
echo "== make check-launchers (srun --mpi=pmix and mpirun.openmpi; needs root)"
make check-launchers >launchers.out 2>&1 && grep '^run-slurm-test: ' launchers.out ||
    { cat launchers.out; status=1; }
echo "== make installcheck"
make installcheck >installcheck.out 2>&1 && grep '^installcheck:' installcheck.out ||
    { cat installcheck.out; status=1; }
echo "== make distcheck"
make distcheck >distcheck.out 2>&1 && grep -E 'archives ready|\.tar\.gz$' distcheck.out ||
    { tail -60 distcheck.out; status=1; }
# The cluster tests need root (network namespaces); CI runs as root.
cluster=no
if [[ $(id -u) == 0 ]]; then
    cluster=yes
    echo "== make check-cluster"
    if make check-cluster >check-cluster.out 2>&1; then
        grep -E '^(PASS|FAIL)' check-cluster.out || true
    else
        cat check-cluster.out
        status=1
    fi
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
        failed=$((failed + 1))
        continue
    fi
    read -r n f e <<<"$(sed -E 's/.*Checks: ([0-9]+), Failures: ([0-9]+), Errors: ([0-9]+).*/\1 \2 \3/' <<<"$line")"
    passed=$((passed + n - f - e))
    failed=$((failed + f + e))
done
line=$(grep -E '^integration: [0-9]+ passed, [0-9]+ failed$' test/integration/run-tests.log 2>/dev/null || true)
if [[ -n $line ]]; then
    read -r p f <<<"$(sed -E 's/integration: ([0-9]+) passed, ([0-9]+) failed/\1 \2/' <<<"$line")"
    passed=$((passed + p))
    failed=$((failed + f))
else
    failed=$((failed + 1))
fi
for trs in test/*.sh.trs; do
    [[ -f $trs ]] || continue
    if grep -q '^:test-result: PASS' "$trs"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
# Each launcher run of check-launchers, or one failure when it did not get to the end.
if grep -q '^run-slurm-test: PASS' launchers.out 2>/dev/null; then
    passed=$((passed + $(grep -cE '^run-slurm-test: [a-z_-]+: ok' launchers.out)))
else
    failed=$((failed + 1))
fi
if [[ $cluster == yes ]]; then
    for summary in launcher-tests cluster; do
        line=$(grep -E "^$summary: [0-9]+ passed, [0-9]+ failed$" check-cluster.out || true)
        if [[ -n $line ]]; then
            read -r p f <<<"$(sed -E 's/^[a-z-]+: ([0-9]+) passed, ([0-9]+) failed/\1 \2/' <<<"$line")"
            passed=$((passed + p))
            failed=$((failed + f))
        else
            failed=$((failed + 1))
        fi
    done
fi
for step in installcheck distcheck; do
    if grep -qE '^installcheck:.*work|archives ready' "$step.out" 2>/dev/null; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
    fi
done
[[ $status == 0 && $failed == 0 ]] || status=1
echo "tests: $passed passed, $failed failed"
exit $status
