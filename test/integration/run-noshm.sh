#!/bin/bash
# run-noshm.sh - the point-to-point and collective integration tests again with COMM_SHM=0, so
# that every message between ranks crosses the network transport (libfabric tcp on lo) and no
# collective uses shared memory.  See run-tests (--pass noshm).
exec "${TEST_SRCDIR:?TEST_SRCDIR must name the source tree}/test/integration/run-tests" \
    --pass noshm "$@"
