#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The benchmark measures patterns of known duration right: the null
# pattern (every process returns at once) comes out near 0, and waitup
# (process r waits (r+1)*D) near P*D.  Usage, as an MPI job:
#   check-self-timing.sh CSV-FROM-shmcico-bench P D_NS
# Prints "self-timing: OK" when every row is within tolerance.

set -u
csv=$1 np=$2 d_ns=$3

awk -F, -v np="$np" -v d="$d_ns" '
    NR == 1 { next }
    $1 == "null"   { n++; if ($4 > 1.0) { bad++; print "null: " $4 " us, expected < 1 us" } }
    $1 == "waitup" { w++; want = np * d / 1000.0
                     if ($4 < 0.9 * want || $4 > 1.1 * want) {
                         bad++; print "waitup: " $4 " us, expected " want " us +- 10%" } }
    END {
        if (n == 0 || w == 0) { print "no null or waitup rows"; exit 1 }
        if (bad) exit 1
        print "self-timing: OK (null and waitup within tolerance)"
    }' "$csv"
