#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sp_util.h"
#include "sp_const.h"

static const char *progname = "slurmpast";

void
sp_setprog(const char *argv0)
{
	const char *slash;

	if (argv0 == NULL || *argv0 == '\0')
		return;
	slash = strrchr(argv0, '/');
	progname = slash ? slash + 1 : argv0;
}

const char *
sp_progname(void)
{
	return progname;
}

static void
vmessage(const char *fmt, va_list ap)
{
	int saved = errno;
	size_t len = strlen(fmt);

	fflush(stdout);
	fprintf(stderr, "%s: ", progname);
	vfprintf(stderr, fmt, ap);
	if (len > 0 && fmt[len - 1] == ':')
		fprintf(stderr, " %s", strerror(saved));
	fputc('\n', stderr);
}

void
sp_vdie(int status, const char *fmt, va_list ap)
{
	vmessage(fmt, ap);
	exit(status);
}

void
sp_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sp_vdie(status, fmt, ap);
}

void
sp_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
}

static void
out_of_memory(void)
{
	/* No allocation here: the message must get out when nothing else can. */
	fputs(progname, stderr);
	fputs(": out of memory\n", stderr);
	exit(SP_EXIT_USAGE);
}

void *
sp_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		out_of_memory();
	return p;
}

void *
sp_xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (p == NULL)
		out_of_memory();
	return p;
}

void *
sp_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		out_of_memory();
	return q;
}

void *
sp_xgrow(void *p, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;

	if (need <= *cap)
		return p;
	while (n < need) {
		if (n > ((size_t)-1) / 2 / elem)
			out_of_memory();
		n *= 2;
	}
	if (n > ((size_t)-1) / elem)
		out_of_memory();
	p = sp_xrealloc(p, n * elem);
	*cap = n;
	return p;
}

char *
sp_xstrdup(const char *s)
{
	return sp_xstrndup(s, strlen(s));
}

char *
sp_xstrndup(const char *s, size_t n)
{
	char *p = sp_xmalloc(n + 1);

	/* An empty slice may have no storage behind it (s NULL). */
	if (n > 0)
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void
sp_die_unknown_option(int short_opt, const char *arg)
{
	if (short_opt != 0)
		sp_die(SP_EXIT_USAGE, "unknown option '-%c' (see %s --help)",
		       short_opt, progname);
	sp_die(SP_EXIT_USAGE, "unknown option '%s' (see %s --help)", arg,
	       progname);
}

void
sp_stdout_init(void)
{
	/*
	 * stdio writes a pipe or file in st_blksize pieces (4 KiB): at a
	 * few hundred bytes a record that is a system call every few
	 * records.  A terminal keeps its line buffering.
	 */
	static char outbuf[1 << 16];

	/* A reader that went away (| head) ends us quietly, as cat would. */
	signal(SIGPIPE, SIG_DFL);
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
}

void
sp_stdout_close(void)
{
	int failed, saved;

	errno = 0;
	failed = fflush(stdout) != 0;
	saved = errno;
	/*
	 * A write that failed earlier leaves only the error flag: errno is
	 * long gone, and "Success" would be a lie.  Say what a full disk
	 * says when we cannot know better.
	 */
	if (!failed && ferror(stdout)) {
		failed = 1;
		saved = EIO;
	}
	if (fclose(stdout) != 0 && !failed) {
		failed = 1;
		saved = errno;
	}
	if (failed) {
		errno = saved ? saved : EIO;
		sp_die(SP_EXIT_USAGE, "<stdout>:");
	}
}

int
sp_strtol_full(const char *s, long *out)
{
	char *end;
	long v;

	if (s == NULL || *s == '\0')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	*out = v;
	return 0;
}

int
sp_strtod_full(const char *s, double *out)
{
	char *end;
	double v;

	if (s == NULL || *s == '\0')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || *end != '\0' || v != v)
		return -1;
	*out = v;
	return 0;
}

void
sp_print_version(void)
{
	printf("%s %s\n", progname, SP_VERSION);
}

void
sp_sort(void *base, size_t n, size_t size,
	int (*cmp)(const void *, const void *))
{
	/* qsort(NULL, 0, ...) is undefined, and an empty list is common. */
	if (n > 1)
		qsort(base, n, size, cmp);
}

const char *
sp_user_name(void)
{
	const char *u = getenv("USER");
	struct passwd *pw;

	if (u != NULL && *u)
		return u;
	pw = getpwuid(getuid());
	if (pw != NULL && pw->pw_name != NULL && *pw->pw_name)
		return pw->pw_name;
	return NULL;
}
