# shellcheck shell=bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The first cases of the suite: the unit tests of the engine (no MPI),
# then the component's loading and its parameters.
# Functions only, as every file of suite/: run-suite.sh reads them all at
# its start and calls them; they use its helpers (run_case, mpi, fact,
# every_op) and its variables (suite, results, srcdir_abs, all_ops and
# the parameter lists).
# shellcheck disable=SC2154

# the unit tests of the engine, and their ThreadSanitizer builds
unit_cases() {
    run_case unit-tree 300 -- unit/test_tree
    run_case unit-layout 60 -- unit/test_layout
    run_case unit-engine-bcast 300 -- unit/test_engine_bcast
    run_case unit-engine-vector 300 -- unit/test_engine_vector
    run_case unit-engine-small 300 -- unit/test_engine_small
    run_case unit-residency 60 -- unit/test_residency
    run_case unit-single 60 -- unit/test_single
    run_case unit-claims 60 -- unit/test_claims
    run_case unit-streaming 60 -- unit/test_streaming
    run_case unit-nearness 60 -- unit/test_nearness
    if [ -x unit/tsan_engine_bcast ] && [ -z "${SANITIZER_PRELOAD:-}" ]; then
        run_case unit-engine-bcast-tsan 600 -- unit/tsan_engine_bcast
        run_case unit-engine-vector-tsan 600 -- unit/tsan_engine_vector
        run_case unit-engine-small-tsan 600 -- unit/tsan_engine_small
        run_case unit-claims-tsan 120 -- unit/tsan_claims
        run_case unit-nearness-tsan 120 -- unit/tsan_nearness
    else
        echo "skipped: ThreadSanitizer builds of the engine tests (compiler without it, or another sanitizer)"
    fi
    run_case unit-shm 60 -- unit/test_shm
    run_case unit-bench-judge 60 -- unit/test_bench_judge
}

# the DSO's exports, and every parameter as ompi_info shows it
loading_cases() {
    # nothing of the DSO's but its component structure can clash with
    # another library's symbols (built with -fvisibility=hidden; an
    # AddressSanitizer build adds __odr_asan.NAME beside an exported NAME)
    run_case dso-exports-the-component-alone 30 --expect '^1 mca_coll_shmcico_component$' \
        -- bash -c "nm -D --defined-only '$COMPONENT_DIR/mca_coll_shmcico.so' |
                    awk '\$3 !~ /^__odr_asan\\./ { n++; name = \$3 }
                         END { print n, name; exit n != 1 }' &&
                    echo 'exports: OK'"
    run_case ompi-info-parameters 60 \
        --expect 'coll_shmcico_priority" \(current value: "40"' \
        --expect 'coll_shmcico_slots" \(current value: "8"' \
        --expect 'coll_shmcico_fragment_size" \(current value: "8192"' \
        --expect 'coll_shmcico_banks" \(current value: "2"' \
        --expect 'coll_shmcico_tree" ' --expect 'coll_shmcico_tree_degree"' \
        --expect 'coll_shmcico_numa"' \
        --expect 'coll_shmcico_bcast_max_bytes" \(current value: "0", data source: environment' \
        --expect 'coll_shmcico_single_copy" \(current value: "auto"' \
        --expect 'coll_shmcico_single_copy_chunk"' \
        --expect 'coll_shmcico_bcast_single_copy_min" \(current value: "10240", data source: default' \
        --expect 'coll_shmcico_scatter_single_copy_min" \(current value: "8192", data source: default' \
        --expect 'coll_shmcico_scatterv_single_copy_min" \(current value: "8192", data source: default' \
        --expect 'coll_shmcico_gather_single_copy_min" \(current value: "16384", data source: default' \
        --expect 'coll_shmcico_gatherv_single_copy_min" \(current value: "16384", data source: default' \
        --expect 'coll_shmcico_allgather_single_copy_min" \(current value: "12288", data source: default' \
        --expect 'coll_shmcico_streaming_min" \(current value: "4096", data source: default' \
        --expect 'coll_shmcico_gather_own_streaming_min" \(current value: "8388608", data source: default' \
        --expect 'coll_shmcico_allgather_own_streaming_min" \(current value: "8388608", data source: default' \
        --expect 'coll_shmcico_gather_streamed_bytes"' \
        --expect 'coll_shmcico_allgatherv_single_copy_min" \(current value: "12288", data source: default' \
        --expect 'coll_shmcico_bcast_single_copy_max_procs" \(current value: "4", data source: default' \
        --expect 'coll_shmcico_gather_single_copy_max_procs" \(current value: "0", data source: default' \
        --expect 'coll_shmcico_allgather_single_copy_max_procs" \(current value: "8", data source: default' \
        --expect 'coll_shmcico_allgatherv_single_copy_max_procs" \(current value: "8", data source: default' \
        --expect 'coll_shmcico_cache_probe" \(current value: "false", data source: environment' \
        --expect 'coll_shmcico_cache_probe_ns" \(current value: "0"' \
        --expect 'coll_shmcico_bcast_cache_probe_max" \(current value: "8388608"' \
        --expect 'coll_shmcico_max_procs"' \
        --expect 'coll_shmcico_backing_dir" \(current value: "' \
        --expect 'coll_shmcico_lazy"' --expect 'coll_shmcico_verbose"' \
        --expect 'coll_shmcico_keep_segments" \(current value: "4", data source: default' \
        --expect 'coll_shmcico_segments_reused"' \
        -- bash -c "'$OMPI_INFO' --param coll shmcico --level 9 && echo 'ompi_info: OK'"
}

