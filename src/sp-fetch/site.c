/*
 * site.c - sp-fetch --site FILE: the site facts of this run, asked while
 * sacct answers (a child process asks scontrol and sinfo at once), and
 * kept in FILE for every later stage (SLURMPAST_SITE=FILE), so a report
 * waits for Slurm's controller once, hidden behind sacct, never once per
 * stage and query.
 */
#include <stdlib.h>
#include <string.h>

#include "sp.h"
#include "sp_exec.h"
#include "sp_site.h"
#include "fetch.h"

/* Grace beyond the commands' own deadline for writing the file. */
#define SITE_CHILD_GRACE_S 10.0

static int
no_site(void)
{
	const char *v = getenv("SLURMPAST_NO_SITE");

	return v != NULL && strcmp(v, "1") == 0;
}

/* In the child: ask, write the file, say on stdout what was not had. */
static int
ask_and_write(FILE *out, void *arg)
{
	const struct fetch_site *fs = arg;
	struct sp_site s;
	struct sp_buf err = { 0 };
	int rc;

	sp_site_ask(&s, fs->cluster, sp_site_timeout());
	rc = sp_site_write(&s, fs->path, &err);
	if (rc != 0)
		fprintf(out, "!%s", sp_buf_str(&err));
	else
		fputs(sp_buf_str(&s.missing), out);
	sp_site_free(&s);
	sp_buf_free(&err);
	return 0;
}

/* Nothing to ask (the demo, SLURMPAST_NO_SITE=1): every fact unknown. */
static void
write_unknown(const struct fetch_site *fs)
{
	struct sp_site s;
	struct sp_buf err = { 0 };

	sp_site_unknown(&s);
	if (sp_site_write(&s, fs->path, &err) != 0)
		sp_die(SP_EXIT_USAGE, "--site: %s", sp_buf_str(&err));
	sp_buf_free(&err);
}

void
fetch_site_start(struct fetch_site *fs, const char *path,
		 const char *cluster, int ask)
{
	memset(fs, 0, sizeof *fs);
	fs->path = path;
	fs->cluster = cluster;
	fs->running = 0;
	if (path == NULL)
		return;
	if (!ask || no_site()) {
		write_unknown(fs);
		return;
	}
	if (sp_exec_start_fn(&fs->x, "site facts", ask_and_write, fs,
	    sp_site_timeout() + SITE_CHILD_GRACE_S) != 0)
		sp_die(SP_EXIT_USAGE, "--site: cannot start asking: %s",
		    strerror(fs->x.exec_errno));
	fs->running = 1;
}

void
fetch_site_finish(struct fetch_site *fs)
{
	struct sp_buf said = { 0 }, why = { 0 };
	char buf[4096];
	ssize_t n;
	int ok;

	if (!fs->running)
		return;
	fs->running = 0;
	while ((n = sp_exec_read(&fs->x, buf, sizeof buf)) > 0)
		sp_buf_add(&said, buf, (size_t)n);
	ok = n == 0 && sp_exec_finish(&fs->x) == 0;
	if (!ok) {
		sp_exec_describe(&fs->x, &why);
		sp_die(SP_EXIT_USAGE, "--site: asking for the site facts "
		    "failed (%s)", sp_buf_str(&why));
	}
	if (said.len > 0 && said.p[0] == '!')
		sp_die(SP_EXIT_USAGE, "--site: %s", said.p + 1);
	if (said.len > 0)
		sp_warn("site facts not had: %s", sp_buf_str(&said));
	sp_exec_free(&fs->x);
	sp_buf_free(&said);
	sp_buf_free(&why);
}
