/*
 * replay.c - runs a fuzz target's entry point over files, without
 * libFuzzer, so the regression inputs are replayed by make check (and
 * under make check-asan with the sanitizers watching).
 *
 *   replay_<target> FILE|DIR ...
 *
 * Prints one TAP line per input; a crash or a broken property aborts,
 * which fails the run.  Exit 0 when every input went through.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int count;

static int
replay_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *data = NULL;
	size_t len = 0, cap = 0, n;

	if (fp == NULL) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	do {
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 65536;
			data = realloc(data, cap);
			if (data == NULL) {
				fputs("replay: out of memory\n", stderr);
				exit(2);
			}
		}
		n = fread(data + len, 1, cap - len, fp);
		len += n;
	} while (n > 0);
	if (ferror(fp)) {
		fprintf(stderr, "replay: %s: read error\n", path);
		fclose(fp);
		free(data);
		return -1;
	}
	fclose(fp);
	/* libFuzzer hands a buffer of exactly the input's size. */
	{
		unsigned char *exact = malloc(len ? len : 1);

		if (exact == NULL) {
			fputs("replay: out of memory\n", stderr);
			exit(2);
		}
		if (len)
			memcpy(exact, data, len);
		free(data);
		fflush(stdout);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	printf("ok %d - %s\n", ++count, path);
	fflush(stdout);
	return 0;
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory's files in name order, so a failure is reproducible. */
static int
replay_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (d == NULL) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		size_t len;

		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			names = realloc(names, cap * sizeof *names);
			if (names == NULL) {
				fputs("replay: out of memory\n", stderr);
				exit(2);
			}
		}
		len = strlen(dir) + strlen(e->d_name) + 2;
		names[n] = malloc(len);
		if (names[n] == NULL) {
			fputs("replay: out of memory\n", stderr);
			exit(2);
		}
		snprintf(names[n], len, "%s/%s", dir, e->d_name);
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof *names, compare_names);
	for (size_t i = 0; i < n; i++) {
		struct stat st;

		if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode) &&
		    replay_file(names[i]) < 0)
			rc = -1;
		free(names[i]);
	}
	free(names);
	return rc;
}

int
main(int argc, char **argv)
{
	int rc = 0;

	if (argc < 2) {
		fputs("usage: replay FILE|DIR ...\n", stderr);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) < 0) {
			fprintf(stderr, "replay: %s: %s\n", argv[i],
				strerror(errno));
			rc = 1;
		} else if (S_ISDIR(st.st_mode) ? replay_dir(argv[i]) < 0
					       : replay_file(argv[i]) < 0) {
			rc = 1;
		}
	}
	printf("1..%d\n", count);
	return rc;
}
