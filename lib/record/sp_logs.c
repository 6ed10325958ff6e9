#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sp_const.h"
#include "sp_hostlist.h"
#include "sp_intern.h"
#include "sp_logs.h"
#include "sp_record.h"
#include "sp_units.h"

/* ---------------------------------------------------------------- */
/* A string set with a value per key: folder listings and claims.     */

struct sp_strset {
	char **keys;
	size_t *vals;
	size_t cap;		/* a power of two, or 0 */
	size_t n;
};

static size_t
str_hash(const char *s)
{
	size_t h = 14695981039346656037ULL & (size_t)-1;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * (1099511628211ULL & (size_t)-1);
	return h;
}

static size_t *
set_slot(struct sp_strset *set, const char *key, int *found)
{
	size_t i;

	*found = 0;
	if (set->cap == 0)
		return NULL;
	for (i = str_hash(key) & (set->cap - 1); set->keys[i] != NULL;
	     i = (i + 1) & (set->cap - 1)) {
		if (strcmp(set->keys[i], key) == 0) {
			*found = 1;
			return &set->vals[i];
		}
	}
	return &set->vals[i];
}

static int
set_get(struct sp_strset *set, const char *key, size_t *val)
{
	int found;
	size_t *slot = set_slot(set, key, &found);

	if (found && val != NULL)
		*val = *slot;
	return found;
}

static void set_put(struct sp_strset *set, const char *key, size_t val);

static void
set_grow(struct sp_strset *set)
{
	struct sp_strset old = *set;

	set->cap = old.cap ? old.cap * 2 : 64;
	set->keys = sp_xcalloc(set->cap, sizeof *set->keys);
	set->vals = sp_xcalloc(set->cap, sizeof *set->vals);
	set->n = 0;
	for (size_t i = 0; i < old.cap; i++) {
		if (old.keys[i] != NULL) {
			set_put(set, old.keys[i], old.vals[i]);
			free(old.keys[i]);
		}
	}
	free(old.keys);
	free(old.vals);
}

static void
set_put(struct sp_strset *set, const char *key, size_t val)
{
	int found;
	size_t *slot;

	if ((set->n + 1) * 2 > set->cap)
		set_grow(set);
	slot = set_slot(set, key, &found);
	if (!found) {
		set->keys[slot - set->vals] = sp_xstrdup(key);
		set->n++;
	}
	*slot = val;
}

static void
set_free(struct sp_strset *set)
{
	if (set == NULL)
		return;
	for (size_t i = 0; i < set->cap; i++)
		free(set->keys[i]);
	free(set->keys);
	free(set->vals);
	free(set);
}

/* ---------------------------------------------------------------- */
/* Folder listings: only regular files that look like logs are kept.  */

struct logent {
	char *name;
	int64_t mtime;		/* seconds since the epoch */
	double size;
};

struct sp_logdir {
	char *path;
	struct logent *e;
	size_t n;
	size_t cap;
};

/* .err before .out before .log: the error stream explains a failure. */
static int
log_ext_rank(const char *name)
{
	size_t n = strlen(name);

	if (n < 5)
		return -1;
	if (strcmp(name + n - 4, ".err") == 0)
		return 0;
	if (strcmp(name + n - 4, ".out") == 0)
		return 1;
	if (strcmp(name + n - 4, ".log") == 0)
		return 2;
	return -1;
}

static enum sp_log_role
role_of_name(const char *name)
{
	switch (log_ext_rank(name)) {
	case 0:
		return SP_ROLE_ERROR;
	case 1:
		return SP_ROLE_OUTPUT;
	default:
		return SP_ROLE_LOG;
	}
}

static void
join_path(struct sp_buf *b, const char *dir, const char *name)
{
	sp_buf_clear(b);
	sp_buf_adds(b, dir);
	if (b->len > 0 && b->p[b->len - 1] != '/' && name[0] != '\0')
		sp_buf_addc(b, '/');
	sp_buf_adds(b, name);
}

static int
ent_cmp(const void *a, const void *b)
{
	return strcmp(((const struct logent *)a)->name,
		      ((const struct logent *)b)->name);
}

