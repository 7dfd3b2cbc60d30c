/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seccomp mask mode selftests: mask_helper, the program a test executes
 * under its masks, and through it the calls of the other ABI on arm64
 *
 * mask_helper_64 and mask_helper_32 are built next to the test programs
 * (mask_helper.c says what it checks). An arm64 task cannot make a
 * syscall of the other execution state: the state is that of the program
 * the task executes, and no instruction switches it, unlike a far jump
 * or int $0x80 on x86-64. So an arm64 test reaches the other ABI by
 * executing the mask_helper of that state, in both directions (the
 * AArch64 programs execute mask_helper_32, the AArch32 ones
 * mask_helper_64), with the masks the test installed:
 *
 *   in place: the test's child becomes the helper (helper_exec()), which
 *	makes the calls and checks it is told to; the child's end is the
 *	helper's, its pid the same (a core dump, an audit record);
 *   in a forked child: other_probe() makes one call and reads back what
 *	it returned, or by which signal it died; the forked child has the
 *	masks of the thread that forks.
 *
 * Either way the other ABI's mask must let the helper start: glibc's
 * start-up makes a few syscalls (brk, set_tls on AArch32, ...) before
 * main(). A mask "all but N" of that ABI does (mask_all_abi_but()).
 */

#ifndef _SELFTESTS_SECCOMP_MASK_HELPER_H
#define _SELFTESTS_SECCOMP_MASK_HELPER_H

#include "abi.h"
#include "child.h"
#include "install.h"

extern char **environ;

/*
 * The mask_helper built next to this program: with the same _32/_64
 * suffix, or with @other, the one of the other ABI (the other x86 ABI,
 * or the other execution state of arm64). False when it is not there.
 */
static inline bool helper_path(char *buf, size_t len, bool other)
{
	char exe[PATH_MAX - 32], *slash;
	const char *suffix = "";
	ssize_t n, blen;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return false;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return false;
	blen = strlen(slash);
	if (blen > 3 && !strcmp(slash + blen - 3, "_32"))
		suffix = other ? "_64" : "_32";
	else if (blen > 3 && !strcmp(slash + blen - 3, "_64"))
		suffix = other ? "_32" : "_64";
	else if (other)
		return false;
	*slash = '\0';
	snprintf(buf, len, "%s/mask_helper%s", exe, suffix);
	return !access(buf, X_OK);
}

/*
 * All @nbits bits of the mask of an ABI set but @nr (negative: none
 * cleared): for the AArch32 mask of arm64 pass its 1040 bits, so that
 * set_tls, which glibc's start-up calls, is allowed.
 */
static inline void mask_all_abi_but(struct mask *m, unsigned int nbits,
				    int nr)
{
	mask_all(m, nbits);
	if (nr >= 0)
		mask_clear(m, nr);
}

/* A command line of mask_helper, built before the masks are installed. */
struct helper_cmd {
	const char *argv[64];
	int argc;
	bool overflow;
	size_t used;
	char pool[16384];
};

/* The helper @path, which must find PR_GET_SECCOMP @mode ("any": no check). */
static inline void helper_cmd_init(struct helper_cmd *c, const char *path,
				   const char *mode)
{
	c->argc = 0;
	c->used = 0;
	c->overflow = false;
	c->argv[c->argc++] = path;
	c->argv[c->argc++] = mode;
	c->argv[c->argc] = NULL;
}

/* One more argument, formatted. */
static inline __printf(2, 3) void helper_cmd_add(struct helper_cmd *c,
						 const char *fmt, ...)
{
	size_t left = sizeof(c->pool) - c->used;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(c->pool + c->used, left, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= left ||
	    c->argc >= (int)ARRAY_SIZE(c->argv) - 1) {
		c->overflow = true;
		return;
	}
	c->argv[c->argc++] = c->pool + c->used;
	c->argv[c->argc] = NULL;
	c->used += n + 1;
}

/* "-s KEY=LIST": the status line @key must list the bits of @m. */
static inline void helper_cmd_status(struct helper_cmd *c, const char *key,
				     const struct mask *m)
{
	char bits[4096];

	mask_format(m, bits, sizeof(bits));
	helper_cmd_add(c, "-s");
	helper_cmd_add(c, "%s=%s", key, bits);
}

/*
 * The helper's getppid @nr (first argument @a0) under @action, and what
 * it checks: the log lets it run (it returns the parent's pid), the errno
 * makes it return -errno, the trap traps it with the registers rolled
 * back; any kill ("-f" @marker_fd, "-k") kills it at the call.
 */