# defaults, selection, refused builds, invalid values corrected
parameter_cases() {
    run_case no-size-limits-by-default 60 \
        --expect 'coll_shmcico_bcast_max_bytes" \(current value: "0", data source: default' \
        --expect 'coll_shmcico_gatherv_max_bytes" \(current value: "0", data source: default' \
        --expect 'coll_shmcico_allgather_max_bytes" \(current value: "0", data source: default' \
        -- env -u OMPI_MCA_coll_shmcico_bcast_max_bytes -u OMPI_MCA_coll_shmcico_gatherv_max_bytes \
           -u OMPI_MCA_coll_shmcico_allgather_max_bytes \
           bash -c "'$OMPI_INFO' --param coll shmcico --level 9 && echo 'ompi_info: OK'"
    run_case cache-probe-on-by-default 60 \
        --expect 'coll_shmcico_cache_probe" \(current value: "true", data source: default' \
        --expect 'coll_shmcico_gather_cache_probe_max" \(current value: "262144", data source: default' \
        --expect 'coll_shmcico_allgatherv_cache_probe_max" \(current value: "2097152", data source: default' \
        -- env -u OMPI_MCA_coll_shmcico_cache_probe \
           bash -c "'$OMPI_INFO' --param coll shmcico --level 9 && echo 'ompi_info: OK'"
    run_case nearness-measured-by-default 60 \
        --expect 'coll_shmcico_nearness" \(current value: "auto", data source: default' \
        --expect 'coll_shmcico_near_streaming_min" \(current value: "1048576", data source: default' \
        -- env -u OMPI_MCA_coll_shmcico_nearness \
           bash -c "'$OMPI_INFO' --param coll shmcico --level 9 && echo 'ompi_info: OK'"
    run_case selected-by-priority 120 -- mpi 2 -- mpi/test_plain used
    run_case selected-by-name 120 -- mpi 2 -- --mca coll shmcico,tuned,basic,self,libnbc mpi/test_plain used
    run_case disabled-by-priority 120 -- mpi 2 priority -1 -- mpi/test_plain unused
    run_case abi-mismatch-refused 120 \
        --expect 'built for Open MPI [0-9]+\.99 but runs in "Open MPI v[0-9]+\.[0-9]' \
        -- env OMPI_MCA_mca_base_component_path="$OMPI_PKGLIBDIR:$ABI_COMPONENT_DIR" \
           "$MPIRUN" --oversubscribe -np 2 mpi/test_plain absent
    # the same series, objects laid out as by --enable-debug: without the
    # check the DSO loaded and the job died of SIGABRT
    run_case abi-layout-refused 120 \
        --expect 'laid out otherwise than those of the running Open MPI \(opal_object_t: [0-9]+ bytes when built, [0-9]+ here' \
        -- env OMPI_MCA_mca_base_component_path="$OMPI_PKGLIBDIR:$ABI_LAYOUT_COMPONENT_DIR" \
           "$MPIRUN" --oversubscribe -np 2 mpi/test_plain absent
    run_case invalid-parameters-corrected 120 \
        --expect 'invalid coll_shmcico_slots \(not a multiple of banks\) 7, using 8' \
        --expect 'invalid coll_shmcico_fragment_size 100, using 128' \
        --expect 'invalid coll_shmcico_tree_degree 0, using 4' \
        -- mpi 3 slots 7 banks 2 fragment_size 100 tree_degree 0 -- mpi/test_stress 500
    # a relative directory: /dev/shm instead, every call served, and
    # MPI_Finalize clean (it aborted in free() before); slots past the
    # cap (their rounding overflowed an int before), and rounded to a
    # multiple of banks within it (65541 before)
    run_case invalid-dir-and-slots-corrected 120 \
        --expect 'coll_shmcico_backing_dir must be an absolute path, using /dev/shm' \
        --expect 'invalid coll_shmcico_slots 2147483647, using 65536' \
        --expect 'invalid coll_shmcico_slots \(not a multiple of banks\) 65536, using 65534' \
        -- mpi 2 backing_dir shm slots 2147483647 banks 7 fragment_size 128 -- mpi/test_plain used
}
