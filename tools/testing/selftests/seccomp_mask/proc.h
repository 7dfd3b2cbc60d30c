/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seccomp mask mode selftests: /proc, sysctl, kmsg and audit record helpers,
 * and a read with a deadline
 */

#ifndef _SELFTESTS_SECCOMP_MASK_PROC_H
#define _SELFTESTS_SECCOMP_MASK_PROC_H

#include <poll.h>

#include "abi.h"
#include "child.h"
#include "install.h"

/* Write @s to the file @path (a sysctl, a debugfs knob): true when all went. */
static inline bool write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s);
}

/* Read the file @path into @buf, without its first newline and what follows. */
static inline bool read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return false;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

/*
 * /dev/kmsg, non-blocking, positioned after the last record logged so
 * far: what is read from it is what was logged since. -1 with errno when
 * it cannot be read.
 */
static inline int kmsg_open_at_end(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int err;

	if (fd >= 0 && lseek(fd, 0, SEEK_END) < 0) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

/*
 * Read what the kernel logged since @fd was opened (kmsg_open_at_end()),
 * to its end: 1 with the first record that has a warning in @what, 0
 * when there is none, -1 with errno when the log could not be read to
 * its end (then nothing was checked: never taken for a clean log).
 */
static inline int kmsg_warnings(int fd, char *what, size_t len)
{
	static const char *const bad[] = {
		"WARNING:", "BUG:", "Call Trace:", "refcount_t:", "UBSAN:",
		"KASAN:", "general protection", "Oops",
		"blocked for more than",	/* the hung task detector */
	};
	char buf[8192];
	ssize_t n;
	size_t i;

	for (;;) {
		n = read(fd, buf, sizeof(buf) - 1);
		if (n < 0 && errno == EAGAIN)
			return 0;	/* the end of the log */
		if (n < 0 && errno == EPIPE)
			continue;	/* records overwritten: go on */
		if (n <= 0) {
			if (!n)
				errno = ENODATA;
			return -1;
		}
		buf[n] = '\0';
		for (i = 0; i < ARRAY_SIZE(bad); i++) {
			if (strstr(buf, bad[i])) {
				n = strnlen(buf, len - 1);
				memcpy(what, buf, n);
				what[n] = '\0';
				return 1;
			}
		}
	}
}

/*
 * Read @len bytes of @fd until the deadline @end: the bytes read, -1 on
 * an error, or -2 when the deadline passed first.
 */
static inline ssize_t read_until(int fd, void *buf, size_t len, double end)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t off = 0;
	ssize_t n;
	int ms;

	while (off < len) {
		ms = (end - now()) * 1000;
		if (ms <= 0)
			return -2;
		n = poll(&pfd, 1, ms);
		if (!n)
			continue;	/* the deadline, checked again */
		if (n > 0)
			n = read(fd, (char *)buf + off, len - off);
		/* An error of poll() or of read(), or the end of the file. */
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n)
			break;
		off += n;
	}
	return off;
}

/*
 * Is this program's ABI the compat one, so that its mask is shown on the
 * Seccomp_mask_compat line?
 */
static inline bool self_is_compat(void)
{
#if X86_BUILD == 32
	return kernel_is_64bit();
#elif ARM64_BUILD == 32
	/* Only arm64 kernels have the mask mode: AArch32 is their compat ABI. */
	return true;
#else
	return false;
#endif
}

/*
 * The /proc/<pid>/status line of the mask of this program's ABI, or with
 * @other_abi of the other one: Seccomp_mask for the kernel's native
 * ABI, Seccomp_mask_compat for the compat one. (A macro: checkpatch takes
 * "static inline const" for a misplaced const.)
 */
#define mask_line(other_abi)						\
	(self_is_compat() != (other_abi) ? "Seccomp_mask_compat" :	\
	 "Seccomp_mask")

/*
 * Read /proc/<pid>/status (pid 0: self) into @buf, to its end: 0, or -1
 * with errno (ENOBUFS: it does not fit @buf).
 */
static inline int read_status(pid_t pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n, off = 0;
	int fd;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/status", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/status");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while ((n = read(fd, buf + off, len - 1 - off)) > 0)
		off += n;
	close(fd);
	buf[off] = '\0';
	if (n < 0)
		return -1;
	/* a text that fills @buf may go on: never compare a truncated one */
	if (off == (ssize_t)len - 1) {
		errno = ENOBUFS;
		return -1;
	}
	return 0;
}

