#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

static int tests_run;
static int tests_failed;
static int lazy;

void
plan(int n)
{
	printf("1..%d\n", n);
	fflush(stdout);
}

void
plan_lazy(void)
{
	lazy = 1;
}

static int
report(int pass, const char *fmt, va_list ap)
{
	tests_run++;
	if (!pass)
		tests_failed++;
	printf("%sok %d - ", pass ? "" : "not ", tests_run);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	return pass;
}

int
ok(int pass, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(pass, fmt, ap);
	va_end(ap);
	return pass;
}

int
is_int(long long want, long long got, const char *fmt, ...)
{
	va_list ap;
	int pass = want == got;

	va_start(ap, fmt);
	report(pass, fmt, ap);
	va_end(ap);
	if (!pass)
		diag("wanted %lld, got %lld", want, got);
	return pass;
}

int
is_double(double want, double got, double tol, const char *fmt, ...)
{
	va_list ap;
	int pass = (isnan(want) && isnan(got)) || fabs(want - got) <= tol;

	va_start(ap, fmt);
	report(pass, fmt, ap);
	va_end(ap);
	if (!pass)
		diag("wanted %.17g, got %.17g", want, got);
	return pass;
}

int
is_string(const char *want, const char *got, const char *fmt, ...)
{
	va_list ap;
	int pass;

	if (want == NULL || got == NULL)
		pass = want == got;
	else
		pass = strcmp(want, got) == 0;
	va_start(ap, fmt);
	report(pass, fmt, ap);
	va_end(ap);
	if (!pass)
		diag("wanted \"%s\", got \"%s\"", want ? want : "(null)",
		     got ? got : "(null)");
	return pass;
}

void
diag(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

void
skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	exit(0);
}

int
done_testing(void)
{
	if (lazy)
		printf("1..%d\n", tests_run);
	return tests_failed ? 1 : 0;
}

const char *
fixtures_dir(void)
{
	static char path[4096];
	const char *top = getenv("SP_TOP");

	snprintf(path, sizeof path, "%s/../shared/fixtures", top ? top : ".");
	if (access(path, R_OK) != 0)
		return NULL;
	return path;
}
