/* seccomp_deny ENOSYS|EPERM command [args...]: run command with io_uring_setup,
 * io_uring_enter and io_uring_register refused with that errno, as a container runtime's
 * default seccomp profile does (podman, Docker >= 25, containerd 2). A test helper for
 * tests/integration/t_restricted.sh; built by the test (cc -O2 -o seccomp_deny this.c). */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define BUILD_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define BUILD_ARCH AUDIT_ARCH_AARCH64
#else
#error "seccomp_deny: only x86_64 and aarch64 are known"
#endif

#ifndef __NR_io_uring_setup /* the same numbers on every architecture since Linux 5.1 */
#define __NR_io_uring_setup 425
#define __NR_io_uring_enter 426
#define __NR_io_uring_register 427
#endif

int main(int argc, char **argv)
{
	if (argc < 3 || (strcmp(argv[1], "ENOSYS") && strcmp(argv[1], "EPERM"))) {
		fprintf(stderr, "usage: seccomp_deny ENOSYS|EPERM command [args...]\n");
		return 2;
	}
	unsigned err = strcmp(argv[1], "ENOSYS") == 0 ? ENOSYS : EPERM;
	/* A system call of another ABI (x32 on x86_64, 32-bit compat) is let through: the
	 * command is built for this one. */
	struct sock_filter prog[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, BUILD_ARCH, 0, 4),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 3, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_enter, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_register, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA)),
	};
	struct sock_fprog fprog = { .len = sizeof(prog) / sizeof(prog[0]), .filter = prog };
	/* Without CAP_SYS_ADMIN a filter needs no_new_privs (and a runtime sets it anyway). */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		perror("seccomp_deny: prctl(PR_SET_NO_NEW_PRIVS)");
		return 2;
	}
	if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) < 0) {
		perror("seccomp_deny: seccomp(SECCOMP_SET_MODE_FILTER)");
		return 2;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "seccomp_deny: %s: %s\n", argv[2], strerror(errno));
	return 127;
}
