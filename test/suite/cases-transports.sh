# shellcheck shell=bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Which transport serves a block: single copy and the queues at the
# crossovers, the slow-kernel floors, streaming stores, refused kernel
# copies, the datatype matrix by each transport alone, the cache probe;
# then the per-communicator hints and the processes' nearness.
# Functions only, as every file of suite/: run-suite.sh reads them all at
# its start and calls them; they use its helpers (run_case, mpi, fact,
# every_op) and its variables (suite, results, srcdir_abs, all_ops and
# the parameter lists).
# shellcheck disable=SC2154

# single copy from the crossovers, set and default
transport_cases() {
    for np in 2 3 4 5; do
        run_case "transport-np$np" 300 --expect 'single copy (cma|smsc)' \
            -- bash -c "mpi $np verbose 10 $crossovers_64k -- mpi/test_transport single"
    done
    # the default crossovers (what a user gets): below, at and above each
    # at np 5 the default Bcast goes through the queues at every size
    # (coll_shmcico_bcast_single_copy_max_procs 4), at np 9 Allgather(v)
    # too (coll_shmcico_allgather_single_copy_max_procs 8: a count of
    # processes, the same whatever the Open MPI, so a second Open MPI's
    # pass leaves np 9 out)
    local crossover_nps="2 4 5"
    [ "$suite" != default ] || crossover_nps="$crossover_nps 9"
    for np in $crossover_nps; do
        run_case "transport-default-crossovers-np$np" 300 --expect 'single copy (cma|smsc)' \
            -- bash -c "mpi $np verbose 10 -- mpi/test_transport single"
    done
}

# the slow-kernel floors, and the one verdict of a communicator
slow_kernel_cases() {
    # where the kernel's copy is slow (coll_shmcico_cache_probe_kernel_ratio
    # 1: every ratio measured is at least that), on up to 4 processes a
    # sender's block goes by single copy only from its operation's
    # slow-kernel floor, and its receivers follow; at np 5 no floor
    local slow_floors
    slow_floors="$(every_op slow_kernel_single_copy_min 131072) cache_probe_kernel_ratio 1"
    for np in 2 4 5; do
        run_case "transport-slow-kernel-np$np" 300 --expect "the kernel's copy is slow" \
            -- bash -c "mpi $np verbose 10 $crossovers_64k $slow_floors -- mpi/test_transport single"
    done
    # the default floors over the default crossovers (what a user gets
    # where the kernel's copy is slow), and with the ratio 0 none
    local default_floors=(env)
    for op in $all_ops; do
        default_floors+=(-u "OMPI_MCA_coll_shmcico_${op}_slow_kernel_single_copy_min")
    done
    for np in 2 3; do
        run_case "transport-slow-kernel-default-floors-np$np" 300 \
            --expect "the kernel's copy is slow" \
            -- "${default_floors[@]}" bash -c "mpi $np verbose 10 cache_probe_kernel_ratio 1 \
                                                   -- mpi/test_transport single"
    done
    run_case transport-kernel-ratio-0-no-floor-np2 300 --expect 'no slow-kernel floor' \
        --reject "the kernel's copy is slow" \
        -- "${default_floors[@]}" bash -c "mpi 2 verbose 10 cache_probe_kernel_ratio 0 \
                                               -- mpi/test_transport single"
    # one verdict per communicator, rank 0's parameters: the median of
    # the measures taken (here rank 0's alone: the others, with the ratio
    # 0, measure nothing) against rank 0's ratio, and rank 0's floors
    local env0="$srcdir_abs/rank-env.sh" not_0 floors_0=""
    for op in $all_ops; do
        floors_0="$floors_0 OMPI_MCA_coll_shmcico_${op}_slow_kernel_single_copy_min=0"
    done
    not_0=("$env0" 1 OMPI_MCA_coll_shmcico_cache_probe_kernel_ratio=0 --
           "$env0" 2 OMPI_MCA_coll_shmcico_cache_probe_kernel_ratio=0 --)
    run_case transport-slow-kernel-agreed-np3 300 \
        --expect "the median of 1 processes' measures.*the kernel's copy is slow" \
        --reject 'no slow-kernel floor' \
        -- bash -c "mpi 3 verbose 10 $crossovers_64k $slow_floors -- ${not_0[*]} mpi/test_transport single"
    run_case transport-slow-kernel-rank0-ratio-0-np3 300 --expect 'no slow-kernel floor' \
        --reject "the kernel's copy is slow" \
        -- bash -c "mpi 3 verbose 10 $crossovers_64k $slow_floors \
                        -- $env0 0 OMPI_MCA_coll_shmcico_cache_probe_kernel_ratio=0 \
                        -- mpi/test_transport single"
    run_case transport-slow-kernel-rank0-floors-np3 300 --expect "the kernel's copy is slow" \
        -- bash -c "mpi 3 verbose 10 $crossovers_64k $slow_floors \
                        -- $env0 1 $floors_0 -- $env0 2 $floors_0 -- mpi/test_transport single"
}