static inline void helper_cmd_getppid_takes(struct helper_cmd *c, long nr,
					    long a0, __u32 action,
					    int marker_fd)
{
	switch (action & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_LOG:
		helper_cmd_add(c, "-c");
		helper_cmd_add(c, "%ld,%ld=%d", nr, a0, getppid());
		break;
	case SECCOMP_RET_ERRNO:
		helper_cmd_add(c, "-c");
		helper_cmd_add(c, "%ld,%ld=-%u", nr, a0,
			       action & SECCOMP_RET_DATA);
		break;
	case SECCOMP_RET_TRAP:
		helper_cmd_add(c, "-t");
		helper_cmd_add(c, "%ld,%ld=%ld", nr, a0, trap_return(nr, a0));
		break;
	default:
		helper_cmd_add(c, "-f");
		helper_cmd_add(c, "%d", marker_fd);
		helper_cmd_add(c, "-k");
		helper_cmd_add(c, "%ld,%ld", nr, a0);
	}
}

/* In a child: become the helper. Does not return. */
static inline void __noreturn helper_exec(struct helper_cmd *c)
{
	CHILD_ASSERT(!c->overflow);
	execve(c->argv[0], (char *const *)c->argv, environ);
	CHILD_ASSERT(!"execve of mask_helper failed");
	_exit(1);
}

/*
 * The marker pipe of a helper's -k call: it writes 'b' right before the
 * call and 'a' right after it. The write end is passed to the helper (-f),
 * so it is not close-on-exec; the parent closes it once the child runs.
 */
struct helper_marker {
	int fd[2];
};

static inline int helper_marker_open(struct helper_marker *mk)
{
	if (pipe(mk->fd))
		return -1;
	return fcntl(mk->fd[0], F_SETFD, FD_CLOEXEC);
}

/*
 * In the parent, after the fork: close the write end, then, once the
 * child has ended, read what the helper wrote ('b', 'a', ...) into @got.
 */
static inline void helper_marker_read(struct helper_marker *mk, char *got,
				      size_t len)
{
	ssize_t n;

	n = read(mk->fd[0], got, len - 1);
	got[n > 0 ? n : 0] = '\0';
	close(mk->fd[0]);
}

#ifndef SECCOMP_MASK_NO_HARNESS
/*
 * Wait for @pid, a child that became the helper with "-f" the write end
 * of @mk: it must have been killed by @sig after the helper wrote exactly
 * @want to the marker ("b": at its -k call, after 'b' and before 'a';
 * "": before its main() wrote anything, in glibc's start-up; "x": after
 * its -x execve, in the start-up of the program it executed).
 */
static inline void
__assert_helper_killed(struct __test_metadata *const _metadata, pid_t pid,
		       struct helper_marker *mk, int sig, const char *want,
		       int line)
{
	char got[16];
	int status;

	close(mk->fd[1]);
	status = child_wait(_metadata, pid);
	helper_marker_read(mk, got, sizeof(got));
	if (!WIFSIGNALED(status) || WTERMSIG(status) != sig ||
	    strcmp(got, want)) {
		TH_LOG("line %d: the helper wrote \"%s\", expected \"%s\"",
		       line, got, want);
		TH_LOG("line %d: and then a kill by signal %d", line, sig);
		child_describe(_metadata, status, line);
	}
	ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig);
	ASSERT_STREQ(want, got);
}

/* The helper was killed by @sig at its -k call. */
#define ASSERT_HELPER_KILLED_AT(pid, mk, sig) \
	__assert_helper_killed(_metadata, pid, mk, sig, "b", __LINE__)

/* The helper was killed by SIGSYS in its start-up: its ABI denies all. */
#define ASSERT_HELPER_DENIED_AT_START(pid, mk) \
	__assert_helper_killed(_metadata, pid, mk, SIGSYS, "", __LINE__)

/* The program the helper's -x executed was killed by SIGSYS at its start. */
#define ASSERT_HELPER_EXEC_DENIED_AT_START(pid, mk) \
	__assert_helper_killed(_metadata, pid, mk, SIGSYS, "x", __LINE__)

/*
 * Wait for @pid, a child that became the helper (or failed before): it
 * must have exited with 0, every check of the helper held. The helper
 * says on stderr what it found instead.
 */
#define ASSERT_HELPER_OK(pid)	ASSERT_CHILD_OK(pid)

/*
 * Wait for @pid, a child that became the helper with "-f" the write end
 * of @mk when @killed: if @killed, ASSERT_HELPER_KILLED_AT() by SIGSYS;
 * else close both ends of @mk, which the helper did not use, and
 * ASSERT_HELPER_OK().
 */
