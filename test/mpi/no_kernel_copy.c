/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Runs a program in a process whose kernel copies between address
 * spaces are refused, as a container's seccomp profile refuses them:
 *
 *   no_kernel_copy PROGRAM [ARG]...
 *
 * A seccomp filter makes process_vm_readv and process_vm_writev fail
 * with EPERM (on this process and on its own memory too), everything
 * else is allowed; no privilege is needed (no_new_privs).  Not an MPI
 * program: mpirun starts it around each rank.  Exits 77 where the
 * architecture is not one it knows.
 */

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#endif

int main(int argc, char **argv)
{
#ifdef ARCH
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),      /* another ABI */
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_process_vm_readv, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_process_vm_writev, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
    };
    struct sock_fprog prog = { .len = sizeof(filter) / sizeof(filter[0]), .filter = filter };

    if (argc < 2) {
        fprintf(stderr, "usage: no_kernel_copy PROGRAM [ARG]...\n");
        return 2;
    }
    if (0 != prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        || 0 != prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
        fprintf(stderr, "no_kernel_copy: seccomp: %s\n", strerror(errno));
        return 1;
    }
    execvp(argv[1], argv + 1);
    fprintf(stderr, "no_kernel_copy: %s: %s\n", argv[1], strerror(errno));
    return 127;
#else
    (void) argc;
    (void) argv;
    fprintf(stderr, "no_kernel_copy: no seccomp filter for this architecture\n");
    return 77;
#endif
}