static struct sp_logdir *
read_dir(const char *path)
{
	struct sp_logdir *d = sp_xcalloc(1, sizeof *d);
	struct sp_buf full = { 0 };
	struct dirent *de;
	struct stat st;
	DIR *dp;

	d->path = sp_xstrdup(path);
	if ((dp = opendir(path)) == NULL)
		return d;
	while ((de = readdir(dp)) != NULL) {
		if (log_ext_rank(de->d_name) < 0)
			continue;
		join_path(&full, path, de->d_name);
		if (stat(full.p, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		d->e = sp_xgrow(d->e, &d->cap, d->n + 1, sizeof *d->e);
		d->e[d->n].name = sp_xstrdup(de->d_name);
		d->e[d->n].mtime = (int64_t)st.st_mtime;
		d->e[d->n].size = (double)st.st_size;
		d->n++;
	}
	closedir(dp);
	sp_buf_free(&full);
	/* readdir's order is the file system's: sort so results repeat. */
	if (d->n > 1)
		sp_sort(d->e, d->n, sizeof *d->e, ent_cmp);
	return d;
}

static struct sp_logdir *
dir_get(struct sp_logctx *c, const char *path)
{
	size_t i;

	if (set_get(c->cache_index, path, &i))
		return c->cache[i];
	c->cache = sp_xgrow(c->cache, &c->cachecap, c->ncache + 1,
			    sizeof *c->cache);
	c->cache[c->ncache] = read_dir(path);
	set_put(c->cache_index, path, c->ncache);
	return c->cache[c->ncache++];
}

static void
dir_free(struct sp_logdir *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->e[i].name);
	free(d->e);
	free(d->path);
	free(d);
}

/* ---------------------------------------------------------------- */

void
sp_logctx_init(struct sp_logctx *c, int search_cwd)
{
	memset(c, 0, sizeof *c);
	c->cache_index = sp_xcalloc(1, sizeof *c->cache_index);
	c->claimed = sp_xcalloc(1, sizeof *c->claimed);
	if (search_cwd) {
		char *cwd = getcwd(NULL, 0);

		if (cwd != NULL) {
			c->cwd = sp_xstrdup(cwd);
			free(cwd);
		}
	}
}

void
sp_logctx_add_dir(struct sp_logctx *c, const char *dir)
{
	c->dirs = sp_xrealloc(c->dirs, (c->ndirs + 1) * sizeof *c->dirs);
	c->dirs[c->ndirs++] = sp_xstrdup(dir);
}

void
sp_logctx_free(struct sp_logctx *c)
{
	for (size_t i = 0; i < c->ndirs; i++)
		free(c->dirs[i]);
	free(c->dirs);
	for (size_t i = 0; i < c->ncache; i++)
		dir_free(c->cache[i]);
	free(c->cache);
	free(c->cwd);
	set_free(c->cache_index);
	set_free(c->claimed);
	memset(c, 0, sizeof *c);
}

/* ---------------------------------------------------------------- */
/* Names                                                              */

const char *
sp_log_status_name(enum sp_log_status s)
{
	switch (s) {
	case SP_LOG_FOUND:
		return "found";
	case SP_LOG_ABSENT:
		return "absent";
	case SP_LOG_UNREADABLE:
		return "unreadable";
	case SP_LOG_DISCARDED:
		return "discarded";
	case SP_LOG_SPECIAL:
		return "special";
	case SP_LOG_UNKNOWN:
		return "unknown";
	case SP_LOG_NOT_LOOKED:
		break;
	}
	return NULL;
}

const char *
sp_log_status_text(enum sp_log_status s)
{
	switch (s) {
	case SP_LOG_FOUND:
		return "found";
	case SP_LOG_ABSENT:
		return "not there any more (moved or deleted)";
	case SP_LOG_UNREADABLE:
		return "there, but not readable by you";
	case SP_LOG_DISCARDED:
		return "discarded: the job wrote it to /dev/null";
	case SP_LOG_SPECIAL:
		return "not a regular file";
	case SP_LOG_UNKNOWN:
		return "could not be checked";
	case SP_LOG_NOT_LOOKED:
		break;
	}
	return "not looked for";
}

const char *
sp_log_how_name(enum sp_log_how h)
{
	static const char *const names[] = {
		"stderr", "stdout", "submit_line", "submit_line", "comment",
		"conventional", "name", "time"
	};

	return (unsigned)h < sizeof names / sizeof names[0] ? names[h] : "";
}

const char *
sp_log_how_text(enum sp_log_how h)
{
	static const char *const texts[] = {
		"the StdErr field",
		"the StdOut field",
		"-e/--error in the submit line",
		"-o/--output in the submit line",
		"a path in the comment",
		"the conventional name",
		"a log named after the job",
		"inferred: written while the job ran, nothing names it"
	};

	return (unsigned)h < sizeof texts / sizeof texts[0] ? texts[h] : "";
}

const char *
sp_log_role_name(enum sp_log_role r)
{
	switch (r) {
	case SP_ROLE_ERROR:
		return "error";
	case SP_ROLE_OUTPUT:
		return "output";
	case SP_ROLE_LOG:
		break;
	}
	return "log";
}

/* ---------------------------------------------------------------- */
/* Fields of the record, decoded                                      */

static char *
field_str(struct sp_slice s)
{
	struct sp_buf b = { 0 };

	if (s.n == 0)
		return sp_xstrdup("");
	sp_field_decode(&b, s.p, s.n);
	if (b.p == NULL)
		return sp_xstrdup("");
	return b.p;
}

static int
all_digits(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* The first node of the job's list: what %N names in a batch script. */
static char *
first_node(const struct sp_job *j)
{
	struct sp_names names = { 0 };
	char *list = field_str(j->nodelist), *node = NULL;

	sp_hostlist_expand(list, strlen(list), &names);
	if (names.n > 0)
		node = sp_xstrdup(sp_names_at(&names, 0));
	sp_names_free(&names);
	free(list);
	return node;
}

/* What a %-code stands for; NULL when the record cannot say. */
static char *
pattern_value(char code, const struct sp_job *j)
{
	char *v;

	switch (code) {
	case 'j':
	case 'J':
		v = field_str(j->jobid_raw.n ? j->jobid_raw : j->jobid);
		break;
	case 'A':
		/* Outside an array Slurm writes the job's own id here. */
		v = field_str(j->array_job.n ? j->array_job :
			      j->jobid_raw.n ? j->jobid_raw : j->jobid);
		break;
	case 'a':
		v = j->array_task.n ? field_str(j->array_task) :
				      sp_xstrdup("0");
		break;
	case 'x':
		v = field_str(j->name);
		break;
	case 'u':
		v = field_str(j->user);
		break;
	case 'N':
		return first_node(j);
	case 's':
		return sp_xstrdup("batch");
	case 'n':
	case 't':
		return sp_xstrdup("0");
	default:
		return NULL;
	}
	if (*v == '\0') {
		free(v);
		return NULL;
	}
	return v;
}

int
sp_log_expand(struct sp_buf *out, const char *pat, const struct sp_job *j)
{
	struct sp_buf path = { 0 };
	const char *p = pat;
	char *workdir;
	int rc = 0;

	if (*pat == '\0')
		return -1;
	if (strchr(pat, '\\') != NULL) {
		/* sbatch takes a backslash to mean: no %-codes here. */
		for (; *p; p++)
			if (*p != '\\')
				sp_buf_addc(&path, *p);
	} else {
		while (*p && rc == 0) {
			long width = 0;
			char *v;

			if (*p != '%') {
				sp_buf_addc(&path, *p++);
				continue;
			}
			p++;
			if (*p == '%') {
				sp_buf_addc(&path, '%');
				p++;
				continue;
			}
			while (*p >= '0' && *p <= '9') {
				if (width < SP_LOG_PAD_MAX)
					width = width * 10 + (*p - '0');
				p++;
			}
			if (width > SP_LOG_PAD_MAX)
				width = SP_LOG_PAD_MAX;
			if (*p == '\0' || (v = pattern_value(*p, j)) == NULL) {
				rc = -1;
				break;
			}
			p++;
			if (all_digits(v))
				for (long k = (long)strlen(v); k < width; k++)
					sp_buf_addc(&path, '0');
			sp_buf_adds(&path, v);
			free(v);
		}
	}
	if (rc == 0 && path.len == 0)
		rc = -1;
	if (rc == 0 && path.p[0] != '/') {
		workdir = field_str(j->workdir);
		if (workdir[0] != '/') {
			rc = -1;
		} else {
			sp_buf_adds(out, workdir);
			if (workdir[strlen(workdir) - 1] != '/')
				sp_buf_addc(out, '/');
		}
		free(workdir);
	}
	if (rc == 0)
		sp_buf_add(out, path.p, path.len);
	sp_buf_free(&path);
	return rc;
}

/* ---------------------------------------------------------------- */
/* The submit line, read as sbatch read its arguments                 */

/*
 * Slurm records the submit line as the command's arguments joined by
 * spaces: the shell's quotes are gone, and a quote in the record is part
 * of an argument (the perl -e '...' inside a --wrap).  So the line is
 * split at white space and read as getopt read it: options until the
 * first word that is not one (the script; what follows is its own), a
 * value after an option that takes one, and --wrap's value (its command)
 * to the end, for where that value ended is not in the record.
 */

/* sbatch's and srun's long options that take a value (not optional). */
static const char *const long_valued[] = {
	"account", "acctg-freq", "array", "batch", "bb", "bbf", "begin",
	"chdir", "cluster-constraint", "clusters", "comment", "constraint",
	"container", "core-spec", "cores-per-socket", "cpu-freq",
	"cpus-per-gpu", "cpus-per-task", "deadline", "delay-boot",
	"dependency", "distribution", "error", "exclude", "export",
	"export-file", "extra-node-info", "gid", "gpu-bind", "gpu-freq",
	"gpus", "gpus-per-node", "gpus-per-socket", "gpus-per-task", "gres",
	"gres-flags", "hint", "input", "job-name", "kill-on-invalid-dep",
	"licenses", "mail-type", "mail-user", "mcs-label", "mem", "mem-bind",
	"mem-per-cpu", "mem-per-gpu", "mincpus", "network", "nodefile",
	"nodelist", "nodes", "ntasks", "ntasks-per-core", "ntasks-per-gpu",
	"ntasks-per-node", "ntasks-per-socket", "open-mode", "output",
	"partition", "power", "prefer", "priority", "profile", "qos",
	"reservation", "signal", "sockets-per-node", "switches",
	"thread-spec", "threads-per-core", "time", "time-min", "tmp", "uid",
	"wait-all-nodes", "wckey", NULL
};

/* The short options that take a value. */
static const char short_valued[] = "AaBbCcDdeGiJLMmNnopqStwx";

struct words {
	char **v;
	size_t n;
	size_t cap;
};

static void
words_free(struct words *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->v[i]);
	free(w->v);
	memset(w, 0, sizeof *w);
}

static void
split_words(const char *s, struct words *w)
{
	while (*s) {
		size_t n;

		while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			s++;
		n = strcspn(s, " \t\n\r");
		if (n == 0)
			break;
		w->v = sp_xgrow(w->v, &w->cap, w->n + 1, sizeof *w->v);
		w->v[w->n++] = sp_xstrndup(s, n);
		s += n;
	}
}

static int
long_takes_value(const char *name, size_t n)
{
	for (const char *const *o = long_valued; *o; o++)
		if (strlen(*o) == n && strncmp(*o, name, n) == 0)
			return 1;
	return 0;
}

static void
replace(char **dst, const char *v)
{
	if (v == NULL || v[0] == '-' || v[0] == '\0')
		return;
	free(*dst);
	*dst = sp_xstrdup(v);
}

/* The word after w->v[*i], taken as a value; NULL at the end. */
static const char *
next_value(const struct words *w, size_t *i)
{
	return *i + 1 < w->n ? w->v[++*i] : NULL;
}

/* One long option at w->v[*i]; 0 when the options end here (--wrap). */
static int
long_option(const struct words *w, size_t *i, char **err, char **out)
{
	const char *name = w->v[*i] + 2, *eq = strchr(name, '=');
	size_t n = eq ? (size_t)(eq - name) : strlen(name);
	const char *value = NULL;

	if (n == 4 && strncmp(name, "wrap", 4) == 0)
		return 0;
	if (eq != NULL)
		value = eq + 1;
	else if (long_takes_value(name, n))
		value = next_value(w, i);
	if (n == 5 && strncmp(name, "error", 5) == 0)
		replace(err, value);
	else if (n == 6 && strncmp(name, "output", 6) == 0)
		replace(out, value);
	return 1;
}

/* A cluster of short options at w->v[*i] (-Hv, -ologs/a.out, -o a). */
static void
short_options(const struct words *w, size_t *i, char **err, char **out)
{
	const char *word = w->v[*i];

	for (size_t k = 1; word[k] != '\0'; k++) {
		const char *value;

		if (strchr(short_valued, word[k]) == NULL)
			continue;	/* a flag */
		value = word[k + 1] != '\0' ? word + k + 1 : next_value(w, i);
		if (word[k] == 'e')
			replace(err, value);
		else if (word[k] == 'o')
			replace(out, value);
		return;
	}
}

void
sp_log_submit_paths(const char *line, char **err, char **out)
{
	struct words w = { 0 };

	*err = *out = NULL;
	if (line == NULL)
		return;
	split_words(line, &w);
	/* The first word is the command: sbatch, srun, salloc. */
	for (size_t i = 1; i < w.n; i++) {
		const char *word = w.v[i];

		if (strcmp(word, "--") == 0 || word[0] != '-' ||
		    word[1] == '\0')
			break;	/* the script, and its own arguments */
		if (word[1] == '-') {
			if (!long_option(&w, &i, err, out))
				break;
		} else {
			short_options(&w, &i, err, out);
		}
	}
	words_free(&w);
}

/* ---------------------------------------------------------------- */
/* Probing one file                                                   */

static void
log_clear(struct sp_log *l)
{
	free(l->path);
	free(l->owner);
	sp_buf_free(&l->tail);
	memset(l, 0, sizeof *l);
	l->size_b = NAN;
}

/* CR LF and lone CR become LF; a tail cut mid-line loses its first part. */
static void
normalise_tail(struct sp_buf *raw, int cut, struct sp_buf *out)
{
	size_t i = 0;

	if (cut) {
		const char *nl = memchr(raw->p, '\n', raw->len);

		if (nl != NULL)
			i = (size_t)(nl - raw->p) + 1;
	}
	for (; i < raw->len; i++) {
		if (raw->p[i] == '\r') {
			sp_buf_addc(out, '\n');
			if (i + 1 < raw->len && raw->p[i + 1] == '\n')
				i++;
		} else {
			sp_buf_addc(out, raw->p[i]);
		}
	}
	if (out->p == NULL)
		sp_buf_adds(out, "");
}

static int
read_tail(int fd, const struct stat *st, struct sp_log *l)
{
	struct sp_buf raw = { 0 };
	off_t from = 0;
	char chunk[8192];
	ssize_t got;

	if (st->st_size > SP_LOG_TAIL_BYTES)
		from = st->st_size - SP_LOG_TAIL_BYTES;
	if (from > 0 && lseek(fd, from, SEEK_SET) < 0)
		return -1;
	/* A log still being written may grow: read no more than the tail. */
	while (raw.len < SP_LOG_TAIL_BYTES) {
		size_t want = SP_LOG_TAIL_BYTES - raw.len;

		if (want > sizeof chunk)
			want = sizeof chunk;
		got = read(fd, chunk, want);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			sp_buf_free(&raw);
			return -1;
		}
		if (got == 0)
			break;
		sp_buf_add(&raw, chunk, (size_t)got);
	}
	l->cut = from > 0;
	normalise_tail(&raw, l->cut, &l->tail);
	sp_buf_free(&raw);
	return 0;
}

