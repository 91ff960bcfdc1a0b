#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# A Debian 13 (trixie) root with Debian's own packaged Open MPI 5.0, so
# that coll/shmcico is built and tested for the 5.0 series on a Debian 12
# machine without building Open MPI:
#
#   test/debian13-root.sh [make]      make the root, or say that it is there
#   test/debian13-root.sh run [--bind DIR]... -- COMMAND [ARGS...]
#                                     run COMMAND as root inside it
#   test/debian13-root.sh path        print where it is
#   test/debian13-root.sh run-in DIR [--bind DIR]... -- COMMAND [ARGS...]
#                                     the same in another root, made
#                                     elsewhere (test/fresh-debian12.sh)
#
# "make" runs debootstrap (installed with apt-get when missing) from the
# Debian mirror the host's apt uses (http://deb.debian.org/debian when
# none is found), installs trixie's libopenmpi-dev, openmpi-bin,
# libpmix-dev, libhwloc-dev, libnuma-dev and the build tools into it, and
# unpacks the source package of the same Open MPI version into
# /usr/src/openmpi-VERSION: Debian's libopenmpi-dev leaves out internal
# headers that its own headers include, which coll/shmcico's configure
# takes from there.  The root is kept in $SHMCICO_TRIXIE_ROOT (default
# /var/cache/coll-shmcico/trixie-root) with a stamp file that records what
# was done; when the stamp matches, "make" does nothing.  Needs root.
#
# "run" works in a mount namespace of its own (nothing it mounts is seen
# outside it, and it all goes away with its last process, also when it is
# killed): the root is bind-mounted onto itself (so that its / is a mount
# point and commands in it may make mount namespaces of their own, as the
# backing-store fault tests do), /proc, /sys, /dev and /dev/pts are
# mounted in it, a fresh tmpfs on /dev/shm and /tmp, and each --bind DIR
# (a directory of the host) at the same path, and the host's
# /etc/resolv.conf and /etc/hosts are copied in; everything is unmounted
# again when COMMAND ends.  The exit status is COMMAND's.

set -eu
self=$(readlink -f "$0")
root=${SHMCICO_TRIXIE_ROOT:-/var/cache/coll-shmcico/trixie-root}
suite=trixie
stamp_name=.coll-shmcico-root
# what the root holds (procps: the fault tests look for processes left
# with pgrep; iproute2: the simulated nodes' network, test/nodes.sh); a
# change of this list (or of the recipe number, for a change of how the
# root is made) makes "make" start again
packages="libopenmpi-dev openmpi-bin libpmix-dev libhwloc-dev libnuma-dev
          build-essential autoconf automake libtool procps iproute2"
recipe=1

log() { echo "debian13-root: $*"; }
die() { echo "debian13-root: $*" >&2; exit 1; }

# The Debian mirror of the host's apt sources: the first URI of a "deb"
# entry for a Debian suite that is not the security archive.
host_mirror() {
    local f uri
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -r "$f" ] || continue
        uri=$(awk '$1 == "deb" {
                       i = 2; if ($i ~ /^\[/) while ($i !~ /\]$/) i++;
                       if ($i ~ /^\[/ || $i ~ /\]$/) i++;
                       if ($(i) ~ /^https?:\/\// && $(i) !~ /security/ \
                           && $(i + 1) ~ /^(bookworm|trixie|stable|testing|sid|unstable|oldstable)$/) {
                           print $(i); exit } }' "$f")
        [ -n "$uri" ] && { echo "${uri%/}"; return; }
    done
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -r "$f" ] || continue
        # deb822: stanzas separated by blank lines
        uri=$(awk 'BEGIN { RS = ""; FS = "\n" }
                   { types = uris = suites = ""
                     for (n = 1; n <= NF; n++) {
                         if ($n ~ /^Types:/) types = $n
                         if ($n ~ /^URIs:/) uris = $n
                         if ($n ~ /^Suites:/) suites = $n
                         if ($n ~ /^Enabled: *no/) types = ""
                     }
                     if (types ~ /[ \t]deb([ \t]|$)/ && suites ~ /[ \t](bookworm|trixie|stable|testing|sid|unstable|oldstable)([ \t]|$)/) {
                         split(uris, u, /[ \t]+/)
                         for (k = 2; k in u; k++)
                             if (u[k] ~ /^https?:\/\// && u[k] !~ /security/) { print u[k]; exit }
                     } }' "$f")
        [ -n "$uri" ] && { echo "${uri%/}"; return; }
    done
    echo http://deb.debian.org/debian
}

# the stamp file's content for the root as it should be
wanted_stamp() {
    echo "recipe $recipe"
    echo "suite $suite"
    echo "packages" $packages
}

stamp_matches() {
    [ -f "$root/$stamp_name" ] \
        && [ "$(sed -n '1,3p' "$root/$stamp_name")" = "$(wanted_stamp)" ]
}

# in_namespace DIR COMMAND...: COMMAND chrooted into DIR, with the mounts
# described at the top, in a mount namespace of its own
in_namespace() {
    unshare --mount --propagation private -- "$self" __inside "$@"
}

# (inside the namespace) __inside DIR [--bind D]... -- COMMAND...
inside() {
    local dir=$1 binds=() d status
    shift
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        case $1 in
            --bind) binds+=("$(cd "$2" && pwd)"); shift 2 ;;
            *) die "run: unknown option $1" ;;
        esac
    done
    [ "${1:-}" = -- ] && shift
    [ $# -gt 0 ] || die "run: no command"
    # unmounted by the namespace's end in any case; this is for a clean
    # exit while other processes might still hold the namespace
    trap 'umount -R -l "$dir" 2>/dev/null || true' EXIT
    mount --bind "$dir" "$dir"
    mount -t proc proc "$dir/proc"
    mount --rbind /sys "$dir/sys"
    mount --bind /dev "$dir/dev"
    mkdir -p "$dir/dev/pts" "$dir/dev/shm"
    mount --bind /dev/pts "$dir/dev/pts"
    mount -t tmpfs -o mode=1777,nosuid,nodev shm "$dir/dev/shm"
    mount -t tmpfs -o mode=1777,nosuid,nodev tmp "$dir/tmp"
    for d in "${binds[@]+"${binds[@]}"}"; do
        mkdir -p "$dir$d"
        mount --bind "$d" "$dir$d"
    done
    # the host's names: debootstrap leaves the root without /etc/hosts,
    # which the simulated nodes' launcher (test/nodes.sh) copies and
    # binds over with their names
    cp /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true
    cp /etc/hosts "$dir/etc/hosts" 2>/dev/null || true
    status=0
    chroot "$dir" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root TERM="${TERM:-dumb}" LANG=C.UTF-8 "$@" || status=$?
    exit $status
}

