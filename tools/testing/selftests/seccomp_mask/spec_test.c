// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode, version 3: SECCOMP_MASK_FLAG_SPEC_ALLOW and the
 * speculation mitigations an install forces.
 *
 * Rule (build/v3/uapi.txt): without SPEC_ALLOW, an install forces the
 * mitigations a filter install forces (SSBD under
 * spec_store_bypass_disable=seccomp, STIBP/IBPB under
 * spectre_v2_user=seccomp) on the caller and, with TSYNC, on every thread
 * that takes the masks, whatever mode it was in (filter mode included);
 * with SPEC_ALLOW nothing changes, as SECCOMP_FILTER_FLAG_SPEC_ALLOW does
 * for filters. A thread reads its own state: PR_GET_SPECULATION_CTRL
 * reads the calling thread's.
 *
 * The groups and the rule each guards:
 *
 * flag.*: SPEC_ALLOW is a valid flag, alone, with TSYNC (one thread, and
 *	with a second thread that takes the masks), and in a tightening;
 *	the mask is installed (a denied call kills). Version 2 kernels
 *	answer EINVAL to flag 0x2.
 * ssb.* and ib.*: the effect on PR_SPEC_STORE_BYPASS and on
 *	PR_SPEC_INDIRECT_BRANCH, read before and after the install by each
 *	thread itself (in the x86 programs only: no other architecture ties
 *	a speculation control to seccomp, so that these cases cannot apply
 *	there and are compiled out of those builds): an install through
 *	seccomp(2) without the flag, or
 *	through prctl() (which has no flags), makes the caller
 *	PR_SPEC_PRCTL | PR_SPEC_FORCE_DISABLE, also from filter mode and in
 *	a tightening of masks installed with SPEC_ALLOW; with SPEC_ALLOW the
 *	state stays PR_SPEC_PRCTL | PR_SPEC_ENABLE. With TSYNC, a sibling
 *	in mode 0 or in filter mode (its filter installed with
 *	SECCOMP_FILTER_FLAG_SPEC_ALLOW) gets the caller's outcome.
 *	This is only observable when the kernel runs that mitigation in its
 *	seccomp mode: PR_GET_SPECULATION_CTRL says PR_SPEC_PRCTL |
 *	PR_SPEC_ENABLE before, spec_store_bypass in
 *	/sys/devices/system/cpu/vulnerabilities names seccomp (SSB; sysfs
 *	cannot tell for the indirect branch), and a BPF filter installed
 *	without SECCOMP_FILTER_FLAG_SPEC_ALLOW forces it (the reference the
 *	rule names). When it is not, these cases do not pass silently: with
 *	SECCOMP_MASK_REQUIRED=1 they fail, else they are skipped, with a
 *	message naming what is missing (the kernel parameter, the CPU
 *	flags, the prctl value, the sysfs line). A harness that knows its
 *	machine cannot show one of them (TCG has no STIBP) may say so with
 *	SECCOMP_MASK_SPEC_SKIP=PR_SPEC_INDIRECT_BRANCH (a comma-separated
 *	list of the names): those cases are then skipped, with the same
 *	message, also with SECCOMP_MASK_REQUIRED=1.
 */

#include "common.h"

#include <pthread.h>

#ifndef PR_GET_SPECULATION_CTRL
#define PR_GET_SPECULATION_CTRL	52
#endif
#ifndef PR_SPEC_STORE_BYPASS
#define PR_SPEC_STORE_BYPASS	0
#endif
#ifndef PR_SPEC_INDIRECT_BRANCH
#define PR_SPEC_INDIRECT_BRANCH	1
#endif
#ifndef PR_SPEC_NOT_AFFECTED
#define PR_SPEC_NOT_AFFECTED	0
#define PR_SPEC_PRCTL		0x1UL
#define PR_SPEC_ENABLE		0x2UL
#define PR_SPEC_DISABLE		0x4UL
#define PR_SPEC_FORCE_DISABLE	0x8UL
#endif
#ifndef PR_SPEC_DISABLE_NOEXEC
#define PR_SPEC_DISABLE_NOEXEC	0x10UL
#endif