static char *
owner_name(uid_t uid)
{
	struct passwd *pw = getpwuid(uid);
	struct sp_buf b = { 0 };

	if (pw != NULL && pw->pw_name != NULL)
		return sp_xstrdup(pw->pw_name);
	sp_buf_printf(&b, "uid %lu", (unsigned long)uid);
	return b.p;
}

static enum sp_log_status
status_of_errno(int e)
{
	switch (e) {
	case ENOENT:
	case ENOTDIR:
		return SP_LOG_ABSENT;
	case EACCES:
	case EPERM:
		return SP_LOG_UNREADABLE;
	default:
		return SP_LOG_UNKNOWN;
	}
}

/* Sets l->status (and the tail when found); l->path is set. */
static void
probe(struct sp_log *l)
{
	struct stat st;
	int fd;

	if (strcmp(l->path, "/dev/null") == 0) {
		l->status = SP_LOG_DISCARDED;
		return;
	}
	if (stat(l->path, &st) != 0) {
		l->status = status_of_errno(errno);
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		l->status = SP_LOG_SPECIAL;
		return;
	}
	/* O_NONBLOCK: were it swapped for a FIFO since the stat, no hang. */
	fd = open(l->path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		l->status = status_of_errno(errno);
		if (l->status == SP_LOG_UNREADABLE)
			l->owner = owner_name(st.st_uid);
		return;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		l->status = SP_LOG_SPECIAL;
	} else if (read_tail(fd, &st, l) != 0) {
		l->status = SP_LOG_UNKNOWN;
		sp_buf_free(&l->tail);
	} else {
		l->status = SP_LOG_FOUND;
		l->size_b = (double)st.st_size;
	}
	close(fd);
}

