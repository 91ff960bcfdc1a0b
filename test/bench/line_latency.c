/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * line-latency: the floor under every small collective on this machine.
 * Two processes (parent and forked child, on CPUs 0 and 1 when it can
 * pin them) ping-pong one word in two cache lines of shared memory; half
 * the round trip is the time one cache line takes from one core to the
 * other.  A shared-memory Bcast of 8 bytes at np 2 cannot take less: the
 * root's flag must reach the reader.  No MPI.
 *
 * Usage: line-latency [ROUND_TRIPS (default 200000)] [REPEATS (default 5)]
 * Prints the one-way time of each repeat in microseconds.
 */

#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "host.h"

/* one repeat: n round trips from base + 1 on; returns the one-way time */
static double repeat(line_t *ping, line_t *pong, uint64_t base, uint64_t n)
{
    double t0 = now();

    for (uint64_t i = base + 1; i <= base + n; ++i) {
        line_post(ping, i);
        line_wait(pong, i);
    }
    return (now() - t0) / (double) n / 2;
}

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 200000;
    int repeats = argc > 2 ? atoi(argv[2]) : 5;
    line_t *lines = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                         -1, 0);
    pid_t child;

    if (MAP_FAILED == lines || 0 == n || repeats < 1) {
        fprintf(stderr, "usage: line-latency [ROUND_TRIPS] [REPEATS]\n");
        return 1;
    }
    child = fork();
    if (0 == child) {
        pin(1);
        for (uint64_t i = 1; i <= n * (uint64_t) repeats; ++i) {
            line_wait(&lines[0], i);
            line_post(&lines[1], i);
        }
        _exit(0);
    }
    pin(0);
    for (int r = 0; r < repeats; ++r) {
        printf("one-way %.3f us\n", 1e6 * repeat(&lines[0], &lines[1], (uint64_t) r * n, n));
    }
    waitpid(child, NULL, 0);
    return 0;
}
