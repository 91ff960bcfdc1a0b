/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * The kernel copies behind the single-copy transport (docs/protocol.md,
 * "Single copy"):
 *  - Linux CMA (process_vm_readv / process_vm_writev), on Open MPI 4.1,
 *    which has no smsc framework, and wherever it is asked for;
 *  - Open MPI 5.0's smsc framework (cma, xpmem or knem, whichever the
 *    installation selected), so that sites with XPMEM use it.  A
 *    component that needs its regions registered (knem) is not used.
 * Either can be refused by the system: seccomp, Yama's ptrace_scope,
 * processes of different users or that are not dumpable.  The segment's
 * setup finds out once, with a probe every process agrees on.  Before
 * that, each process tells alone whether the refusal is certain (its own
 * memory refused to it, Yama's ptrace_scope): the queue fragments'
 * default depends on it (coll_shmcico_params.c).
 */

#include "ompi_config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#include "coll_shmcico.h"

/* ------------------------------------------------------------------ */
/* What one process sees of the system's refusal                        */

/* Yama's ptrace_scope, -1 without Yama */
static int yama_scope(void)
{
    FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "r");
    int scope = -1;

    if (NULL != f) {
        if (1 != fscanf(f, "%d", &scope)) {
            scope = -1;
        }
        fclose(f);
    }
    return scope;
}

/* whether CAP_SYS_PTRACE (19) is in this process's effective set */
static bool cap_sys_ptrace(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    unsigned long long caps = 0;
    char line[256];

    if (NULL == f) {
        return false;
    }
    while (NULL != fgets(line, sizeof(line), f)) {
        if (1 == sscanf(line, "CapEff: %llx", &caps)) {
            break;
        }
    }
    fclose(f);
    return 0 != (caps & (1ULL << 19));
}

/* whether the kernel copies a word of this process's memory for it
 * (seccomp filters that refuse process_vm_readv refuse this too) */
static bool self_copy(void)
{
    uint64_t word = 1, got = 0;
    struct iovec local = { .iov_base = &got, .iov_len = sizeof(got) };
    struct iovec remote = { .iov_base = &word, .iov_len = sizeof(word) };

    return (ssize_t) sizeof(got) == process_vm_readv(getpid(), &local, 1, &remote, 1, 0)
        && 1 == got;
}

bool mca_coll_shmcico_copy_refused_here(void)
{
    return mca_coll_shmcico_refusal_certain(self_copy(), yama_scope(), cap_sys_ptrace());
}

/* ------------------------------------------------------------------ */
/* Copies                                                               */

static int cma_copy(void *context, int peer, bool to_peer, const struct iovec *local,
                    const struct iovec *remote, size_t n)
{
    mca_coll_shmcico_module_t *module = (mca_coll_shmcico_module_t *) context;
    pid_t pid = mca_coll_shmcico_id(&module->engine.view, peer)->pid;
    size_t want = 0;
    ssize_t got;

    for (size_t i = 0; i < n; ++i) {
        want += local[i].iov_len;
    }
    do {
        got = to_peer ? process_vm_writev(pid, local, n, remote, n, 0)
                      : process_vm_readv(pid, local, n, remote, n, 0);
    } while (got < 0 && EINTR == errno);
    if (got < 0) {
        return errno;
    }
    /* a call is at most half of the kernel's 2 GiB cap
     * (coll_shmcico_single.h), so a short count means a page the kernel
     * could not reach partway: a fault, reported, not retried */
    return (size_t) got == want ? 0 : EFAULT;
}

#if MCA_COLL_SHMCICO_HAVE_SMSC

static mca_smsc_endpoint_t *smsc_endpoint(mca_coll_shmcico_module_t *module, int peer)
{
    void **endpoints = module->copy.endpoints;

    if (NULL == endpoints[peer]) {
        endpoints[peer] = mca_smsc->get_endpoint(&ompi_comm_peer_lookup(module->copy.comm,
                                                                        peer)->super);
    }
    return (mca_smsc_endpoint_t *) endpoints[peer];
}

static int smsc_copy(void *context, int peer, bool to_peer, const struct iovec *local,
                     const struct iovec *remote, size_t n)
{
    mca_coll_shmcico_module_t *module = (mca_coll_shmcico_module_t *) context;
    mca_smsc_endpoint_t *endpoint = smsc_endpoint(module, peer);

    for (size_t i = 0; NULL != endpoint && i < n; ++i) {
        int rc = to_peer ? mca_smsc->copy_to(endpoint, local[i].iov_base, remote[i].iov_base,
                                             local[i].iov_len, NULL)
                         : mca_smsc->copy_from(endpoint, local[i].iov_base,
                                               remote[i].iov_base, local[i].iov_len, NULL);
        if (OPAL_SUCCESS != rc) {
            return EIO;
        }
    }
    return NULL == endpoint ? EPERM : 0;
}

