// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: threads that keep tightening their masks while other
 * processes read their /proc status and the masked process keeps forking,
 * for a few seconds. The masks must stay consistent and the kernel log
 * free of warnings.
 */

#include <dirent.h>
#include <pthread.h>
#include <time.h>

#include "common.h"

#define STRESS_SECONDS	3
#define TIGHTENERS	4
#define READERS		2
/* The tighteners clear numbers no kernel implements, one at a time. */
#define FIRST_CLEARED	512
#define LAST_CLEARED	(NR_UNIMPLEMENTED - 1)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct mask shared;	/* what the last tightening installed */
static unsigned int next_clear = FIRST_CLEARED;
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

/* Serialized, so every tightening is a subset of every thread's mask. */
static void *tightener(void *arg)
{
	unsigned long *count = arg;

	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST)) {
		pthread_mutex_lock(&lock);
		if (next_clear <= LAST_CLEARED)
			mask_clear(&shared, next_clear++);
		if (mask_prctl(&shared))
			child_fail(__LINE__, "mask_prctl(&shared) == 0");
		pthread_mutex_unlock(&lock);
		(*count)++;
	}
	return NULL;
}

static void *forker(void *arg)
{
	unsigned long *count = arg;

	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST)) {
		int status;
		pid_t pid = fork();

		if (pid == 0)
			_exit(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3 ? 0 : 1);
		if (pid < 0 || waitpid(pid, &status, 0) != pid ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			child_fail(__LINE__, "forked child sees mode 3");
		(*count)++;
	}
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
	const char *key = self_is_compat() ? "Seccomp_mask_compat" :
		"Seccomp_mask";
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
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg >= 0)
		lseek(kmsg, 0, SEEK_END);
	else
		TH_LOG("cannot read /dev/kmsg (%s): not checking the log",
		       strerror(errno));

	mask_all(&shared, SECCOMP_MASK_MAX_BITS);
	deadline = now() + STRESS_SECONDS;
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		unsigned long tightened[TIGHTENERS] = { 0 }, forked = 0;
		pthread_t t[TIGHTENERS + 1];
		char buf[8192], val[4096], want[4096];
		const char *key;
		struct mask own;

		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_prctl(&shared) == 0);
		for (i = 0; i < TIGHTENERS; i++)
			CHILD_ASSERT(pthread_create(&t[i], NULL, tightener,
						    &tightened[i]) == 0);
		CHILD_ASSERT(pthread_create(&t[i], NULL, forker,
					    &forked) == 0);
		while (now() < deadline)
			usleep(10000);
		__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
		for (i = 0; i <= TIGHTENERS; i++)
			CHILD_ASSERT(pthread_join(t[i], NULL) == 0);
		for (i = 0; i < TIGHTENERS; i++)
			CHILD_ASSERT(tightened[i] > 0);
		CHILD_ASSERT(forked > 0);

		/* One last tightening here: this thread's mask is "shared". */
		CHILD_ASSERT(mask_prctl(&shared) == 0);
		CHILD_ASSERT(read_status(0, buf, sizeof(buf)) == 0);
		key = self_is_compat() ? "Seccomp_mask_compat" : "Seccomp_mask";
		CHILD_ASSERT(status_field(buf, key, val, sizeof(val)));
		CHILD_ASSERT(parse_list(val, &own));
		mask_format(&shared, want, sizeof(want));
		CHILD_ASSERT(!strcmp(val, want));
		/* A cleared number is denied. */
		CHILD_DENIED(syscall(FIRST_CLEARED));
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
