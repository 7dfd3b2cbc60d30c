// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: for a few seconds, threads of one process tighten
 * their own masks at the same time (prctl(), no lock between them: each
 * replaces its own allowlist and drops its reference to the one it shared),
 * one of them forking after each of its tightenings (the child must have
 * mode 3 and show the forker's latest mask), while two other processes read
 * every thread's /proc status (each read must parse and be a subset of that
 * thread's previous one). Then each thread's status must show its own last
 * mask, and a number the main thread cleared must kill it. The kernel log
 * must stay free of warnings: /dev/kmsg must be readable in required mode.
 *
 * Without TSYNC: a thread only ever replaces its own allowlist here.
 * tsync_stress_test.c has a TSYNC replace the allowlists of threads that
 * are using them.
 */

#include <dirent.h>
#include <pthread.h>
#include <time.h>

#include "common.h"

#define STRESS_SECONDS	3
#define TIGHTENERS	4	/* and the forker, which tightens too */
#define READERS		2
/*
 * The threads clear numbers no kernel implements, each its own share of
 * them, one per round; when a thread's share is used up it keeps
 * installing its last mask (the same bits: still a new allowlist).
 */
#define TIGHTEN_FIRST_CLEARED	512
#define TIGHTEN_LAST_CLEARED	(NR_UNIMPLEMENTED - 1)

struct tightener {
	pthread_t thread;
	struct mask m;		/* this thread's mask, as it last installed it */
	unsigned int next, last;	/* the numbers it has still to clear */
	bool forks;		/* the forker: a fork after each tightening */
	unsigned long tightened, forked;
};

static int stop;

/*
 * Parse a bitmap list ("0-3,15") into @m; false when it is malformed or
 * not ascending.
 */
static bool parse_list(const char *s, struct mask *m)
{
	long prev = -1;

	mask_none(m, SECCOMP_MASK_MAX_BITS);
	while (*s) {
		char *end;
		long a, b;

		a = strtol(s, &end, 10);
		if (end == s || a <= prev || a >= SECCOMP_MASK_MAX_BITS)
			return false;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b <= a ||
			    b >= SECCOMP_MASK_MAX_BITS)
				return false;
			s = end;
		}
		for (; a <= b; a++)
			mask_set(m, a);
		prev = b;
		if (*s == ',')
			s++;
		else if (*s)
			return false;
	}
	return true;
}

/* This program's ABI's mask line in the status file @path. */
static bool path_shows(const char *path, const char *want)
{
	char buf[8192], val[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return status_field(buf, mask_line(false), val, sizeof(val)) &&
	       !strcmp(val, want);
}

/*
 * Tighten this thread's own mask, again and again, concurrently with the
 * other threads; the forker forks after each tightening, and its child
 * must have the mask just installed.
 */
static void *tightener(void *arg)
{
	struct tightener *t = arg;
	char want[4096];
	int status;
	pid_t pid;

	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST)) {
		if (t->next <= t->last)
			mask_clear(&t->m, t->next++);
		if (mask_prctl(&t->m))
			child_fail(__LINE__, "mask_prctl(&t->m) == 0");
		t->tightened++;
		if (!t->forks)
			continue;
		mask_format(&t->m, want, sizeof(want));
		pid = fork();
		if (pid == 0)
			_exit(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3 &&
			      path_shows("/proc/self/status", want) ? 0 : 1);
		if (pid < 0 || waitpid(pid, &status, 0) != pid ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			child_fail(__LINE__, "the forked child has mode 3 and the forker's mask");
		t->forked++;
	}
	/* Its own status shows its own last mask. */
	mask_format(&t->m, want, sizeof(want));
	if (!path_shows("/proc/thread-self/status", want))
		child_fail(__LINE__, "the thread's status shows its last mask");
	return NULL;
}

/* Is every bit of @a set in @b? */
static bool mask_subset(const struct mask *a, const struct mask *b)
{
	unsigned int i;

	for (i = 0; i < SECCOMP_MASK_MAX_BITS; i++)
		if (mask_test(a, i) && !mask_test(b, i))
			return false;
	return true;
}

#define MAX_TIDS	64

/*
 * Read every thread's status of @pid until @deadline: the mask line of
 * this program's ABI must parse, and each read of a thread must be a
 * subset of the previous read of that thread (masks only tighten).
 * 0 when all held.
 */