#define SPEC_OPEN	(PR_SPEC_PRCTL | PR_SPEC_ENABLE)
#define SPEC_FORCED	(PR_SPEC_PRCTL | PR_SPEC_FORCE_DISABLE)

#define VULN_DIR	"/sys/devices/system/cpu/vulnerabilities/"

/* A speculation control and how the kernel is told to tie it to seccomp. */
struct knob {
	int which;			/* PR_SPEC_* of PR_GET_SPECULATION_CTRL */
	const char *name;
	const char *param;		/* the kernel parameter */
	const char *config;		/* the Kconfig option of the mitigation */
	const char *sysfs;		/* its vulnerabilities file */
	bool sysfs_names_seccomp;	/* that file says "seccomp" in the mode */
	const char *cpu_flags[6];	/* /proc/cpuinfo flags it needs (any) */
};

/*
 * A knob, named after its PR_SPEC_* @w: the kernel parameter @param, the
 * Kconfig option @config, the vulnerabilities file @file (which names
 * seccomp with @names_seccomp) and the CPU flags, any of which it needs.
 */
#define KNOB(w, param_, config_, file, names_seccomp, ...) {		\
	.which = w,							\
	.name = #w,							\
	.param = param_,						\
	.config = config_,						\
	.sysfs = VULN_DIR file,						\
	.sysfs_names_seccomp = names_seccomp,				\
	.cpu_flags = { __VA_ARGS__ },					\
}

/*
 * The mitigations a seccomp install forces are x86's alone: only x86
 * defines arch_seccomp_spec_mitigate(), and on arm64 no install, of a
 * filter or of masks, changes a speculation control (SPEC_ALLOW is then
 * accepted and changes nothing, which flag.* checks). The ssb and ib
 * cases cannot apply to another build: they are compiled out of it.
 */
#ifdef X86_BUILD
static const struct knob ssb =
	KNOB(PR_SPEC_STORE_BYPASS, "spec_store_bypass_disable=seccomp",
	     "CONFIG_MITIGATION_SSB", "spec_store_bypass", true,
	     "ssbd", "virt_ssbd", "amd_ssbd", "spec_ctrl_ssbd", "ls_cfg_ssbd");

static const struct knob ib =
	KNOB(PR_SPEC_INDIRECT_BRANCH, "spectre_v2_user=seccomp",
	     "CONFIG_MITIGATION_SPECTRE_V2", "spectre_v2", false,
	     "ibpb", "stibp", "amd_ibpb", "amd_stibp", "intel_stibp");

/* The calling thread's state of @k, or -errno. */
static long spec_get(const struct knob *k)
{
	long v = prctl(PR_GET_SPECULATION_CTRL, k->which, 0, 0, 0);

	return v < 0 ? -errno : v;
}

/* Not read (yet): for the report of a case that failed before. */
#define SPEC_UNREAD	LONG_MIN

static void spec_decode(long v, char *buf, size_t len)
{
	static const char *const names[] = {
		"PR_SPEC_PRCTL", "PR_SPEC_ENABLE", "PR_SPEC_DISABLE",
		"PR_SPEC_FORCE_DISABLE", "PR_SPEC_DISABLE_NOEXEC",
	};
	size_t pos;
	int i;

	if (v == SPEC_UNREAD) {
		snprintf(buf, len, "(not read)");
		return;
	}
	if (v < 0) {
		snprintf(buf, len, "-1 (%s)", strerror(-v));
		return;
	}
	pos = snprintf(buf, len, "%#lx (", v);
	if (!v)
		pos += snprintf(buf + pos, len - pos, "PR_SPEC_NOT_AFFECTED");
	for (i = 0; i < 5 && pos < len; i++)
		if (v & (1L << i))
			pos += snprintf(buf + pos, len - pos, "%s%s",
					buf[pos - 1] == '(' ? "" : "|",
					names[i]);
	if (pos < len)
		snprintf(buf + pos, len - pos, ")");
}

