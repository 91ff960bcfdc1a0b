# shellcheck shell=bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The collectives over the tests' datatype matrix: Bcast (every tree and
# queue geometry), Scatter(v), Gather(v), Allgather(v), their stress and a
# short soak; then the benchmark's own checks.
# Functions only, as every file of suite/: run-suite.sh reads them all at
# its start and calls them; they use its helpers (run_case, mpi, fact,
# every_op) and its variables (suite, results, srcdir_abs, all_ops and
# the parameter lists).
# shellcheck disable=SC2154

# Bcast: every tree shape and queue geometry, stress
bcast_cases() {
    run_case bcast-np2 300 -- mpi 2 -- mpi/test_bcast
    for np in 3 4; do
        run_case "bcast-np$np-numa" 600 -- mpi $np tree numa -- mpi/test_bcast
    done
    # The other tree shapes and queue geometries exercise the engine, the
    # same MPI-free code whatever the Open MPI: the first pass runs them,
    # a second Open MPI's pass (suite "mpi") leaves them out.
    if [ "$suite" = default ]; then
        for np in 3 4; do
            for tree in kary knomial flat chain; do
                run_case "bcast-np$np-$tree" 600 -- mpi $np tree $tree -- mpi/test_bcast
            done
        done
        # deeper trees: the two shapes that forward most, and a binary
        # tree, with single copy on every communicator size (by default
        # a Bcast of more than 4 processes goes through the queues), so
        # that single copies are relayed down three levels or more
        for tree in kary chain; do
            run_case "bcast-np7-$tree" 600 \
                -- mpi 7 tree $tree bcast_single_copy_max_procs 0 -- mpi/test_bcast
        done
        run_case bcast-np5-binary 600 \
            -- mpi 5 tree kary tree_degree 2 bcast_single_copy_max_procs 0 -- mpi/test_bcast
        run_case bcast-np4-s4-w2-f4096 600 -- mpi 4 slots 4 banks 2 fragment_size 4096 -- \
            mpi/test_bcast
        run_case bcast-np3-s12-w3-f12288 600 -- mpi 3 slots 12 banks 3 fragment_size 12288 -- \
            mpi/test_bcast
        # one slot of 64 bytes, every block through it (single copy off),
        # three readers releasing it; the large case 1024 fragments (1 MiB
        # + 13 bytes took 56 s, each fragment a wrap of the slot)
        run_case bcast-np4-s1-w1-f64 600 -- mpi 4 single_copy off slots 1 banks 1 fragment_size 64 -- \
            mpi/test_bcast --no-huge --big-fragments 1024
    fi
    run_case bcast-np3-eager 300 -- mpi 3 lazy 0 -- mpi/test_bcast
    for np in 2 4 7; do
        run_case "bcast-stress-np$np" 600 -- mpi $np -- mpi/test_stress 3000 bcast
    done
}

# Scatter(v), Gather(v), Allgather(v), every operation at once, the soak
vector_cases() {
    for op in scatter scatterv gather gatherv allgather allgatherv; do
        for np in 2 3 4 7; do
            run_case "$op-np$np" 600 -- mpi $np -- mpi/test_vector $op
        done
    done
    if [ "$suite" = default ]; then           # the engine again (see Bcast)
        for op in scatterv gatherv allgatherv; do
            run_case "$op-np4-s4-w2-f4096" 600 -- mpi 4 slots 4 banks 2 fragment_size 4096 -- \
                mpi/test_vector $op
        done
    fi
    for np in 2 4 7; do
        run_case "stress-all-ops-np$np" 600 -- mpi $np -- mpi/test_stress 5000 all
    done
    run_case soak-np3-20s 300 --expect ', 0 errors$' -- mpi 3 -- mpi/test_soak 20
    # the same mix with every block of one byte or more by single copy
    # (where the process's layout is worth it)
    run_case soak-np3-20s-single-copy 300 --expect ', 0 errors$' \
        --expect 'at rank 0 [1-9][0-9]* with single copy' \
        -- bash -c "mpi 3 $single_everything -- mpi/test_soak 20"
}

# the benchmark: its self-timing, its tables, its budgets
bench_cases() {
    run_case bench-self-timing 300 -- bash -c \
        "mpi 2 -- bench/shmcico-bench --ops null,waitup --wait-ns 20000 \
             --components shmcico,tuned --max-seconds 2 --quiet --csv results/self.csv \
         && '$srcdir_abs'/bench/check-self-timing.sh results/self.csv 2 20000"
    # every shmcico row served in full, and no data check failed (the
    # benchmark says so but exits 0)
    run_case bench-side-by-side 300 --expect 'shmcico: served ([0-9]+)/\1' \
        --expect 'shmcico/tuned' --reject 'CHECK FAILED' \
        --reject 'served [0-9]+/[0-9]+ only|\(served 0/|served n/a' \
        -- bash -c "mpi 2 cache_probe 1 -- bench/shmcico-bench --ops bcast,allgatherv --sizes 8,65536 \
                        --components shmcico,tuned --max-seconds 0.5 --quiet \
                    && echo 'bench: OK'"
    # a cold pool is made anew for every size: that must not use up a
    # point's time, which counts its timed stages only
    run_case bench-cold-every-point 300 --expect 'shmcico/tuned' \
        --reject 'no valid launch' --reject 'CHECK FAILED' \
        --reject 'served [0-9]+/[0-9]+ only|\(served 0/|served n/a' \
        -- bash -c "mpi 2 cache_probe 1 -- bench/shmcico-bench --ops bcast,scatter,gatherv \
                        --sizes 8,4K,64K,256K,1M --components shmcico,tuned --cache cold \
                        --max-seconds 0.1 --quiet && echo 'bench: OK'"
    # a budget shorter than a point's warm-up stage still measures it
    run_case bench-short-budget 300 --expect 'shmcico/tuned' --reject 'no valid launch' \
        --reject 'CHECK FAILED' --reject 'served [0-9]+/[0-9]+ only|\(served 0/|served n/a' \
        -- bash -c "mpi 2 -- bench/shmcico-bench --ops bcast,allgather --sizes 8,4M \
                        --components shmcico,tuned --cache warm --max-seconds 0.000001 \
                        --quiet && echo 'bench: OK'"
    # a point that kept no launch says why (here every launch starts
    # late), in the table and in the CSV's last three columns
    run_case bench-why-no-valid-launch 120 \
        --expect 'no valid launch .*\(last try: [1-9][0-9]* stages after the warm-up, late starts [1-9][0-9]*/[1-9][0-9]*, overruns 0/0\)' \
        -- bash -c "mpi 2 -- bench/shmcico-bench --ops bcast --sizes 8 --components shmcico,tuned \
                        --late-ns 0 --late-pct 0 --max-seconds 0.01 --quiet --csv results/why.csv \
                    && head -n 1 results/why.csv | grep -q ',valid,.*,stages,late,overran\$' \
                    && awk -F, 'NR > 1 && (\$11 != 0 || \$19 == 0 || \$20 != 0) { bad = 1 }
                                END { exit bad || NR != 3 }' results/why.csv \
                    && echo 'bench: OK'"
}
