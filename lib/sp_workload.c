#include "sp_workload.h"

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

void
sp_workload_fold(struct sp_buf *out, const char *name, size_t n)
{
	size_t i = 0;

	if (n == 0) {
		sp_buf_addc(out, '?');
		return;
	}
	while (i < n) {
		if (is_digit(name[i])) {
			sp_buf_addc(out, '#');
			while (i < n && is_digit(name[i]))
				i++;
		} else {
			sp_buf_addc(out, name[i++]);
		}
	}
}

int
sp_workload_has_letter(const char *fold, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = fold[i];
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
			return 1;
	}
	return 0;
}

static void
add_part(struct sp_buf *out, const char *s, size_t n)
{
	if (n == 0)
		sp_buf_addc(out, '?');
	else
		sp_buf_add(out, s, n);
}

void
sp_workload_key(struct sp_buf *out, const char *user, size_t userlen,
		const char *partition, size_t partlen, int gpu,
		const char *workload, size_t wlen)
{
	add_part(out, user, userlen);
	sp_buf_addc(out, '/');
	add_part(out, partition, partlen);
	sp_buf_adds(out, gpu ? "/gpu/" : "/cpu/");
	add_part(out, workload, wlen);
}