/* A whole-word match of @word in the file @path (its first 64 KiB). */
static int file_has_word(const char *path, const char *word)
{
	static char buf[65536];
	size_t wlen = strlen(word);
	ssize_t n, off = 0;
	const char *p;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (off < (ssize_t)sizeof(buf) - 1 &&
	       (n = read(fd, buf + off, sizeof(buf) - 1 - off)) > 0)
		off += n;
	close(fd);
	buf[off] = '\0';
	for (p = buf; (p = strstr(p, word)); p += wlen)
		if ((p == buf || strchr(" \t\n:", p[-1])) &&
		    (!p[wlen] || strchr(" \t\n", p[wlen])))
			return 1;
	return 0;
}

/*
 * What a BPF filter installed without SECCOMP_FILTER_FLAG_SPEC_ALLOW does
 * to @k, in a child: the state afterwards, or -errno.
 */
static long spec_after_filter(const struct knob *k)
{
	long *shared = mmap(NULL, sizeof(long), PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long v = -ENOMEM;
	int status;
	pid_t pid;

	if (shared == MAP_FAILED)
		return -ENOMEM;
	*shared = -ECHILD;
	pid = fork();
	if (pid == 0) {
		if (set_nnp() || filter_install(0, NULL, 0))
			*shared = -errno;
		else
			*shared = spec_get(k);
		_exit(0);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid)
		v = *shared;
	munmap(shared, sizeof(long));
	return v;
}

/*
 * Is the effect of an install on @k observable here? If not, @why says
 * what is missing, with what the machine shows.
 */
static bool spec_observable(const struct knob *k, char *why, size_t len)
{
	char now[128], sysfs[256] = "(unreadable)", after[128], reason[512];
	long v = spec_get(k), f = 0;
	int i, has, pos;

	spec_decode(v, now, sizeof(now));
	read_file(k->sysfs, sysfs, sizeof(sysfs));
	reason[0] = '\0';
	/* The reference: what a filter without SPEC_ALLOW does. */
	if (v == SPEC_OPEN)
		f = spec_after_filter(k);
	if (v < 0)
		snprintf(reason, sizeof(reason),
			 "PR_GET_SPECULATION_CTRL(%s) fails", k->name);
	else if (v == PR_SPEC_NOT_AFFECTED)
		snprintf(reason, sizeof(reason),
			 "the kernel says the CPU is not affected (PR_SPEC_NOT_AFFECTED)");
	else if (v == PR_SPEC_ENABLE)
		snprintf(reason, sizeof(reason),
			 "the kernel runs no mitigation for it (PR_SPEC_ENABLE without PR_SPEC_PRCTL): the CPU has no control for it (see the flags below), or %s is off, or the parameter is missing",
			 k->config);
	else if (!(v & PR_SPEC_PRCTL))
		snprintf(reason, sizeof(reason),
			 "the mitigation is always on, not per task (no PR_SPEC_PRCTL)");
	else if (v != SPEC_OPEN)
		snprintf(reason, sizeof(reason),
			 "%s",
			 "this process is already mitigated before any install (run the test outside any seccomp filter and speculation prctl)");
	else if (k->sysfs_names_seccomp && !strstr(sysfs, "seccomp"))
		snprintf(reason, sizeof(reason),
			 "%s does not name seccomp (prctl-only mode)", k->sysfs);
	else if (f != SPEC_FORCED) {
		spec_decode(f, after, sizeof(after));
		snprintf(reason, sizeof(reason),
			 "a BPF filter installed without SECCOMP_FILTER_FLAG_SPEC_ALLOW leaves it at %s, %s",
			 after,
			 "not PR_SPEC_PRCTL|PR_SPEC_FORCE_DISABLE (the mode is prctl, not seccomp)");
	}
	if (!reason[0])
		return true;

	pos = snprintf(why, len,
		       "%s not in effect for %s: %s [PR_GET_SPECULATION_CTRL: %s; /proc/cmdline %s %s; /proc/cpuinfo flags:",
		       k->param, k->name, reason, now,
		       file_has_word("/proc/cmdline", k->param) == 1 ?
		       "has" : "lacks", k->param);
	for (i = 0; k->cpu_flags[i] && pos < (int)len; i++) {
		has = file_has_word("/proc/cpuinfo", k->cpu_flags[i]) == 1;
		pos += snprintf(why + pos, len - pos, " %s%s",
				has ? "" : "no ", k->cpu_flags[i]);
	}
	if (pos < (int)len)
		snprintf(why + pos, len - pos, "; %s: \"%s\"]", k->sysfs, sysfs);
	return false;
}

/* Does SECCOMP_MASK_SPEC_SKIP name @k? */
static bool spec_skip_allowed(const struct knob *k)
{
	const char *e = getenv("SECCOMP_MASK_SPEC_SKIP");
	size_t len = strlen(k->name);

	while (e && *e) {
		if (!strncmp(e, k->name, len) && (!e[len] || e[len] == ','))
			return true;
		e = strchr(e, ',');
		if (e)
			e++;
	}
	return false;
}

/*
 * False, with the test skipped or (SECCOMP_MASK_REQUIRED=1) failed, when
 * the effect on @k cannot be observed on this machine.
 */
static bool require_spec(struct __test_metadata *const _metadata,
			 const struct knob *k)
{
	char why[1000];

	if (spec_observable(k, why, sizeof(why)))
		return true;
	if (!mask_required() || spec_skip_allowed(k))
		SKIP(return false, "%s", why);
	ASSERT_TRUE(false) {
		TH_LOG("SECCOMP_MASK_REQUIRED=1: %s", why);
	}
	return false;
}

#endif /* X86_BUILD */

/*
 * A second thread that runs commands: 's' reads its speculation state
 * (of the cmd_thread's arg), 'm' its seccomp mode (child.h).
 */
static bool sibling_run(struct cmd_thread *s, char cmd)
{
	if (cmd != 's')
		return false;
	s->ret = prctl(PR_GET_SPECULATION_CTRL, s->arg, 0, 0, 0);
	if (s->ret < 0)
		s->ret = -errno;
	return true;
}

static int sibling_spec_allow_filter(void)
{
	return filter_install(SECCOMP_FILTER_FLAG_SPEC_ALLOW, NULL, 0);
}

/*
 * In a child: start @s, of speculation state @which, in mode 0 or, with
 * @filter, after it installed a filter with SECCOMP_FILTER_FLAG_SPEC_ALLOW;
 * its setup must succeed.
 */
static void sibling_start(struct cmd_thread *s, int which, bool filter)
{
	cmd_thread_start(s, filter ? sibling_spec_allow_filter : NULL,
			 sibling_run, which);
}

/* The mask of these tests: everything but getppid, this ABI only. */
static long install_spec_mask(bool via_prctl, unsigned int flags, bool all)
{
	struct mask m;

	if (all)
		mask_all(&m, SECCOMP_MASK_MAX_BITS);
	else
		mask_all_but(&m, __NR_getppid);
	if (via_prctl)
		return mask_prctl(&m);
	return mask_seccomp_self(flags, 0, &m);
}

/* SPEC_ALLOW is a flag like another: the mask is installed. */
FIXTURE(flag) {};

FIXTURE_VARIANT(flag) {
	unsigned int flags;
	bool sibling;		/* a second thread, which must take the masks */
	bool tighten;		/* a first install without the flag */
};

FIXTURE_VARIANT_ADD(flag, spec_allow) { .flags = SECCOMP_MASK_FLAG_SPEC_ALLOW };

FIXTURE_VARIANT_ADD(flag, tsync_and_spec_allow) {
	.flags = SECCOMP_MASK_FLAG_TSYNC | SECCOMP_MASK_FLAG_SPEC_ALLOW,
};

FIXTURE_VARIANT_ADD(flag, tsync_and_spec_allow_with_a_thread) {
	.flags = SECCOMP_MASK_FLAG_TSYNC | SECCOMP_MASK_FLAG_SPEC_ALLOW,
	.sibling = true,
};

FIXTURE_VARIANT_ADD(flag, spec_allow_in_a_tightening) {
	.flags = SECCOMP_MASK_FLAG_SPEC_ALLOW,
	.tighten = true,
};

FIXTURE_SETUP(flag)
{
	if (!require_mask(_metadata))
		return;
	if (variant->sibling)
		require_threads(_metadata);
}

FIXTURE_TEARDOWN(flag) {}

TEST_F(flag, is_accepted_and_installs)
{
	pid_t pid = fork_child(_metadata);

	if (pid == 0) {
		struct cmd_thread s;

		CHILD_ASSERT(set_nnp() == 0);
		if (variant->sibling)
			sibling_start(&s, PR_SPEC_STORE_BYPASS, false);
		if (variant->tighten)
			CHILD_ASSERT(install_spec_mask(false, 0, true) == 0);
		CHILD_ASSERT(install_spec_mask(false, variant->flags, false) == 0);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
		if (variant->sibling)
			CHILD_ASSERT(cmd_thread_ask(&s, 'm') == 3);
		CHILD_DENIED(syscall(__NR_getppid));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
}

#ifdef X86_BUILD
/* The effect on a speculation control. */
enum sib { SIB_NONE, SIB_MODE_0, SIB_FILTER };

struct spec_case {
	bool via_prctl;
	unsigned int flags;
	bool caller_filter;	/* the caller has a SPEC_ALLOW filter first */
	bool tighten;		/* a first install with SPEC_ALLOW */
	enum sib sib;
	bool forced;		/* expected: forced, else unchanged */
};

/*
 * ready: the setup found everything the case needs. The 6.1 harness runs
 * the test even after its setup skipped, so the test checks this.
 */
FIXTURE(spec) {
	bool ready;
};

FIXTURE_VARIANT(spec) {
	const struct knob *knob;
	const struct spec_case *c;
};

/*
 * The cases, each one for both knobs, and named so in the variants. The
 * first install forces the mitigation through seccomp(2) without
 * SPEC_ALLOW, through prctl(), from filter mode and as a tightening of a
 * SPEC_ALLOW install; SPEC_ALLOW keeps it open, from filter mode too;
 * with TSYNC the sibling (in mode 0 or with a filter) follows the caller.
 */
static const struct spec_case seccomp_without_flag_forces = {
	.flags = 0, .forced = true,
};

static const struct spec_case prctl_forces = {
	.via_prctl = true, .forced = true,
};

static const struct spec_case spec_allow_keeps = {
	.flags = SECCOMP_MASK_FLAG_SPEC_ALLOW, .forced = false,
};

static const struct spec_case from_filter_mode_forces = {
	.caller_filter = true, .forced = true,
};

static const struct spec_case from_filter_mode_spec_allow_keeps = {
	.caller_filter = true,
	.flags = SECCOMP_MASK_FLAG_SPEC_ALLOW, .forced = false,
};

static const struct spec_case tightening_without_flag_forces = {
	.tighten = true, .forced = true,
};

static const struct spec_case tsync_forces_mode_0_sibling = {
	.flags = SECCOMP_MASK_FLAG_TSYNC, .sib = SIB_MODE_0, .forced = true,
};

static const struct spec_case tsync_spec_allow_keeps_mode_0_sibling = {
	.flags = SECCOMP_MASK_FLAG_TSYNC | SECCOMP_MASK_FLAG_SPEC_ALLOW,
	.sib = SIB_MODE_0, .forced = false,
};

static const struct spec_case tsync_forces_filter_sibling = {
	.flags = SECCOMP_MASK_FLAG_TSYNC, .sib = SIB_FILTER, .forced = true,
};

static const struct spec_case tsync_spec_allow_keeps_filter_sibling = {
	.flags = SECCOMP_MASK_FLAG_TSYNC | SECCOMP_MASK_FLAG_SPEC_ALLOW,
	.sib = SIB_FILTER, .forced = false,
};

FIXTURE_VARIANT_ADD(spec, ssb_seccomp_without_flag_forces) {
	&ssb, &seccomp_without_flag_forces,
};

FIXTURE_VARIANT_ADD(spec, ssb_prctl_forces) {
	&ssb, &prctl_forces,
};

FIXTURE_VARIANT_ADD(spec, ssb_spec_allow_keeps) {
	&ssb, &spec_allow_keeps,
};

FIXTURE_VARIANT_ADD(spec, ssb_from_filter_mode_forces) {
	&ssb, &from_filter_mode_forces,
};

FIXTURE_VARIANT_ADD(spec, ssb_from_filter_mode_spec_allow_keeps) {
	&ssb, &from_filter_mode_spec_allow_keeps,
};

FIXTURE_VARIANT_ADD(spec, ssb_tightening_without_flag_forces) {
	&ssb, &tightening_without_flag_forces,
};

FIXTURE_VARIANT_ADD(spec, ssb_tsync_forces_mode_0_sibling) {
	&ssb, &tsync_forces_mode_0_sibling,
};

FIXTURE_VARIANT_ADD(spec, ssb_tsync_spec_allow_keeps_mode_0_sibling) {
	&ssb, &tsync_spec_allow_keeps_mode_0_sibling,
};

FIXTURE_VARIANT_ADD(spec, ssb_tsync_forces_filter_sibling) {
	&ssb, &tsync_forces_filter_sibling,
};

FIXTURE_VARIANT_ADD(spec, ssb_tsync_spec_allow_keeps_filter_sibling) {
	&ssb, &tsync_spec_allow_keeps_filter_sibling,
};

FIXTURE_VARIANT_ADD(spec, ib_seccomp_without_flag_forces) {
	&ib, &seccomp_without_flag_forces,
};

FIXTURE_VARIANT_ADD(spec, ib_prctl_forces) {
	&ib, &prctl_forces,
};

FIXTURE_VARIANT_ADD(spec, ib_spec_allow_keeps) {
	&ib, &spec_allow_keeps,
};

FIXTURE_VARIANT_ADD(spec, ib_from_filter_mode_forces) {
	&ib, &from_filter_mode_forces,
};

FIXTURE_VARIANT_ADD(spec, ib_from_filter_mode_spec_allow_keeps) {
	&ib, &from_filter_mode_spec_allow_keeps,
};

FIXTURE_VARIANT_ADD(spec, ib_tightening_without_flag_forces) {
	&ib, &tightening_without_flag_forces,
};

FIXTURE_VARIANT_ADD(spec, ib_tsync_forces_mode_0_sibling) {
	&ib, &tsync_forces_mode_0_sibling,
};

FIXTURE_VARIANT_ADD(spec, ib_tsync_spec_allow_keeps_mode_0_sibling) {
	&ib, &tsync_spec_allow_keeps_mode_0_sibling,
};

FIXTURE_VARIANT_ADD(spec, ib_tsync_forces_filter_sibling) {
	&ib, &tsync_forces_filter_sibling,
};

FIXTURE_VARIANT_ADD(spec, ib_tsync_spec_allow_keeps_filter_sibling) {
	&ib, &tsync_spec_allow_keeps_filter_sibling,
};

FIXTURE_SETUP(spec)
{
	if (!require_mask(_metadata))
		return;
	if (variant->c->sib != SIB_NONE && !require_threads(_metadata))
		return;
	self->ready = require_spec(_metadata, variant->knob);
}

FIXTURE_TEARDOWN(spec) {}

/* What the child saw, for the parent's report. */
struct spec_seen {
	long before, after, sib_before, sib_after;
};

TEST_F(spec, install)
{
	const struct spec_case *c = variant->c;
	const struct knob *k = variant->knob;
	struct spec_seen *seen;
	long want = c->forced ? SPEC_FORCED : SPEC_OPEN;
	char b[4][128], w[128];
	int status;
	pid_t pid;

	if (!self->ready)
		return;
	seen = mmap(NULL, sizeof(*seen), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(seen != MAP_FAILED);
	seen->before = SPEC_UNREAD;
	seen->after = SPEC_UNREAD;
	seen->sib_before = SPEC_UNREAD;
	seen->sib_after = SPEC_UNREAD;
	pid = fork_child(_metadata);
	if (pid == 0) {
		struct cmd_thread s;

		CHILD_ASSERT(set_nnp() == 0);
		if (c->caller_filter)
			CHILD_ASSERT(filter_install(SECCOMP_FILTER_FLAG_SPEC_ALLOW, NULL, 0) == 0);
		if (c->sib != SIB_NONE) {
			sibling_start(&s, k->which, c->sib == SIB_FILTER);
			seen->sib_before = cmd_thread_ask(&s, 's');
			CHILD_ASSERT(seen->sib_before == SPEC_OPEN);
			CHILD_ASSERT(cmd_thread_ask(&s, 'm') ==
				     (c->sib == SIB_FILTER ? 2 : 0));
		}
		if (c->tighten)
			CHILD_ASSERT(install_spec_mask(false,
						       SECCOMP_MASK_FLAG_SPEC_ALLOW,
						       true) == 0);
		seen->before = spec_get(k);
		CHILD_ASSERT(seen->before == SPEC_OPEN);

		CHILD_ASSERT(install_spec_mask(c->via_prctl, c->flags, false) == 0);

		seen->after = spec_get(k);
		if (c->sib != SIB_NONE)
			seen->sib_after = cmd_thread_ask(&s, 's');
		CHILD_ASSERT(seen->after == want);
		if (c->sib != SIB_NONE) {
			CHILD_ASSERT(seen->sib_after == want);
			/* The sibling took the masks. */
			CHILD_ASSERT(cmd_thread_ask(&s, 'm') ==
				     (c->sib == SIB_FILTER ? 2 : 3));
		}
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) ==
			     (c->caller_filter ? 2 : 3));
		/*
		 * A version 2 kernel forces the mitigation on a first prctl()
		 * install too: a version 3 set with SPEC_ALLOW, which it
		 * refuses, tells them apart.
		 */
		if (c->via_prctl)
			CHILD_ASSERT(install_spec_mask(false,
						       SECCOMP_MASK_FLAG_SPEC_ALLOW,
						       false) == 0);
		CHILD_DENIED(syscall(__NR_getppid));
		_exit(0);
	}
	status = child_wait(_metadata, pid);
	if (!denied_call_killed(_metadata, status, __LINE__)) {
		spec_decode(seen->before, b[0], sizeof(b[0]));
		spec_decode(seen->after, b[1], sizeof(b[1]));
		spec_decode(seen->sib_before, b[2], sizeof(b[2]));
		spec_decode(seen->sib_after, b[3], sizeof(b[3]));
		spec_decode(want, w, sizeof(w));
		TH_LOG("%s: caller %s -> %s, sibling %s -> %s; expected %s after",
		       k->name, b[0], b[1], b[2], b[3], w);
		ASSERT_TRUE(false);
	}
	munmap(seen, sizeof(*seen));
}

#endif /* X86_BUILD */

TEST_HARNESS_MAIN
