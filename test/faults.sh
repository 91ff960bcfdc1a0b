#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Fault injection, one case per call, from the build's test directory
# (run-suite.sh calls it with MPIRUN set and the component on the path):
#   faults.sh hostile-names    files and symlinks already present under the
#                              names the component picks are skipped, never
#                              opened or followed; with every name taken the
#                              communicator falls back
#   faults.sh die-in-setup     the creating rank dies (SIGKILL) between
#                              creating the backing file and anyone attaching;
#                              the file is gone after the next job
#   faults.sh kill-rank        a rank dies (SIGKILL) in the middle of a run
#                              of collectives
#   faults.sh kill-in-single-copy  the root of a run of 64 MiB Bcasts dies
#                              (SIGKILL) while the others copy from its
#                              memory by single copy
#   faults.sh kill-on-a-node   on simulated nodes (nodes.sh 2x2), a rank
#                              of the second node dies (SIGKILL) in the
#                              middle of a run of collectives on
#                              MPI_COMM_WORLD, which spans both nodes
#   faults.sh trips-after-unlink  two processes on one CPU, so that the
#                              setup's trips give the core away: the
#                              backing file is gone by then
#   faults.sh abort            MPI_Abort while the other ranks wait inside a
#                              Bcast from the aborting root
#   faults.sh full-backing     the backing directory is a 64 KiB tmpfs
#   faults.sh readonly-backing the backing directory is a read-only tmpfs
# Each case prints "<case>: OK" when everything it checks holds: the job
# ends in bounded time, no process of it is left, the backing directory
# holds nothing of shmcico's, and results were right where the job could
# finish.

set -u
: "${MPIRUN:?}"

# before a sanitizer's runtime (run-suite.sh: SANITIZER_PRELOAD) and
# what is already preloaded, so that the component's calls reach the
# injector before the sanitizer's interceptors (run-suite.sh lets
# AddressSanitizer accept not coming first)
preload=$PWD/mpi/.libs/fault_inject.so${SANITIZER_PRELOAD:+:$SANITIZER_PRELOAD}${LD_PRELOAD:+:$LD_PRELOAD}
program=$PWD/mpi/test_faults
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d /dev/shm/shmcico-faults.XXXXXX)
trap 'rm -rf "$dir"' EXIT
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# mpirun NP [ARGS...]: the job with its segments in $dir; with LAYOUT set,
# NP processes on the simulated nodes of test/nodes.sh LAYOUT
run_job() {
    local np=$1
    shift
    if [ -n "${LAYOUT:-}" ]; then
        "$here/nodes.sh" "$LAYOUT" -np "$np" --mca coll_shmcico_backing_dir "$dir" "$@"
    else
        "$MPIRUN" --oversubscribe -np "$np" --mca coll_shmcico_backing_dir "$dir" "$@"
    fi
}

# the backing directory holds exactly the names given
expect_dir() {
    local want have
    want=$(printf '%s\n' "$@" | sort)
    have=$(ls -A "$dir" | sort)
    [ "$have" = "$want" ] || fail "backing directory holds: $(echo $have)"
}

# no process runs the test program with this mode any more
expect_no_process() {
    local left
    command -v pgrep >/dev/null || fail "no pgrep (procps) to look for processes left"
    sleep 1
    # without a preloaded sanitizer runtime, under which procps can hang
    left=$(env -u LD_PRELOAD pgrep -f "$program $1" || true)
    [ -z "$left" ] || fail "processes left: $left"
}

# the ranks' pids printed by test_faults, in rank order
pids_in() {
    sed -n 's/^rank \([0-9]*\) pid \([0-9]*\) .*/\1 \2/p' "$1" | sort -n | cut -d' ' -f2
}