/* ---------------------------------------------------------------- */
/* The ladder                                                         */

struct ladder {
	struct sp_logctx *c;
	const struct sp_job *j;
	struct sp_logs *out;
	char *ids[4];		/* job identifiers a file name may hold */
	size_t nids;
	char *name;		/* the job name */
	char *workdir;
	size_t who;		/* the job, as its claims are marked */
};

static int
have_path(const struct sp_logs *out, const char *path)
{
	for (size_t i = 0; i < out->n; i++)
		if (strcmp(out->v[i].path, path) == 0)
			return 1;
	return 0;
}

/*
 * Probes path; a file found joins the result, a declared one that is not
 * found becomes the expected file (the first such only).  Returns 1 when
 * found.
 */
static int
try_file(struct ladder *L, const char *path, enum sp_log_how how,
	 enum sp_log_role role, int declared)
{
	struct sp_log l;

	if (have_path(L->out, path))
		return 1;
	memset(&l, 0, sizeof l);
	l.size_b = NAN;
	l.path = sp_xstrdup(path);
	l.how = how;
	l.role = role;
	probe(&l);
	if (l.status == SP_LOG_FOUND) {
		L->out->v = sp_xgrow(L->out->v, &L->out->cap, L->out->n + 1,
				     sizeof *L->out->v);
		L->out->v[L->out->n++] = l;
		set_put(L->c->claimed, path, L->who);
		return 1;
	}
	if (declared && L->out->expected.path == NULL)
		L->out->expected = l;
	else
		log_clear(&l);
	return 0;
}

