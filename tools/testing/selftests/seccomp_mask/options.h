/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seccomp mask mode selftests: the options of the programs with a main()
 * of their own (seccomp_mask_benchmark, seccomp_mask_fuzz,
 * seccomp_mask_lifetime). An option is a letter with a value (or a flag
 * without one) and, for some, the value of an environment variable, which
 * is taken first and which the option overrides. Include it after
 * ../kselftest.h.
 */

#ifndef _SELFTESTS_SECCOMP_MASK_OPTIONS_H
#define _SELFTESTS_SECCOMP_MASK_OPTIONS_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The type of an option's value, and how its text is read. */
enum opt_type {
	OPT_INT,	/* int: atoi() */
	OPT_LONG,	/* long: atol() */
	OPT_COUNT,	/* long: a whole number >= 0, anything else fails */
	OPT_ULL,	/* unsigned long long: strtoull(s, NULL, 0) */
	OPT_U64,	/* uint64_t: strtoull(s, NULL, 0) */
	OPT_DOUBLE,	/* double: atof() */
	OPT_STR,	/* const char *: the text itself */
	OPT_FLAG,	/* int: 1, and the option takes no value */
};

/*
 * -@letter, and @env, the value of its environment variable (getenv():
 * NULL when unset, or when the option has none): it goes to @val.
 */
struct opt {
	char letter;
	enum opt_type type;
	void *val;
	const char *env;
};

/* Set @o from the text @s, which @what names; a wrong count fails. */
static inline void opt_set(const struct opt *o, const char *what,
			   const char *s)
{
	char *end;
	long n;

	switch (o->type) {
	case OPT_INT:
		*(int *)o->val = atoi(s);
		break;
	case OPT_LONG:
		*(long *)o->val = atol(s);
		break;
	case OPT_COUNT:
		errno = 0;
		n = strtol(s, &end, 0);
		if (errno || end == s || *end || n < 0)
			ksft_exit_fail_msg("%s '%s' is not a count\n", what, s);
		*(long *)o->val = n;
		break;
	case OPT_ULL:
		*(unsigned long long *)o->val = strtoull(s, NULL, 0);
		break;
	case OPT_U64:
		*(uint64_t *)o->val = strtoull(s, NULL, 0);
		break;
	case OPT_DOUBLE:
		*(double *)o->val = atof(s);
		break;
	case OPT_STR:
		*(const char **)o->val = s;
		break;
	case OPT_FLAG:
		*(int *)o->val = 1;
		break;
	}
}

/*
 * The @n options @opts: the values of their environment variables (an
 * empty one is unset for an OPT_COUNT), then the options of @argv,
 * through getopt(), which leaves optind at the first argument that is not
 * an option. 0, or -1 at an unknown option.
 */
static inline int opts_parse(int argc, char **argv, const struct opt *opts,
			     size_t n)
{
	char letters[64], what[32];
	size_t i, len = 0;
	const char *e;
	int c;

	for (i = 0; i < n && len + 3 <= sizeof(letters); i++) {
		e = opts[i].env;
		snprintf(what, sizeof(what), "the environment's -%c",
			 opts[i].letter);
		if (e && (*e || opts[i].type != OPT_COUNT))
			opt_set(&opts[i], what, e);
		letters[len++] = opts[i].letter;
		if (opts[i].type != OPT_FLAG)
			letters[len++] = ':';
	}
	letters[len] = '\0';
	while ((c = getopt(argc, argv, letters)) != -1) {
		for (i = 0; i < n && opts[i].letter != c; i++)
			;
		if (i == n)
			return -1;
		snprintf(what, sizeof(what), "-%c", c);
		opt_set(&opts[i], what, optarg);
	}
	return 0;
}

#endif /* _SELFTESTS_SECCOMP_MASK_OPTIONS_H */