hostile_names() {
    local victim=$dir.victim symlink=shmcico-5555555555555555
    local taken=shmcico-6666666666666666 names=() n

    echo abc >"$victim"
    chmod 0644 "$victim"
    ln -s "$victim" "$dir/$symlink"
    echo xyz >"$dir/$taken"
    echo "-- a symlink and a file under the first two names"
    run_job 3 -x LD_PRELOAD="$preload" -x SHMCICO_FAULT_NAMES=5555555555555555 \
        "$program" segment-file "$dir" "$symlink" "$taken" >"$dir.log" 2>&1 \
        || fail "job failed"
    cat "$dir.log"
    grep -q "^rank 0 maps $dir/shmcico-7777777777777777 (deleted)" "$dir.log" \
        || fail "the segment is not under the third name"
    [ "$(cat "$victim")" = abc ] && [ "$(stat -c %a "$victim")" = 644 ] \
        || fail "the symlink's target was changed"
    [ -L "$dir/$symlink" ] || fail "the symlink was replaced"
    [ "$(cat "$dir/$taken")" = xyz ] || fail "the planted file was changed"
    expect_dir "$symlink" "$taken"
    rm -f "$victim" "$dir"/*

    echo "-- every name the component tries is taken"
    for n in 0 1 2 3 4 5 6 7 8 9 a b c d e f; do
        names+=("shmcico-$n$n$n$n$n$n$n$n$n$n$n$n$n$n$n$n")
    done
    for n in "${names[@]}"; do
        touch "$dir/$n"
    done
    run_job 3 -x LD_PRELOAD="$preload" -x SHMCICO_FAULT_NAMES=0 \
        --mca coll_shmcico_verbose 1 mpi/test_fallback nosegment >"$dir.log" 2>&1 \
        || fail "job failed"
    cat "$dir.log"
    grep -q "no shared segment (File exists in $dir)" "$dir.log" \
        || fail "no message about the names"
    expect_dir "${names[@]}"
    rm -f "$dir.log" "$dir"/*
}

die_in_setup() {
    local status start=$SECONDS
    timeout -k 5 60 "$MPIRUN" --oversubscribe -np 3 \
        --mca coll_shmcico_backing_dir "$dir" \
        -x LD_PRELOAD="$preload" -x SHMCICO_FAULT_DIE_IN_SETUP="$dir.died" \
        "$program" setup
    status=$?
    echo "mpirun exit status $status after $((SECONDS - start)) s"
    [ -e "$dir.died" ] || fail "no process died in the setup"
    rm -f "$dir.died"
    [ $status -ne 0 ] || fail "mpirun reported success"
    [ $((SECONDS - start)) -lt 60 ] || fail "the job did not end by itself"
    expect_no_process setup
    # The next segment made in the directory removes the file, once it
    # is older than any setup (MCA_COLL_SHMCICO_STALE_SECONDS, 10 s) and
    # nobody holds it.
    if [ -n "$(ls -A "$dir")" ]; then
        echo "-- left by the job: $(ls -A "$dir"); the next job removes it"
        sleep 11
        run_job 2 "$program" setup || fail "the next job failed"
    fi
    expect_dir
}

# Step 3b, the timing of a line's trip, comes after the file's unlink:
# with both processes on one CPU (not crowded by their count) a wait of
# the trips gives the core away, and the injector looks at the
# directory then.
trips_after_unlink() {
    local log=$dir.log
    timeout -k 5 60 taskset -c 0 "$MPIRUN" -np 2 --bind-to none \
        --mca coll_shmcico_backing_dir "$dir" --mca coll_shmcico_nearness auto \
        --mca coll_shmcico_verbose 10 \
        -x LD_PRELOAD="$preload" -x SHMCICO_FAULT_SEE_DIR_AT_YIELD="$dir" \
        "$program" setup >"$log" 2>&1 || fail "job failed"
    grep -E "processes (near|far) \((a line's trip|a trip timed out)" "$log" \
        || fail "the trips were not timed"
    [ -e "$dir.yielded" ] || fail "no wait of the trips gave the core away"
    [ ! -e "$dir.file-at-yield" ] || fail "the backing file was there during the trips"
    rm -f "$log" "$dir.yielded" "$dir.file-at-yield"
    expect_dir
}

# kill_rank MODE VICTIM: test_faults MODE on 4 ranks, rank VICTIM killed
kill_rank() {
    local mode=$1 log=$dir.log job status victim pids
    run_job 4 "$program" "$mode" >"$log" 2>&1 &
    job=$!
    for _ in $(seq 600); do
        [ "$(pids_in "$log" | wc -l)" = 4 ] && break
        sleep 0.1
    done
    pids=$(pids_in "$log")
    victim=$(echo "$pids" | sed -n "$(($2 + 1))p")
    [ -n "$victim" ] || fail "the ranks never got ready"
    if [ copy-loop = "$mode" ]; then
        [ "$(grep -c 'ready, by single copy$' "$log")" = 4 ] \
            || fail "the first Bcast did not go by single copy at every rank"
    fi
    if [ -n "${LAYOUT:-}" ]; then
        [ "$(grep -c 'ready, 7 served, 7 across nodes$' "$log")" = 4 ] \
            || fail "the first calls were not all served across nodes"
    elif [ loop = "$mode" ]; then
        [ "$(grep -c 'ready, 7 served, ' "$log")" = 4 ] \
            || fail "the first calls were not all served by shmcico"
    fi
    sleep 0.5
    echo "killing rank $2 (pid $victim) with SIGKILL"
    kill -9 "$victim" || fail "the kill failed"
    # the programs give up 60 s after they start: the job must end well
    # before, by the kill
    for _ in $(seq 300); do
        kill -0 $job 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 $job 2>/dev/null; then
        fail "mpirun still running 30 s after the kill"
        kill -9 $job
    fi
    wait $job
    status=$?
    cat "$log"
    ! grep -q 'nobody killed the job' "$log" || fail "the job ended by its own time limit"
    rm -f "$log"
    echo "mpirun exit status $status"
    [ $status -ne 0 ] || fail "mpirun reported success"
    for pid in $pids; do
        case $(env -u LD_PRELOAD ps -o stat= -p "$pid") in
            ""|Z*) ;;                   # gone, or dead and not yet reaped
            *) fail "rank with pid $pid still runs" ;;
        esac
    done
    expect_no_process "$mode"
    expect_dir
}

abort_in_bcast() {
    local log=$dir.log status
    timeout -k 5 60 "$MPIRUN" --oversubscribe -np 4 \
        --mca coll_shmcico_backing_dir "$dir" "$program" abort >"$log" 2>&1
    status=$?
    cat "$log"
    echo "mpirun exit status $status"
    # the abort's error code reaching mpirun proves the abort propagated;
    # Open MPI's own "MPI_ABORT was invoked" banner is not checked: mpirun
    # sometimes loses it while tearing the job down (show_help "Out of
    # resource"), which says nothing about this component
    [ $status -eq 3 ] || fail "mpirun status $status, expected the abort's 3"
    grep -q '^rank 1 pid [0-9]* aborts after 7 served calls$' "$log" \
        || fail "the calls before the abort were not all served by shmcico"
    rm -f "$log"
    expect_no_process abort
    expect_dir
}

# tmpfs_job OPTIONS REASON: a fresh tmpfs with OPTIONS on the backing
# directory in a private mount namespace; every communicator falls back
# with the message, results right
tmpfs_job() {
    local options=$1 reason=$2 log=$dir.log unshare=(unshare -m)
    [ "$(id -u)" = 0 ] || unshare=(unshare -r -m)
    # the tmpfs exists only in the namespace: list it there, after the job
    "${unshare[@]}" bash -c '
        mount -t tmpfs -o "$1" shmcico-test "$2" || exit 99
        dir=$2
        shift 2
        "$@"
        status=$?
        ls -A "$dir" >"$dir.left"
        exit $status' tmpfs_job "$options" "$dir" \
        "$MPIRUN" --oversubscribe -np 3 --mca coll_shmcico_backing_dir "$dir" \
        --mca coll_shmcico_verbose 1 mpi/test_fallback nosegment >"$log" 2>&1
    status=$?
    cat "$log"
    [ $status -ne 99 ] || fail "could not mount a tmpfs in a private namespace"
    [ $status -eq 0 ] || fail "job status $status"
    grep -q "no shared segment ($reason in $dir)" "$log" || fail "no message '$reason'"
    ! grep -q -i "bus error\|SIGBUS" "$log" || fail "bus error"
    [ -e "$dir.left" ] && [ ! -s "$dir.left" ] \
        || fail "left in the tmpfs: $(cat "$dir.left" 2>/dev/null)"
    rm -f "$log" "$dir.left"
}

case ${1:-} in
    hostile-names) hostile_names ;;
    die-in-setup) die_in_setup ;;
    kill-rank) kill_rank loop 2 ;;
    kill-in-single-copy) kill_rank copy-loop 0 ;;
    kill-on-a-node) LAYOUT=2x2 kill_rank loop 3 ;;
    trips-after-unlink) trips_after_unlink ;;
    abort) abort_in_bcast ;;
    full-backing) tmpfs_job size=64k "No space left on device" ;;
    readonly-backing) tmpfs_job ro,size=1m "Read-only file system" ;;
    *) echo "usage: faults.sh hostile-names|die-in-setup|kill-rank|kill-in-single-copy|"
            "kill-on-a-node|trips-after-unlink|abort|" \
            "full-backing|readonly-backing" >&2
       exit 2 ;;
esac
[ $failures -eq 0 ] && echo "$1: OK"