/* A declared pattern: expanded; one that cannot be expanded is skipped. */
static int
try_pattern(struct ladder *L, const char *pattern, enum sp_log_how how,
	    enum sp_log_role role)
{
	struct sp_buf path = { 0 };
	int found = 0;

	if (pattern != NULL && *pattern != '\0' &&
	    sp_log_expand(&path, pattern, L->j) == 0)
		found = try_file(L, path.p, how, role, 1);
	sp_buf_free(&path);
	return found;
}

static int
rung_fields(struct ladder *L)
{
	char *err = field_str(L->j->stderr), *out = field_str(L->j->stdout);
	int found = 0;

	if (strcmp(err, out) == 0) {
		/* Slurm's default: both streams go to the one file. */
		found += try_pattern(L, out, SP_HOW_STDOUT, SP_ROLE_LOG);
	} else {
		found += try_pattern(L, err, SP_HOW_STDERR, SP_ROLE_ERROR);
		found += try_pattern(L, out, SP_HOW_STDOUT, SP_ROLE_OUTPUT);
	}
	free(err);
	free(out);
	return found;
}

static int
rung_submit_line(struct ladder *L)
{
	char *line = field_str(L->j->submit_line), *err, *out;
	int found = 0;

	sp_log_submit_paths(line, &err, &out);
	found += try_pattern(L, err, SP_HOW_SUBMIT_ERROR, SP_ROLE_ERROR);
	found += try_pattern(L, out, SP_HOW_SUBMIT_OUTPUT, SP_ROLE_OUTPUT);
	free(line);
	free(err);
	free(out);
	return found;
}

