#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Build coll/shmcico from this source tree and run every test.  On a
# fresh Debian 12 (or Ubuntu) machine as root it first installs the
# packages it needs.  The last line of the output is "N passed, N failed"
# (a build that fails counts as one failed test).

set -u
cd "$(dirname "$0")/.."

log=$(mktemp)
trap 'rm -f "$log"' EXIT
(
    set -e
    test/install-deps.sh
    ./autogen.pl
    ./configure
    make -j"$(nproc)"
    make -s --no-print-directory check
) 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
echo "${summary:-0 passed, 1 failed}"
exit "$status"