/* the smsc component in use, or a reason it cannot serve */
static bool smsc_usable(const char **why)
{
    if (NULL == mca_smsc) {
        *why = "Open MPI selected no smsc component";
        return false;
    }
    if (mca_smsc_base_has_feature(MCA_SMSC_FEATURE_REQUIRE_REGISTRATION)) {
        *why = "the smsc component needs registered regions (knem)";
        return false;
    }
    return true;
}

/* whether each copy of the mode is a system call: smsc's cma (xpmem maps) */
static bool smsc_by_kernel(mca_coll_shmcico_single_mode_t mode)
{
    return MCA_COLL_SHMCICO_SINGLE_SMSC == mode && !mca_smsc_base_has_feature(MCA_SMSC_FEATURE_CAN_MAP);
}

#else

static bool smsc_usable(const char **why)
{
    *why = "this Open MPI has no smsc framework (4.1)";
    return false;
}

static bool smsc_by_kernel(mca_coll_shmcico_single_mode_t mode)
{
    (void) mode;
    return false;
}

#endif

/* the mode to use for the one asked for, or OFF with a reason */
static mca_coll_shmcico_single_mode_t choose(int asked, const char **why)
{
    switch (asked) {
    case MCA_COLL_SHMCICO_SINGLE_OFF:
        *why = "coll_shmcico_single_copy is off";
        return MCA_COLL_SHMCICO_SINGLE_OFF;
    case MCA_COLL_SHMCICO_SINGLE_CMA:
        return MCA_COLL_SHMCICO_SINGLE_CMA;
    case MCA_COLL_SHMCICO_SINGLE_SMSC:
        return smsc_usable(why) ? MCA_COLL_SHMCICO_SINGLE_SMSC : MCA_COLL_SHMCICO_SINGLE_OFF;
    default:
        if (smsc_usable(why)) {
            return MCA_COLL_SHMCICO_SINGLE_SMSC;
        }
        *why = NULL;                /* CMA is what auto means without smsc */
        return MCA_COLL_SHMCICO_SINGLE_CMA;
    }
}

void mca_coll_shmcico_copy_open(mca_coll_shmcico_module_t *module,
                                struct ompi_communicator_t *comm, const char **why)
{
    mca_coll_shmcico_copy_t *copy = &module->copy;

    *why = NULL;
    copy->comm = comm;
    copy->mode = choose(module->params.single_copy, why);
    if (MCA_COLL_SHMCICO_SINGLE_SMSC == copy->mode) {
        copy->endpoints = calloc((size_t) ompi_comm_size(comm), sizeof(void *));
        if (NULL == copy->endpoints) {
            *why = "out of memory";
            copy->mode = MCA_COLL_SHMCICO_SINGLE_OFF;
        }
    }
    module->engine.copier = (mca_coll_shmcico_copier_t) { .context = module };
#if MCA_COLL_SHMCICO_HAVE_SMSC
    if (MCA_COLL_SHMCICO_SINGLE_SMSC == copy->mode) {
        module->engine.copier.copy = smsc_copy;
    }
#endif
    if (MCA_COLL_SHMCICO_SINGLE_CMA == copy->mode) {
        module->engine.copier.copy = cma_copy;
    }
    copy->kernel = MCA_COLL_SHMCICO_SINGLE_CMA == copy->mode || smsc_by_kernel(copy->mode);
}

bool mca_coll_shmcico_copy_probe(mca_coll_shmcico_module_t *module, int peer)
{
    const mca_coll_shmcico_view_t *view = &module->engine.view;
    mca_coll_shmcico_id_t *id = mca_coll_shmcico_id(view, peer);
    uint64_t value = 0;
    struct iovec local = { .iov_base = &value, .iov_len = sizeof(value) };
    struct iovec remote = {
        /* the probe word at its place in the peer's own mapping */
        .iov_base = (void *) (uintptr_t) (id->base + (uint64_t) ((unsigned char *) &id->probe
                                                                 - view->base)),
        .iov_len = sizeof(value)
    };

    if (NULL == module->engine.copier.copy) {
        return false;
    }
    return 0 == module->engine.copier.copy(module, peer, false, &local, &remote, 1)
        && MCA_COLL_SHMCICO_PROBE(peer) == value;
}

void mca_coll_shmcico_copy_close(mca_coll_shmcico_module_t *module)
{
#if MCA_COLL_SHMCICO_HAVE_SMSC
    for (int i = 0; NULL != module->copy.endpoints && i < ompi_comm_size(module->copy.comm);
         ++i) {
        if (NULL != module->copy.endpoints[i]) {
            mca_smsc->return_endpoint((mca_smsc_endpoint_t *) module->copy.endpoints[i]);
        }
    }
#endif
    free(module->copy.endpoints);
    module->copy.endpoints = NULL;
    module->copy.mode = MCA_COLL_SHMCICO_SINGLE_OFF;
    module->engine.copier.copy = NULL;
}