# single copy off, streaming stores, near processes, refused copies
store_cases() {
    run_case transport-single-copy-off-np3 300 \
        -- bash -c "mpi 3 single_copy off $crossovers_64k -- mpi/test_transport off"
    # streaming stores from another threshold, and none
    run_case transport-streaming-from-100-np3 300 \
        -- bash -c "mpi 3 streaming_min 100 $crossovers_64k -- mpi/test_transport single"
    # processes near one another: queued blocks below 1 MiB with
    # ordinary stores
    run_case transport-near-np3 300 \
        -- bash -c "mpi 3 nearness near $crossovers_64k -- mpi/test_transport single"
    # and the default crossovers, where coll_shmcico_near_single_copy_min
    # (256 KiB) raises them at up to 4 processes, not at 5
    for np in 2 4 5; do
        run_case "transport-near-default-crossovers-np$np" 300 \
            -- bash -c "mpi $np nearness near -- mpi/test_transport single"
    done
    run_case transport-no-streaming-np4 300 \
        -- bash -c "mpi 4 single_copy off streaming_min 0 $crossovers_64k -- mpi/test_transport off"
    # real refusal: processes without CAP_SYS_PTRACE (dropped from the
    # bounding set when running as root) that made themselves non-dumpable
    run_case transport-single-copy-refused-np3 300 \
        --expect 'single copy off: refused by the system' \
        -- $no_ptrace_cap "$MPIRUN" --oversubscribe -np 3 --mca btl_vader_single_copy_mechanism none \
           --mca coll_shmcico_verbose 10 $(printf -- '--mca coll_shmcico_%s %s ' $crossovers_64k) \
           mpi/test_transport refused
    # refused as a container's seccomp profile refuses it: every process
    # sees alone that its own kernel copy is refused, so its queues get
    # fragments of 32 KiB by default, and every block goes through them
    run_case transport-kernel-copy-refused-np3 300 \
        --expect 'single copy off: refused by the system' \
        --expect 'segment of [0-9]+ bytes \(s=8 f=32768 ' \
        -- bash -c "mpi 3 verbose 10 $crossovers_64k -- --mca btl_vader_single_copy_mechanism none \
                    mpi/no_kernel_copy mpi/test_transport refused"
    run_case stress-kernel-copy-refused-np4 600 \
        --expect 'segment of [0-9]+ bytes \(s=8 f=32768 ' \
        -- bash -c "mpi 4 verbose 10 -- --mca btl_vader_single_copy_mechanism none \
                    mpi/no_kernel_copy mpi/test_stress 2000 all"
}

# the datatype matrix by single copy alone, and by the queues alone
transport_matrix_cases() {
    # every block by single copy where the layout is worth it, and queues
    # only, over the datatype matrix (TC_TRANSPORT makes the tests check
    # each call's transport counters)
    for np in 2 3 5; do
        huge=$([ $np -le 3 ] || echo --no-huge)
        run_case "bcast-np$np-single-copy-everything" 600 \
            -- env TC_TRANSPORT=single bash -c "mpi $np $single_everything -- mpi/test_bcast $huge"
        for op in scatter scatterv gather gatherv allgather allgatherv; do
            run_case "$op-np$np-single-copy-everything" 600 \
                -- env TC_TRANSPORT=single bash -c "mpi $np $single_everything \
                                                    -- mpi/test_vector $op"
        done
    done
    run_case bcast-np5-queues-only 600 \
        -- env TC_TRANSPORT=queue bash -c "mpi 5 single_copy off -- mpi/test_bcast --no-huge"
    for np in 2 4; do
        for op in scatter scatterv gather gatherv allgather allgatherv; do
            run_case "$op-np$np-queues-only" 600 \
                -- env TC_TRANSPORT=queue bash -c "mpi $np single_copy off -- mpi/test_vector $op"
        done
    done
}