static int reader(pid_t pid, double deadline)
{
	static struct mask last[MAX_TIDS];
	static long last_tid[MAX_TIDS];
	const char *key = mask_line(false);
	char path[64], buf[8192], val[4096];
	unsigned long reads = 0;
	struct dirent *d;
	struct mask m;
	ssize_t n;
	DIR *dir;
	int fd, i;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	while (now() < deadline) {
		dir = opendir(path);
		if (!dir)
			break;
		while ((d = readdir(dir))) {
			if (d->d_name[0] == '.')
				continue;
			fd = openat(dirfd(dir), d->d_name, O_RDONLY | O_DIRECTORY);
			if (fd < 0)
				continue;
			n = -1;
			if (!faccessat(fd, "status", R_OK, 0)) {
				int sfd = openat(fd, "status", O_RDONLY);

				if (sfd >= 0) {
					n = read(sfd, buf, sizeof(buf) - 1);
					close(sfd);
				}
			}
			close(fd);
			if (n <= 0)
				continue;
			buf[n] = '\0';
			if (!status_field(buf, "Seccomp", val, sizeof(val)) ||
			    strcmp(val, "3"))
				continue;	/* not installed yet */
			if (!status_field(buf, key, val, sizeof(val)) ||
			    !parse_list(val, &m)) {
				fprintf(stderr, "# bad %s line of %s: %s\n",
					key, d->d_name, val);
				closedir(dir);
				return 1;
			}
			for (i = 0; i < MAX_TIDS; i++)
				if (!last_tid[i] ||
				    last_tid[i] == atol(d->d_name))
					break;
			if (i < MAX_TIDS && last_tid[i] &&
			    !mask_subset(&m, &last[i])) {
				fprintf(stderr, "# %s of %s grew: %s\n",
					key, d->d_name, val);
				closedir(dir);
				return 3;
			}
			if (i < MAX_TIDS) {
				last_tid[i] = atol(d->d_name);
				last[i] = m;
			}
			reads++;
		}
		closedir(dir);
	}
	return reads ? 0 : 2;
}

static bool kmsg_has_warnings(int fd, char *what, size_t len)
{
	static const char *const bad[] = {
		"WARNING:", "BUG:", "Call Trace:", "refcount_t:", "UBSAN:",
		"KASAN:", "general protection", "Oops",
	};
	char buf[8192];
	ssize_t n;
	size_t i;

	while ((n = read(fd, buf, sizeof(buf) - 1)) > 0 ||
	       (n < 0 && errno == EPIPE)) {
		if (n < 0)
			continue;
		buf[n] = '\0';
		for (i = 0; i < ARRAY_SIZE(bad); i++) {
			if (strstr(buf, bad[i])) {
				n = strnlen(buf, len - 1);
				memcpy(what, buf, n);
				what[n] = '\0';
				return true;
			}
		}
	}
	return false;
}

TEST(tighten_fork_and_read_status_concurrently)
{
	pid_t pid, readers[READERS];
	double deadline;
	char what[1024];
	int i, kmsg;

	if (!require_mask(_metadata) || !require_threads(_metadata))
		return;
	/* The log check is part of the test: in required mode it must run. */
	kmsg = kmsg_open_at_end();
	if (kmsg < 0 && mask_required()) {
		ASSERT_LE(0, kmsg) {
			TH_LOG("required mode, but /dev/kmsg cannot be read: %s",
			       strerror(errno));
		}
	}
	if (kmsg < 0)
		TH_LOG("cannot read /dev/kmsg (%s): not checking the log",
		       strerror(errno));

	deadline = now() + STRESS_SECONDS;
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		const unsigned int share = (TIGHTEN_LAST_CLEARED -
					    TIGHTEN_FIRST_CLEARED + 1) /
					   (TIGHTENERS + 1);
		static struct tightener t[TIGHTENERS + 1];
		char want[4096];
		struct mask own;

		mask_all(&own, SECCOMP_MASK_MAX_BITS);
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_prctl(&own) == 0);
		/* The last one is the forker. */
		for (i = 0; i <= TIGHTENERS; i++) {
			t[i].m = own;
			t[i].next = TIGHTEN_FIRST_CLEARED + i * share;
			t[i].last = t[i].next + share - 1;
			t[i].forks = i == TIGHTENERS;
			CHILD_ASSERT(pthread_create(&t[i].thread, NULL,
						    tightener, &t[i]) == 0);
		}
		while (now() < deadline)
			usleep(10000);
		__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
		for (i = 0; i <= TIGHTENERS; i++) {
			CHILD_ASSERT(pthread_join(t[i].thread, NULL) == 0);
			CHILD_ASSERT(t[i].tightened > 0);
		}
		CHILD_ASSERT(t[TIGHTENERS].forked > 0);

		/* This thread's own tightening, then its denied number. */
		mask_clear(&own, TIGHTEN_FIRST_CLEARED);
		CHILD_ASSERT(mask_prctl(&own) == 0);
		mask_format(&own, want, sizeof(want));
		CHILD_ASSERT(path_shows("/proc/self/status", want));
		CHILD_DENIED(syscall(TIGHTEN_FIRST_CLEARED));
		_exit(0);
	}
	for (i = 0; i < READERS; i++) {
		readers[i] = fork();
		if (readers[i] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
			_exit(reader(pid, deadline));
		}
		if (readers[i] < 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		ASSERT_LE(0, readers[i]);
	}
	for (i = 0; i < READERS; i++) {
		int status = 0;

		EXPECT_EQ(readers[i], waitpid_timeout(readers[i], &status, 0,
						      CHILD_TIMEOUT_MS));
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			TH_LOG("reader %d ended with status 0x%x", i, status);
		}
	}
	ASSERT_CHILD_DENIED(pid);
	if (kmsg >= 0) {
		EXPECT_FALSE(kmsg_has_warnings(kmsg, what, sizeof(what))) {
			TH_LOG("kernel log: %s", what);
		}
		close(kmsg);
	}
}

TEST_HARNESS_MAIN
