#!/bin/bash
# cma-refused.sh - ranks that may not be read (PR_SET_DUMPABLE 0, and not root): comm falls
# back to copying large messages through the rings by itself, says so at the info level, and
# the data arrives intact.  Runs a private copy of comm-run, behave and libcomm as user nobody,
# so that no directory of the build needs to be readable by that user.
set -eu
dir=$(mktemp -d /tmp/comm-cma.XXXXXX)
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
mkdir "$dir/tmp"
chmod 1777 "$dir/tmp"
cp "$(command -v comm-run)" "$(command -v behave)" "$dir/"
cp -P "$TEST_BUILDDIR"/api/.libs/libcomm.so* "$dir/"
cd "$dir"
TMPDIR=$dir/tmp LD_LIBRARY_PATH=$dir COMM_LOG_LEVEL=btl_shm=info \
    setpriv --reuid=65534 --regid=65534 --clear-groups ./comm-run -np 2 ./behave nodump
