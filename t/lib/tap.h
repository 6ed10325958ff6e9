/*
 * tap.h - the Test Anything Protocol for the C unit tests, after
 * rra/c-tap-harness's basic.h: plan, ok, is_int, is_double, is_string.
 */
#ifndef TAP_H
#define TAP_H

#include <stddef.h>

void plan(int n);
void plan_lazy(void);		/* prints the plan at exit */
int ok(int pass, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int is_int(long long want, long long got, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Equal within tol; two NaNs are equal (both unknown). */
int is_double(double want, double got, double tol, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int is_string(const char *want, const char *got, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void skip_all(const char *why) __attribute__((noreturn));
/* The exit status prove expects: 0 when every test passed. */
int done_testing(void);
/* Directory of the shared fixtures, or NULL (and why) when absent. */
const char *fixtures_dir(void);

#endif