/*
 * The value of the "@key:\t" line of a status buffer, copied into @val;
 * returns false when there is no such line.
 */
static inline bool status_field(const char *buf, const char *key, char *val,
				size_t len)
{
	size_t klen = strlen(key);
	const char *p = buf, *end;

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == ':' &&
		    p[klen + 1] == '\t') {
			p += klen + 2;
			end = strchrnul(p, '\n');
			snprintf(val, len, "%.*s", (int)(end - p), p);
			return true;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return false;
}

/*
 * The lines of /proc/<@pid>/status (pid 0: self) that begin with
 * "Seccomp", and with @nnp the "NoNewPrivs" one, one after the other in
 * @out: a snapshot to compare before and after a call. False when the
 * file cannot be read, when no line matched or when they do not fit.
 */
static inline bool seccomp_lines(pid_t pid, bool nnp, char *out, size_t len)
{
	char buf[8192];
	const char *p, *e;
	size_t pos = 0;
	int n;

	out[0] = '\0';
	if (read_status(pid, buf, sizeof(buf)))
		return false;
	for (p = buf; *p; p = *e ? e + 1 : e) {
		e = strchrnul(p, '\n');
		if (strncmp(p, "Seccomp", 7) &&
		    (!nnp || strncmp(p, "NoNewPrivs", 10)))
			continue;
		n = snprintf(out + pos, len - pos, "%.*s\n", (int)(e - p), p);
		if (n < 0 || (size_t)n >= len - pos)
			return false;
		pos += n;
	}
	return pos > 0;
}

/* Version 2: the action a denied call takes, as Seccomp_mask_action shows it. */
static inline void action_format(__u32 action, char *buf, size_t len)
{
	switch (action & SECCOMP_RET_ACTION_FULL) {
	case 0:
	case SECCOMP_RET_KILL_PROCESS:
		snprintf(buf, len, "kill_process");
		break;
	case SECCOMP_RET_TRAP:
		snprintf(buf, len, "trap");
		break;
	case SECCOMP_RET_ERRNO:
		snprintf(buf, len, "errno %u", action & SECCOMP_RET_DATA);
		break;
	case SECCOMP_RET_LOG:
		snprintf(buf, len, "log");
		break;
	default:
		snprintf(buf, len, "?");
	}
}

/* Does the "@key:" line of /proc/@pid/status (pid 0: self) read @want? */
static inline bool status_is(pid_t pid, const char *key, const char *want)
{
	char buf[8192], val[4096];

	return !read_status(pid, buf, sizeof(buf)) &&
	       status_field(buf, key, val, sizeof(val)) && !strcmp(val, want);
}

/* Is @m the mask of this program's ABI in /proc/@pid/status? */
static inline bool status_shows_mask(pid_t pid, const struct mask *m)
{
	char want[4096];

	mask_format(m, want, sizeof(want));
	return status_is(pid, mask_line(false), want);
}

/* Is @action the Seccomp_mask_action of /proc/@pid/status? */
static inline bool status_shows_action(pid_t pid, __u32 action)
{
	char want[64];

	action_format(action, want, sizeof(want));
	return status_is(pid, "Seccomp_mask_action", want);
}

/* The value of "@key=" in an audit record, copied into @val. */
static inline bool audit_field(const char *rec, const char *key, char *val,
			       size_t len)
{
	const char *p;
	char k[32];

	snprintf(k, sizeof(k), " %s=", key);
	p = strstr(rec, k);
	if (!p)
		return false;
	p += strlen(k);
	snprintf(val, len, "%.*s", (int)strcspn(p, " "), p);
	return true;
}

#ifndef SECCOMP_MASK_NO_HARNESS
/*
 * The audit record @rec has a "@key=" field (asserted), and it reads what
 * @fmt and its arguments make (expected).
 */
static inline __printf(4, 5) void
expect_audit_field(struct __test_metadata *const _metadata, const char *rec,
		   const char *key, const char *fmt, ...)
{
	char val[64], want[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	ASSERT_TRUE(audit_field(rec, key, val, sizeof(val))) {
		TH_LOG("no %s= in the record: %s", key, rec);
	}
	EXPECT_STREQ(want, val) {
		TH_LOG("the record's %s=", key);
	}
}
#endif

#endif /* _SELFTESTS_SECCOMP_MASK_PROC_H */
