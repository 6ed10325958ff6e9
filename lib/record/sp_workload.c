#include <string.h>

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
	sp_buf_adds(out, gpu < 0 ? "/?/" : gpu ? "/gpu/" : "/cpu/");
	add_part(out, workload, wlen);
}

void
sp_workload_of(struct sp_buf *wl, struct sp_buf *key, const char *name,
	       size_t namelen, const char *user, size_t userlen,
	       const char *partition, size_t partlen, int gpu)
{
	sp_buf_clear(wl);
	sp_buf_clear(key);
	sp_workload_fold(wl, name, namelen);
	sp_workload_key(key, user, userlen, partition, partlen, gpu,
			sp_buf_str(wl), wl->len);
}

int
sp_workload_key_split(const char *key, size_t n, struct sp_wlkey *k)
{
	const char *end = key + n, *cut[3];
	int found = 0;

	memset(k, 0, sizeof *k);
	/* User and partition hold no '/'; the workload, last, may. */
	for (const char *p = key; p < end && found < 3; p++)
		if (*p == '/')
			cut[found++] = p;
	if (found < 3)
		return -1;
	k->user = key;
	k->userlen = (size_t)(cut[0] - key);
	k->partition = cut[0] + 1;
	k->partlen = (size_t)(cut[1] - cut[0] - 1);
	k->kind = cut[1] + 1;
	k->kindlen = (size_t)(cut[2] - cut[1] - 1);
	k->workload = cut[2] + 1;
	k->wlen = (size_t)(end - cut[2] - 1);
	return 0;
}