static int
rung_comment(struct ladder *L)
{
	char *comment = field_str(L->j->comment);
	const char *sep = " \t\n,;\"'()<>=";
	char *save = NULL, *tok;
	int found = 0;

	for (tok = strtok_r(comment, sep, &save); tok != NULL;
	     tok = strtok_r(NULL, sep, &save))
		if (tok[0] == '/' && log_ext_rank(tok) >= 0)
			found += try_file(L, tok, SP_HOW_COMMENT,
					  role_of_name(tok), 1);
	free(comment);
	return found;
}

/* The folders searched, in order, and whether a loose match is trusted. */
struct searchdir {
	char *path;
	int trusted;
};

static const char *const subdirs[] = {
	"", "logs", "log", "report", "slurm_logs", "out", "outputs"
};

static void
add_base(struct searchdir **v, size_t *n, size_t *cap, const char *base,
	 int root_trusted)
{
	struct sp_buf p = { 0 };

	if (base == NULL || base[0] == '\0')
		return;
	for (size_t s = 0; s < sizeof subdirs / sizeof subdirs[0]; s++) {
		int dup = 0;

		join_path(&p, base, subdirs[s]);
		for (size_t i = 0; i < *n; i++)
			if (strcmp((*v)[i].path, p.p) == 0)
				dup = 1;
		if (dup)
			continue;
		*v = sp_xgrow(*v, cap, *n + 1, sizeof **v);
		(*v)[*n].path = sp_xstrdup(p.p);
		(*v)[*n].trusted = root_trusted || s > 0;
		(*n)++;
	}
	sp_buf_free(&p);
}

static struct searchdir *
search_dirs(struct ladder *L, size_t *n)
{
	struct searchdir *v = NULL;
	size_t cap = 0;

	*n = 0;
	for (size_t i = 0; i < L->c->ndirs; i++)
		add_base(&v, n, &cap, L->c->dirs[i], 1);
	if (L->workdir[0] == '/')
		add_base(&v, n, &cap, L->workdir, 0);
	add_base(&v, n, &cap, L->c->cwd, 0);
	return v;
}

static void
free_dirs(struct searchdir *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * 1 when name holds id with no digit on either side (60 is not 1060),
 * and not as the array or het part of a longer id (44 is not 44_3: that
 * is another task's file; 44_3 itself is an id of its own).
 */
static int
holds_id(const char *name, const char *id)
{
	size_t idn = strlen(id);
	const char *p = name;

	if (idn == 0)
		return 0;
	while ((p = strstr(p, id)) != NULL) {
		int before = p > name && is_digit(p[-1]);
		int after = is_digit(p[idn]) ||
			    ((p[idn] == '_' || p[idn] == '+') &&
			     is_digit(p[idn + 1]));

		if (!before && !after)
			return 1;
		p++;
	}
	return 0;
}

static int
holds_any_id(const struct ladder *L, const char *name)
{
	for (size_t i = 0; i < L->nids; i++)
		if (holds_id(name, L->ids[i]))
			return 1;
	return 0;
}

/*
 * Whether name is a conventional log name of some other job: its stem,
 * past a slurm- or job- prefix, is a job id (123, 123_4) that is none of
 * this job's.  Such a file is never inferred for this job.
 */
static int
names_other_job(const struct ladder *L, const char *name)
{
	static const char *const prefixes[] = { "slurm-", "slurm_", "job-",
		"job_", "" };
	size_t n = strlen(name) - 4;	/* the extension, .out .err .log */

	for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0]; k++) {
		size_t pl = strlen(prefixes[k]), i = pl, digits;

		if (n <= pl || strncmp(name, prefixes[k], pl) != 0)
			continue;
		while (i < n && is_digit(name[i]))
			i++;
		digits = i - pl;
		if (digits > 0 && i < n && name[i] == '_') {
			i++;
			while (i < n && is_digit(name[i]))
				i++;
		}
		if (digits == 0 || i != n || !is_digit(name[n - 1]))
			continue;
		for (size_t id = 0; id < L->nids; id++)
			if (strlen(L->ids[id]) == n - pl &&
			    strncmp(name + pl, L->ids[id], n - pl) == 0)
				return 0;
		return 1;
	}
	return 0;
}

/*
 * Adds from one folder's matches the best file per role: .err as the
 * error, .out as the output, .log only when neither is there.
 */
