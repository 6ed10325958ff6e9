/*
 * walk.c - the files to read: those named, and every regular file under
 * a directory named, in name order.  Links are followed, but a directory
 * or a file is read once however many ways lead to it, so a link back up
 * the tree ends nothing and repeats nothing.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sp.h"
#include "attr.h"

struct walk {
	struct attr_claims *claims;
	size_t bufcap;
	struct attr_stats *st;
	struct sp_intern seen;		/* (device, inode) of what was read */
};

/* 1 the first time this object is met. */
static int
first_visit(struct walk *w, const struct stat *sb)
{
	char key[sizeof sb->st_dev + sizeof sb->st_ino];
	size_t before = w->seen.n;

	memcpy(key, &sb->st_dev, sizeof sb->st_dev);
	memcpy(key + sizeof sb->st_dev, &sb->st_ino, sizeof sb->st_ino);
	sp_intern(&w->seen, key, sizeof key);
	return w->seen.n > before;
}

static void
read_file(struct walk *w, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		sp_die(SP_EXIT_USAGE, "%s:", path);
	if (attr_scan_fd(w->claims, fd, path, w->bufcap, w->st) < 0)
		sp_die(SP_EXIT_USAGE, "%s:", path);
	close(fd);
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk_dir(struct walk *w, const char *path);

/* One entry met inside a directory: only directories and files. */
static void
entry(struct walk *w, const char *path)
{
	struct stat sb;

	if (stat(path, &sb) < 0) {
		if (errno == ENOENT)
			return;		/* a link to nothing */
		sp_die(SP_EXIT_USAGE, "%s:", path);
	}
	if (S_ISDIR(sb.st_mode)) {
		if (first_visit(w, &sb))
			walk_dir(w, path);
	} else if (S_ISREG(sb.st_mode) && first_visit(w, &sb)) {
		read_file(w, path);
	}
}

static void
walk_dir(struct walk *w, const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, plen = strlen(path);
	struct sp_buf child = { 0 };

	if (d == NULL)
		sp_die(SP_EXIT_USAGE, "%s:", path);
	errno = 0;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		names = sp_xgrow(names, &cap, n + 1, sizeof *names);
		names[n++] = sp_xstrdup(e->d_name);
	}
	if (errno != 0)
		sp_die(SP_EXIT_USAGE, "%s:", path);
	closedir(d);
	sp_sort(names, n, sizeof *names, by_name);
	for (size_t i = 0; i < n; i++) {
		sp_buf_clear(&child);
		/* Under ".", a file is named as find would not: "logs/a". */
		if (strcmp(path, ".") != 0) {
			sp_buf_add(&child, path, plen);
			if (plen == 0 || path[plen - 1] != '/')
				sp_buf_addc(&child, '/');
		}
		sp_buf_adds(&child, names[i]);
		entry(w, child.p);
		free(names[i]);
	}
	free(names);
	sp_buf_free(&child);
}

void
attr_walk(struct attr_claims *c, char *const *paths, size_t npaths,
	  size_t bufcap, struct attr_stats *st)
{
	struct walk w;

	memset(&w, 0, sizeof w);
	w.claims = c;
	w.bufcap = bufcap;
	w.st = st;
	for (size_t i = 0; i < npaths; i++) {
		struct stat sb;

		/* Named: read whatever it is (a pipe too), once. */
		if (stat(paths[i], &sb) < 0)
			sp_die(SP_EXIT_USAGE, "%s:", paths[i]);
		if (!first_visit(&w, &sb))
			continue;
		if (S_ISDIR(sb.st_mode))
			walk_dir(&w, paths[i]);
		else
			read_file(&w, paths[i]);
	}
	sp_intern_free(&w.seen);
}
