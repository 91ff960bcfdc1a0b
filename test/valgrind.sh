#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# valgrind.sh LOGDIR NP PROGRAM [ARGS...]
# VALGRIND_NODES=LAYOUT valgrind.sh ...: on simulated nodes instead
# (test/nodes.sh LAYOUT, every slot of it; NP is not used)
#
# Runs one MPI job with every rank under valgrind memcheck (Open MPI's
# suppressions when Debian ships them) and counts the error records of
# the logs that have a frame in coll/shmcico: invalid reads and writes,
# uses of uninitialised values, bad frees, overlapping copies, memory
# definitely lost.  Open MPI's own records (it has some) are counted
# apart and do not fail the run.  Passes when the job succeeds and the
# count is 0.  Called by run-suite.sh (make check-valgrind).

set -u
: "${MPIRUN:?}"
logdir=$1 np=$2
shift 2

supp=/usr/share/openmpi/openmpi-valgrind.supp
# --keep-debuginfo: Open MPI unloads its components before the leak
# check, whose records must still name their frames
args=(--tool=memcheck --num-callers=40 --keep-debuginfo=yes --leak-check=full
      --show-leak-kinds=definite --errors-for-leak-kinds=definite
      --log-file="$logdir/valgrind.%p.log")
[ -r "$supp" ] && args+=(--suppressions="$supp")

rm -f "$logdir"/valgrind.*.log
if [ -n "${VALGRIND_NODES:-}" ]; then
    # on simulated nodes (nodes.sh LAYOUT): every slot of the layout
    "$(dirname "$0")/nodes.sh" "$VALGRIND_NODES" valgrind "${args[@]}" "$@"
else
    "$MPIRUN" --oversubscribe -np "$np" valgrind "${args[@]}" "$@"
fi
status=$?

# A record is a run of non-empty lines after the "==PID== " prefix; an
# error record starts with one of memcheck's error headlines.
awk '
    function flush() {
        if (is_error) {
            if (ours) { ++in_shmcico; print record } else { ++elsewhere }
        }
        record = ""; is_error = 0; ours = 0; first = 1
    }
    BEGIN { first = 1 }
    FNR == 1 { flush() }
    {
        line = $0
        sub(/^==[0-9]+== ?/, "", line)
        if (line == "") { flush(); next }
        if (first && line ~ /^(Invalid |Conditional jump|Use of uninitialised|Syscall param|Mismatched free|Source and destination overlap|Argument .* of function)|definitely lost in loss record/)
            is_error = 1
        first = 0
        if (line ~ /coll_shmcico/) ours = 1     # the DSO, its files, its functions
        record = record "    " line "\n"
    }
    END {
        flush()
        printf "valgrind: %d error records in coll/shmcico frames, %d elsewhere\n",
               in_shmcico, elsewhere
        exit in_shmcico > 0
    }
' "$logdir"/valgrind.*.log
found=$?

echo "mpirun exit status $status"
[ $status -eq 0 ] && [ $found -eq 0 ] && echo "valgrind: OK"