make_root() {
    local new=$root.new mirror start=$SECONDS version srcversion
    [ "$(id -u)" = 0 ] || die "making the root needs root"
    if stamp_matches; then
        log "Debian 13 root ready in $root ($(grep '^openmpi ' "$root/$stamp_name" | cut -d' ' -f2-))"
        return
    fi
    if ! command -v debootstrap >/dev/null; then
        log "installing debootstrap"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap \
            >/dev/null 2>&1 \
            || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive \
                     apt-get install -y -q --no-install-recommends debootstrap >/dev/null; }
    fi
    mirror=$(host_mirror)
    # a partial root of an earlier run that was stopped; never through
    # a mount left in it
    [ ! -e "$new" ] || rm -rf --one-file-system "$new"
    mkdir -p "$(dirname "$root")"
    log "debootstrap $suite from $mirror into $new"
    debootstrap --variant=minbase --components=main \
        $(case $mirror in https:*) echo --include=ca-certificates ;; esac) \
        "$suite" "$new" "$mirror" >"$new.log" 2>&1 \
        || { tail -n 20 "$new.log"; die "debootstrap failed (log: $new.log)"; }
    log "debootstrap done after $((SECONDS - start)) s"

    # binary and source packages of trixie only, so that the source
    # package is that of the installed Open MPI; no documentation
    rm -f "$new/etc/apt/sources.list"
    cat >"$new/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb deb-src
URIs: $mirror
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    cat >"$new/etc/dpkg/dpkg.cfg.d/coll-shmcico-nodoc" <<'EOF'
path-exclude=/usr/share/doc/*
path-exclude=/usr/share/man/*
path-exclude=/usr/share/info/*
path-exclude=/usr/share/locale/*
EOF
    printf '#!/bin/sh\nexit 101\n' >"$new/usr/sbin/policy-rc.d"
    chmod +x "$new/usr/sbin/policy-rc.d"

    log "installing" $packages
    in_namespace "$new" -- sh -c '
        set -e
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q
        apt-get install -y -q --no-install-recommends -o Acquire::Retries=3 '"$(echo $packages)"'
        apt-get clean' >>"$new.log" 2>&1 \
        || { tail -n 20 "$new.log"; die "installing the packages failed (log: $new.log)"; }
    version=$(chroot "$new" dpkg-query -W -f='${Version}' libopenmpi-dev)
    srcversion=$(chroot "$new" dpkg-query -W -f='${source:Version}' libopenmpi-dev)
    log "Open MPI $version installed after $((SECONDS - start)) s; unpacking its source package"
    in_namespace "$new" -- sh -c '
        set -e
        cd /usr/src
        apt-get source -q --only-source openmpi="$1"
        rm -f openmpi_*' sh "$srcversion" >>"$new.log" 2>&1 \
        || { tail -n 20 "$new.log"; die "apt-get source openmpi=$srcversion failed (log: $new.log)"; }
    upstream=${srcversion#*:}
    upstream=${upstream%-*}
    [ -f "$new/usr/src/openmpi-$upstream/VERSION" ] \
        || die "the source package did not unpack into /usr/src/openmpi-$upstream"

    { wanted_stamp
      echo "mirror $mirror"
      echo "openmpi $version"
      echo "source /usr/src/openmpi-$upstream (openmpi $srcversion)"
      echo "made $(date -u +%Y-%m-%dT%H:%M:%SZ) in $((SECONDS - start)) s"
    } >"$new/$stamp_name"
    mv "$new.log" "$new/var/log/coll-shmcico-root.log"
    [ ! -e "$root" ] || rm -rf --one-file-system "$root"
    mv "$new" "$root"
    log "Debian 13 root made in $root in $((SECONDS - start)) s (Open MPI $version," \
        "source in /usr/src/openmpi-$upstream)"
}

case ${1:-make} in
    make) make_root ;;
    path) echo "$root" ;;
    run)
        shift
        [ "$(id -u)" = 0 ] || die "run needs root"
        stamp_matches || die "no Debian 13 root in $root (make it with $self make)"
        in_namespace "$root" "$@" ;;
    run-in)
        [ "$(id -u)" = 0 ] || die "run-in needs root"
        [ -x "${2:-}/bin/sh" ] || die "run-in: no root in ${2:-(none given)}"
        dir=$(cd "$2" && pwd)
        shift 2
        in_namespace "$dir" "$@" ;;
    __inside) shift; inside "$@" ;;
    *) echo "usage: debian13-root.sh [make] | run [--bind DIR]... -- COMMAND... | path" \
            "| run-in DIR [--bind DIR]... -- COMMAND..." >&2
       exit 2 ;;
esac