static inline void
__assert_helper_end(struct __test_metadata *const _metadata, pid_t pid,
		    struct helper_marker *mk, bool killed, int line)
{
	if (killed) {
		__assert_helper_killed(_metadata, pid, mk, SIGSYS, "b", line);
		return;
	}
	close(mk->fd[1]);
	close(mk->fd[0]);
	__assert_child_ok(_metadata, pid, line);
}

#define ASSERT_HELPER_KILLED_AT_IF(pid, mk, killed) \
	__assert_helper_end(_metadata, pid, mk, killed, __LINE__)
#endif

/*
 * other_probe(): what the call returned, or that the helper was killed at
 * it (by which signal), or that the probe failed (the helper could not be
 * executed, died before its call, or gave no value).
 */
#define PROBE_FAILED		LONG_MIN
#define PROBE_KILLED(sig)	(LONG_MIN + 1 + (sig))

/*
 * Syscall @nr, first argument @a0, through the ABI of @other's helper (the
 * other ABI, or this one), made by that helper in a forked child, which
 * has the masks of the calling thread: its return value (-errno), or
 * PROBE_KILLED(sig) or PROBE_FAILED. Safe in a child and in a thread; no
 * harness call.
 */
static inline long helper_probe(bool other, long nr, long a0)
{
	static char path[2][PATH_MAX];
	static bool found[2];
	char call[64], fdarg[16], got[64], *end;
	const char *argv[8];
	int fd[2], status, i = other;
	pid_t pid;
	ssize_t n, len = 0;
	long val;

	if (!found[i] && !helper_path(path[i], sizeof(path[i]), other))
		return PROBE_FAILED;
	found[i] = true;
	if (pipe(fd))
		return PROBE_FAILED;
	snprintf(call, sizeof(call), "%ld,%ld", nr, a0);
	snprintf(fdarg, sizeof(fdarg), "%d", fd[1]);
	argv[0] = path[i];
	argv[1] = "any";
	argv[2] = "-f";
	argv[3] = fdarg;
	argv[4] = "-r";
	argv[5] = call;
	argv[6] = NULL;
	pid = fork();
	if (pid == 0) {
		close(fd[0]);
		execve(argv[0], (char *const *)argv, environ);
		_exit(127);
	}
	close(fd[1]);
	if (pid < 0) {
		close(fd[0]);
		return PROBE_FAILED;
	}
	while (len < (ssize_t)sizeof(got) - 1 &&
	       (n = read(fd[0], got + len, sizeof(got) - 1 - len)) > 0)
		len += n;
	got[len] = '\0';
	close(fd[0]);
	if (waitpid_timeout(pid, &status, 0, CHILD_TIMEOUT_MS) != pid)
		return PROBE_FAILED;
	if (WIFSIGNALED(status))
		return !strcmp(got, "b") ? PROBE_KILLED(WTERMSIG(status)) :
					   PROBE_FAILED;
	if (!WIFEXITED(status) || WEXITSTATUS(status) || got[0] != 'b' ||
	    got[1] != 'a')
		return PROBE_FAILED;
	errno = 0;
	val = strtol(got + 2, &end, 10);
	if (errno || end == got + 2 || *end != '\n')
		return PROBE_FAILED;
	return val;
}

/* helper_probe() of the other ABI's helper. */
static inline long other_probe(long nr, long a0)
{
	return helper_probe(true, nr, a0);
}

#ifdef ARM64_BUILD
/*
 * Does the kernel run programs of the other execution state? The other
 * state's mask_helper, executed without a mask, must start and exit 0:
 * it needs CONFIG_COMPAT and a CPU with AArch32 at EL0 (the AArch64 build)
 * and must have been built (both builds). Asked once.
 */
static inline bool arm64_other_state_available(void)
{
	static int avail = -1;
	char path[PATH_MAX];
	const char *argv[3];
	int status;
	pid_t pid;

	if (avail >= 0)
		return avail;
	avail = 0;
	if (!helper_path(path, sizeof(path), true))
		return false;
	argv[0] = path;
	argv[1] = "any";
	argv[2] = NULL;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		execve(argv[0], (char *const *)argv, environ);
		_exit(127);
	}
	if (pid > 0 && waitpid_timeout(pid, &status, 0, CHILD_TIMEOUT_MS) == pid)
		avail = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	return avail;
}
#endif

#endif /* _SELFTESTS_SECCOMP_MASK_HELPER_H */
