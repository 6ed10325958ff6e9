/*
 * fuzz_attr.c - sp-attr's scanner over any bytes, read as one file with
 * buffers of three sizes.
 *
 * The first byte says what the file is named: a session's transcript
 * (<uuid>.jsonl), a session's output kept apart, or a plain log; the rest
 * is its content.  Properties: the claims are the same whatever the
 * buffer (a line cut across blocks, or longer than the buffer, is read as
 * one read whole); every claim holds a job id of 1 to 2^32 - 1, a cluster
 * name of at most ATTR_CLUSTER_MAX name bytes, and a source that is the
 * file or claude-code: and a session id of a UUID's letters.
 */
#define _GNU_SOURCE	/* memfd_create */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sp.h"
#include "fuzz.h"
#include "../../src/sp-attr/attr.h"

static const char *const paths[] = {
	"p/3f1c2a7e-5b6d-4e8f-9a0b-1c2d3e4f5a6b.jsonl",
	"p/3f1c2a7e-5b6d-4e8f-9a0b-1c2d3e4f5a6b/tool-results/t.txt",
	"logs/driver.log",
};

static int
name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

static void
check_claims(const struct attr_claims *c, const char *path)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct attr_claim *x = &c->v[i];
		const char *src = sp_intern_str(&c->sources, x->source);

		FUZZ_CHECK(x->job > 0, "a job id is above 0");
		if (x->cluster >= 0) {
			const char *cl = sp_intern_str(&c->clusters,
						       (size_t)x->cluster);
			size_t n = strlen(cl);

			FUZZ_CHECK(n > 0 && n <= ATTR_CLUSTER_MAX,
				   "a cluster name is 1 to 64 bytes");
			for (size_t k = 0; k < n; k++)
				FUZZ_CHECK(name_char(cl[k]),
					   "a cluster name has name bytes only");
		}
		if (strncmp(src, "claude-code:", 12) == 0) {
			FUZZ_CHECK(src[12] != '\0', "a session id is not empty");
			for (const char *p = src + 12; *p; p++)
				FUZZ_CHECK(name_char(*p) && *p != '.',
					   "a session id has a UUID's letters");
		} else {
			FUZZ_CHECK(strcmp(src, path) == 0,
				   "any other source is the file");
			FUZZ_CHECK(x->dir < 0, "only a session has a directory");
		}
	}
}

/* The claims of data read as path with a buffer of cap bytes, dumped. */
static void
scan(const uint8_t *data, size_t size, const char *path, size_t cap,
     struct sp_buf *out)
{
	struct attr_claims c;
	struct attr_stats st = { 0 };
	/* A file in memory: the scanner reads a descriptor. */
	int fd = memfd_create("fuzz_attr", 0);

	FUZZ_CHECK(fd >= 0, "a file in memory");
	FUZZ_CHECK(size == 0 || write(fd, data, size) == (ssize_t)size,
		   "the input written");
	FUZZ_CHECK(lseek(fd, 0, SEEK_SET) == 0, "the input rewound");
	attr_claims_init(&c);
	FUZZ_CHECK(attr_scan_fd(&c, fd, path, cap, &st) == 0,
		   "a file is read");
	check_claims(&c, path);
	sp_buf_clear(out);
	attr_claims_dump(&c, out);
	attr_claims_free(&c);
	sp_buf_free(&st.cut_first);
	close(fd);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t caps[] = { ATTR_BUF_MIN, ATTR_BUF_MIN + 61,
		ATTR_BUF_DEFAULT };
	struct sp_buf first = { 0 }, again = { 0 };
	const char *path;

	if (size == 0)
		return 0;
	path = paths[data[0] % (sizeof paths / sizeof paths[0])];
	scan(data + 1, size - 1, path, caps[0], &first);
	for (size_t i = 1; i < sizeof caps / sizeof caps[0]; i++) {
		scan(data + 1, size - 1, path, caps[i], &again);
		FUZZ_CHECK(strcmp(sp_buf_str(&first), sp_buf_str(&again)) == 0,
			   "the same claims whatever the buffer");
	}
	sp_buf_free(&first);
	sp_buf_free(&again);
	return 0;
}
