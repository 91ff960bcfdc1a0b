#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# README's two commands on a fresh Debian 12 machine, as root: a minimal
# Debian 12 root (debootstrap --variant=minbase bookworm: no compiler, no
# Open MPI, no python3, no git) with this tree's files (those git knows,
# committed or not, as a clone has them) in /root/coll-shmcico, where
# test/run-bench.sh and then test/run-tests.sh run as README says, in the
# namespace of test/debian13-root.sh ("run-in": /proc, /sys, /dev, fresh
# tmpfs on /dev/shm and /tmp, the host's /etc/hosts and resolv.conf, an
# empty environment).
#
#   test/fresh-debian12.sh [both|bench|tests]
#
# Environment: FRESH_ROOT, the root (default /var/tmp/coll-shmcico-fresh12;
# made anew on each run, removed after it unless KEEP=1); MIRROR, the
# Debian mirror (default http://deb.debian.org/debian).  Each command's
# output goes to FRESH_ROOT.bench.log and FRESH_ROOT.tests.log, the
# benchmark's table to FRESH_ROOT.table.txt.  The exit status is 0 when
# every command run exited 0.  Not part of the suite (it runs the suite):
# about 25 minutes on 2 cores, most of it the suite, which also makes its
# Debian 13 root and builds MPICH's tests inside this root.

set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
root=${FRESH_ROOT:-/var/tmp/coll-shmcico-fresh12}
mirror=${MIRROR:-http://deb.debian.org/debian}
what=${1:-both}

log() { echo "fresh-debian12: $*"; }
die() { echo "fresh-debian12: $*" >&2; exit 1; }

case $what in
    both|bench|tests) ;;
    *) echo "usage: fresh-debian12.sh [both|bench|tests]" >&2; exit 2 ;;
esac
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot)"
case $root in
    /?*) root=${root%/} ;;
    *) die "FRESH_ROOT must be an absolute path other than /" ;;
esac

# only a root this script made (its mark inside) is removed, and only
# with nothing mounted in it
mark=.coll-shmcico-fresh-debian12
remove_root() {
    [ -e "$root/$mark" ] || die "$root was not made by this script; not removed"
    if grep -qE " $root(/| )" /proc/self/mounts; then
        die "$root still has mounts; not removed"
    fi
    rm -rf --one-file-system "$root"
}

make_root() {
    if ! command -v debootstrap >/dev/null; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
            debootstrap >/dev/null
    fi
    [ ! -e "$root" ] || remove_root
    mkdir -p "$root"
    touch "$root/$mark"
    log "debootstrap --variant=minbase bookworm from $mirror into $root"
    debootstrap --variant=minbase --components=main bookworm "$root" "$mirror" \
        >"$root.debootstrap.log" 2>&1 \
        || { tail -n 20 "$root.debootstrap.log"; die "debootstrap failed"; }
    mkdir -p "$root/root/coll-shmcico"
    (cd "$top" && git ls-files -co --exclude-standard | tar cf - -T -) \
        | tar xf - -C "$root/root/coll-shmcico"
}

# run_readme NAME: test/run-NAME.sh in the root, as README gives it
run_readme() {
    local name=$1 start=$SECONDS rc=0
    log "test/run-$name.sh in the root (output: $root.$name.log)"
    "$here/debian13-root.sh" run-in "$root" -- \
        bash -c "cd /root/coll-shmcico && test/run-$name.sh" >"$root.$name.log" 2>&1 || rc=$?
    log "test/run-$name.sh: exit $rc after $((SECONDS - start)) s; last line:" \
        "$(tail -n 1 "$root.$name.log")"
    return $rc
}

make_root
status=0
if [ "$what" != tests ]; then
    run_readme bench || status=1
    cp "$root/root/coll-shmcico/bench-results/table.txt" "$root.table.txt" 2>/dev/null || true
fi
if [ "$what" != bench ]; then
    run_readme tests || status=1
fi
[ "${KEEP:-0}" = 1 ] || remove_root
exit $status