static int
take_best(struct ladder *L, const char *dir, struct logent **m, size_t n,
	  enum sp_log_how how)
{
	struct sp_buf path = { 0 };
	int found = 0, have[3] = { 0, 0, 0 };

	for (int rank = 0; rank < 3; rank++) {
		for (size_t i = 0; i < n; i++) {
			if (log_ext_rank(m[i]->name) != rank || have[rank])
				continue;
			if (rank == 2 && (have[0] || have[1]))
				continue;
			join_path(&path, dir, m[i]->name);
			if (try_file(L, path.p, how, role_of_name(m[i]->name),
				     0)) {
				have[rank] = 1;
				found++;
			}
		}
	}
	sp_buf_free(&path);
	return found;
}

/* The entries of one directory a rung would take, in its order of
 * preference. */
struct matches {
	struct logent **m;
	size_t n, cap;
};

static void
match_add(struct matches *mt, struct logent *e)
{
	mt->m = sp_xgrow(mt->m, &mt->cap, mt->n + 1, sizeof *mt->m);
	mt->m[mt->n++] = e;
}

/* The names sbatch and common scripts give a job's output, by id and
 * then by form: the order is the preference. */
static void
match_convention(struct ladder *L, struct sp_logdir *ld,
		 struct matches *mt)
{
	static const char *const forms[] = {
		"slurm-%s.out", "slurm-%s.err", "%s.out", "%s.err",
		"slurm_%s.out", "job-%s.out"
	};
	struct sp_buf want = { 0 };

	for (size_t i = 0; i < L->nids; i++) {
		for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
			sp_buf_clear(&want);
			sp_buf_printf(&want, forms[f], L->ids[i]);
			for (size_t e = 0; e < ld->n; e++)
				if (strcmp(ld->e[e].name, want.p) == 0)
					match_add(mt, &ld->e[e]);
		}
	}
	sp_buf_free(&want);
}

/* Any name that holds one of the job's ids, in directory order. */
static void
match_name(struct ladder *L, struct sp_logdir *ld, struct matches *mt)
{
	for (size_t e = 0; e < ld->n; e++)
		if (holds_any_id(L, ld->e[e].name))
			match_add(mt, &ld->e[e]);
}

/* A rung: the first directory in which match finds a file to take. */
static int
rung_dirs(struct ladder *L, struct searchdir *dirs, size_t ndirs,
	  void (*match)(struct ladder *, struct sp_logdir *,
			struct matches *),
	  enum sp_log_how how)
{
	struct matches mt = { 0 };
	int found = 0;

	for (size_t d = 0; d < ndirs && !found; d++) {
		struct sp_logdir *ld = dir_get(L->c, dirs[d].path);

		mt.n = 0;
		match(L, ld, &mt);
		found = take_best(L, ld->path, mt.m, mt.n, how);
	}
	free(mt.m);
	return found;
}

static int
rung_convention(struct ladder *L, struct searchdir *dirs, size_t ndirs)
{
	return rung_dirs(L, dirs, ndirs, match_convention,
			 SP_HOW_CONVENTION);
}

static int
rung_name(struct ladder *L, struct searchdir *dirs, size_t ndirs)
{
	return rung_dirs(L, dirs, ndirs, match_name, SP_HOW_NAME);
}

struct candidate {
	const char *dir;
	const struct logent *e;
	int untrusted;
	int empty;
	int64_t distance;
	int ext;
};

static int
cand_better(const struct candidate *a, const struct candidate *b)
{
	if (a->untrusted != b->untrusted)
		return a->untrusted < b->untrusted;
	if (a->empty != b->empty)
		return a->empty < b->empty;
	if (a->distance != b->distance)
		return a->distance < b->distance;
	return a->ext < b->ext;
}

static int
loose_name_ok(const struct ladder *L, const char *name)
{
	return strncmp(name, "slurm", 5) == 0 || holds_any_id(L, name) ||
	       (strlen(L->name) >= SP_LOG_NAME_MIN &&
		strstr(name, L->name) != NULL);
}

static int
rung_time(struct ladder *L, struct searchdir *dirs, size_t ndirs)
{
	const struct sp_job *j = L->j;
	struct candidate best = { 0 };
	struct sp_buf path = { 0 };
	int have = 0, found = 0;

	if (!j->start_known || !j->end_known)
		return 0;
	for (size_t d = 0; d < ndirs; d++) {
		struct sp_logdir *ld = dir_get(L->c, dirs[d].path);

		for (size_t e = 0; e < ld->n; e++) {
			struct candidate c;
			int64_t mt = sp_civil_local(ld->e[e].mtime);
			size_t who;

			if (mt < j->start_t - SP_LOG_MTIME_BEFORE_S ||
			    mt > j->end_t + SP_LOG_MTIME_AFTER_S)
				continue;
			if (!dirs[d].trusted && !loose_name_ok(L, ld->e[e].name))
				continue;
			if (names_other_job(L, ld->e[e].name))
				continue;
			join_path(&path, ld->path, ld->e[e].name);
			if (set_get(L->c->claimed, path.p, &who) &&
			    who != L->who)
				continue;
			c.dir = ld->path;
			c.e = &ld->e[e];
			c.untrusted = !dirs[d].trusted;
			c.empty = ld->e[e].size == 0;
			c.distance = mt > j->end_t ? mt - j->end_t :
						     j->end_t - mt;
			c.ext = log_ext_rank(ld->e[e].name);
			if (!have || cand_better(&c, &best))
				best = c;
			have = 1;
		}
	}
	if (have) {
		join_path(&path, best.dir, best.e->name);
		found = try_file(L, path.p, SP_HOW_TIME,
				 role_of_name(best.e->name), 0);
	}
	sp_buf_free(&path);
	return found;
}