# the cache probe finding every block cold
probe_cold_cases() {
    # at np 3, Allgather(v) blocks are not probed (their probe max 0), at
    # the others up to the default 4 MiB
    for np in 2 3 4 5; do
        probe_allgather=
        [ $np = 3 ] && probe_allgather="allgather_cache_probe_max 0 \
                                        allgatherv_cache_probe_max 0"
        run_case "transport-cold-np$np" 300 \
            -- bash -c "mpi $np cache_probe 1 cache_probe_ns 1 $crossovers_64k \
                            $probe_allgather -- mpi/test_transport cold"
    done
    # Bcast's own probe off: from np 3 its blocks up to
    # coll_shmcico_bcast_readers_cache_probe_max are probed still (as
    # where the kernel's copy of cold data is fast), at np 2 none
    for np in 2 3; do
        run_case "transport-cold-bcast-readers-np$np" 300 \
            -- bash -c "mpi $np cache_probe 1 cache_probe_ns 1 bcast_cache_probe_max 0 \
                            $crossovers_64k -- mpi/test_transport cold"
    done
    # the probe's loads over every layout of the datatype matrix, every
    # block found cold: all through the queues, every byte right
    run_case bcast-np3-every-block-cold 600 \
        -- env TC_TRANSPORT=queue bash -c "mpi 3 cache_probe 1 cache_probe_ns 1 \
               $single_everything $probe_everything -- mpi/test_bcast --no-huge"
    for op in scatter scatterv gather gatherv allgatherv; do
        run_case "$op-np3-every-block-cold" 600 \
            -- env TC_TRANSPORT=queue bash -c "mpi 3 cache_probe 1 cache_probe_ns 1 \
                   $single_everything $probe_everything -- mpi/test_vector $op"
    done
}

# the cache probe calibrated, and on own blocks' destinations
probe_calibrated_cases() {
    # calibrated, as users run it: the choice varies, the data may not
    # (the test machine's flushed lines are slow: the calibration finds a
    # threshold, then times the kernel's copy of cold data)
    run_case bcast-np3-probe-calibrated 600 --expect 'cache probe: [0-9]+ ns cached' \
        --expect "times memcpy's \(0: not measured\): (single copy is faster|the flushed chain)" \
        -- bash -c "mpi 3 verbose 10 cache_probe 1 $single_everything $probe_everything \
                        -- mpi/test_bcast --no-huge"
    # with the kernel's ratio ignored the calibrated threshold is the
    # flushed chain (where flushed lines are slow, as here)
    run_case probe-kernel-ratio-ignored 120 \
        --expect "copy of cold data 0\.00 times memcpy's \(0: not measured\): the flushed chain" \
        --reject 'single copy is faster from memory' \
        -- bash -c "mpi 2 verbose 10 cache_probe 1 cache_probe_kernel_ratio 0 -- mpi/test_stress 100"
    # where the kernel's copy of cold data is fast (here: a ratio no
    # kernel reaches), blocks sent are not probed but a Bcast's of 3 or
    # more processes, whose readers pin its pages at once
    run_case readers-probe-kernel-fast-np3 600 \
        --expect "single copy is faster from memory, no probe of blocks sent but a Bcast's of 3 or more processes" \
        -- bash -c "mpi 3 verbose 10 cache_probe 1 cache_probe_kernel_ratio 100000 $single_everything \
                        -- mpi/test_bcast --no-huge"
    run_case allgatherv-np3-probe-calibrated 600 --expect 'cache probe: [0-9]+ ns cached' \
        -- bash -c "mpi 3 verbose 10 cache_probe 1 $single_everything $probe_everything \
                        -- mpi/test_vector allgatherv"

    # own blocks of 1 MiB with streaming stores where the probe finds
    # their destination cold (every probe cold, or none)
    run_case own-probe-cold-np3 120 \
        -- mpi 3 cache_probe 1 cache_probe_ns 1 -- mpi/test_hints own-probe cold
    run_case own-probe-warm-np3 120 \
        -- mpi 3 cache_probe 1 cache_probe_ns 1000000000000 -- mpi/test_hints own-probe warm
}