static void
add_id(struct ladder *L, char *id)
{
	for (size_t i = 0; i < L->nids; i++) {
		if (strcmp(L->ids[i], id) == 0) {
			free(id);
			return;
		}
	}
	if (*id == '\0' || L->nids >= sizeof L->ids / sizeof L->ids[0]) {
		free(id);
		return;
	}
	L->ids[L->nids++] = id;
}

/* Error first, then output, then log; stable, so rung order stays. */
static void
sort_by_role(struct sp_logs *out)
{
	for (size_t i = 1; i < out->n; i++) {
		struct sp_log l = out->v[i];
		size_t k = i;

		for (; k > 0 && out->v[k - 1].role > l.role; k--)
			out->v[k] = out->v[k - 1];
		out->v[k] = l;
	}
}

void
sp_logs_none(struct sp_logs *out)
{
	memset(out, 0, sizeof *out);
	out->expected.size_b = NAN;
}

/*
 * Who claims a file: the job's id and attempt, hashed.  A file one job
 * was given goes to no other, and the same job asked again (the
 * dashboard draws a run's line, then its post-mortem) gets it again.
 */
static size_t
claimant(const struct sp_job *j)
{
	struct sp_buf b = { 0 };
	size_t h;

	sp_buf_add(&b, j->jobid.p, j->jobid.n);
	sp_buf_addc(&b, '\t');
	sp_buf_add(&b, j->jobid_raw.p, j->jobid_raw.n);
	sp_buf_printf(&b, "\t%g", j->attempt);
	h = (size_t)sp_hash_bytes(b.p, b.len);
	sp_buf_free(&b);
	return h;
}

void
sp_logs_find(struct sp_logctx *c, const struct sp_job *j, struct sp_logs *out)
{
	struct ladder L;
	struct searchdir *dirs;
	size_t ndirs;

	sp_logs_none(out);
	out->looked = 1;
	if (!sp_job_ran(j)) {
		/* No file was ever written for it: any found is another's. */
		out->not_started = 1;
		return;
	}
	memset(&L, 0, sizeof L);
	L.c = c;
	L.j = j;
	L.out = out;
	L.name = field_str(j->name);
	L.workdir = field_str(j->workdir);
	L.who = claimant(j);
	add_id(&L, field_str(j->jobid));
	add_id(&L, field_str(j->jobid_raw));
	if (j->array_job.n && j->array_task.n) {
		struct sp_buf b = { 0 };

		sp_field_decode(&b, j->array_job.p, j->array_job.n);
		sp_buf_addc(&b, '_');
		sp_field_decode(&b, j->array_task.p, j->array_task.n);
		sp_buf_add(&b, "", 0);
		add_id(&L, b.p);
		add_id(&L, field_str(j->array_job));
	}

	dirs = search_dirs(&L, &ndirs);
	if (!rung_fields(&L) && !rung_submit_line(&L) && !rung_comment(&L) &&
	    !rung_convention(&L, dirs, ndirs) && !rung_name(&L, dirs, ndirs))
		rung_time(&L, dirs, ndirs);
	free_dirs(dirs, ndirs);
	sort_by_role(out);

	for (size_t i = 0; i < L.nids; i++)
		free(L.ids[i]);
	free(L.name);
	free(L.workdir);
}

void
sp_log_last_lines(const struct sp_log *l, size_t n, const char **from,
		  size_t *len)
{
	const char *s = sp_buf_str(&l->tail);
	size_t end = l->tail.len, start;

	while (end > 0 && (s[end - 1] == '\n' || s[end - 1] == ' ' ||
			   s[end - 1] == '\t'))
		end--;
	start = end;
	while (start > 0 && n > 0) {
		start--;
		if (s[start] == '\n' && --n == 0) {
			start++;
			break;
		}
	}
	*from = s + start;
	*len = end - start;
}

void
sp_logs_free(struct sp_logs *l)
{
	for (size_t i = 0; i < l->n; i++)
		log_clear(&l->v[i]);
	free(l->v);
	log_clear(&l->expected);
	memset(l, 0, sizeof *l);
}