# the per-communicator hints, and the processes' nearness
hints_cases() {
    # the cache probe off: an own block of a byte under
    # allgather_own_streaming_min must not go with streaming stores,
    # which the probe does where it finds the destination cold (as it
    # may on this machine: the own-probe cases above test that)
    for np in 2 5; do
        run_case "hints-np$np" 300 --expect 'segment of [0-9]+ bytes \(s=8 f=8192 w=2, tree chain/4\)' \
            --expect 'hint shmcico_tree=kary ignored \(the communicator.s segment is made already\); in effect: chain' \
            --expect 'hint shmcico_max_bytes=bcast:lots ignored \(not a valid value\)' \
            -- mpi $np verbose 10 cache_probe 0 -- mpi/test_hints
    done

    # a communicator made disabled by its hints gets no segment, even
    # where segments are made when communicators are
    run_case hints-disable-eager-np2 120 \
        --expect 'made at first use \(the shmcico_disable hint' \
        -- mpi 2 lazy 0 verbose 10 -- mpi/test_hints disable

    # nearness: measured at np 2 (near or far, whichever the machine is
    # in; the test checks that the streamed bytes follow the answer), not
    # measured where processes outnumber cores (far), told by hints
    run_case nearness-measured-np2 120 \
        --expect 'processes (near|far) \((a line.s trip [0-9]+ ns, a load from memory [0-9]+ ns|a trip timed out)\)' \
        --expect 'processes near \(as set\): streaming stores from 1048576 bytes' \
        --expect 'processes far \(as set\): streaming stores from 4096 bytes' \
        -- bash -c "unset OMPI_MCA_coll_shmcico_nearness; mpi 2 verbose 10 -- mpi/test_hints nearness"
    # a kept segment's setup times the trips again: as many timed answers
    # as segments, kept ones among them (messages counted, not lines:
    # mpirun's forwarding can put two processes' messages on one line)
    run_case nearness-kept-segments-np2 300 --expect 'kept segment of' \
        -- bash -c "unset OMPI_MCA_coll_shmcico_nearness; mpi 2 verbose 10 -- mpi/test_keep keep 2>&1 \
                    | tee /dev/stderr | awk '{ s += gsub(/ (kept|new) segment of /, \"&\")
                          t += gsub(/ processes (near|far) .(a line.s trip|a trip timed out)/, \"&\") }
                        END { print s, \"segments,\", t, \"timed\"; exit !(s > 0 && s == t) }'"
    crowded=$(( $(nproc) + 1 ))
    [ "$crowded" -le 64 ] || crowded=64
    run_case nearness-crowded 120 \
        --expect 'processes far \(not measured\): streaming stores from 4096 bytes' \
        -- bash -c "unset OMPI_MCA_coll_shmcico_nearness; mpi $crowded verbose 10 -- mpi/test_hints nearness"
    # watched during the run: under a threshold of 1 ns every process
    # turns far, under 1 s near, whatever the setup found; where nothing
    # was timed (crowded), or the watch is off, nothing is watched
    run_case nearness-watched-far-np2 120 \
        -- bash -c "unset OMPI_MCA_coll_shmcico_nearness; mpi 2 nearness_watch_ns 1 -- mpi/test_hints watch far"
    run_case nearness-watched-near-np2 120 \
        -- bash -c "unset OMPI_MCA_coll_shmcico_nearness; mpi 2 nearness_watch_ns 1000000000 -- mpi/test_hints watch near"
    run_case nearness-watched-crowded 120 \
        -- bash -c "unset OMPI_MCA_coll_shmcico_nearness; mpi $crowded nearness_watch_ns 1 -- mpi/test_hints watch none"
    run_case nearness-not-watched-np2 120 \
        -- bash -c "unset OMPI_MCA_coll_shmcico_nearness; mpi 2 nearness_watch false nearness_watch_ns 1 -- mpi/test_hints watch none"

    # a k-nomial tree by hint where coll_shmcico_tree_degree is 1: degree
    # 2, served; the degree in effect is no hint to refuse
    run_case hints-knomial-degree-1 120 --expect 'tree knomial/2\)' --expect 'tree kary/1\)' \
        --reject 'ignored' \
        -- mpi 3 tree_degree 1 verbose 10 -- mpi/test_hints knomial
}
