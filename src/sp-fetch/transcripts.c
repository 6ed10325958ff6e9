/*
 * transcripts.c - sp-fetch --demo --transcripts DIR: where part of the
 * demo history was submitted from, kept as it would be on disk.
 *
 * The article splits the allocations attributable to Claude Code from
 * the whole record; so does the demo.  From its records, as they are
 * written, this writes under DIR:
 *
 *   projects/-home-alice-<repository>/<session>.jsonl
 *       alice works through an agent, in a few repositories: Claude Code
 *       session transcripts (one a repository every SESSION_DAYS) holding
 *       each Bash call that ran sbatch and its answer, with what a session
 *       also holds: her prompts, a script read, the queue looked at, a
 *       job named in passing -- mentions that are no submission;
 *   logs/sweep-driver.log
 *       bob's driver script, logging each answer with a time;
 *   home/carol/.bash_history
 *       carol types sbatch herself: her history keeps the commands and
 *       none of the answers, so her jobs are nobody's.
 *
 * Only jobs submitted from TRANSCRIPTS_SINCE on are written, as older
 * transcripts are gone (Claude Code keeps a month).  The files depend on
 * the records alone, never on the clock or the time zone: the demo's
 * civil times are written as UTC.  Nothing here changes a record.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sp.h"
#include "sp_intern.h"
#include "fetch.h"

/* The oldest transcript still on disk when the demo was read. */
#define TRANSCRIPTS_SINCE	"2026-02-01T00:00:00"
/* One session a repository for this many days of work. */
#define SESSION_DAYS		7
/* Session files held open at once; the rest are reopened to append. */
#define OPEN_MAX		32

struct session {
	char *path;
	FILE *fp;
	char id[37];
	char *cwd;
	char *user;
	char *repo;
	unsigned long lines;	/* written so far: names every message */
	unsigned long subs;	/* submissions so far */
	int parsable;		/* this repository's habit: --parsable */
	unsigned long used;	/* when it was last written, for closing */
};

struct demo_transcripts {
	char *dir;
	int64_t since;
	struct sp_intern keys;		/* "user/repository/period" -> session */
	struct session *v;
	size_t n, cap, open;
	unsigned long clock;
	struct sp_intern seen;		/* job ids already answered */
	FILE *driver, *history;
	struct sp_buf path, line, text, tmp;
};

/* ------------------------------------------------------------- files */

static void
make_dir(const char *path)
{
	if (mkdir(path, 0777) != 0 && errno != EEXIST)
		sp_die(SP_EXIT_USAGE, "--transcripts: %s:", path);
}

/* DIR/a/b/...: DIR and the first dirs parts made as directories. */
static const char *
under(struct demo_transcripts *t, const char *const *parts, int dirs)
{
	sp_buf_clear(&t->path);
	sp_buf_adds(&t->path, t->dir);
	for (int i = 0; parts[i]; i++) {
		if (i <= dirs)
			make_dir(t->path.p);
		sp_buf_addc(&t->path, '/');
		sp_buf_adds(&t->path, parts[i]);
	}
	return t->path.p;
}

static FILE *
open_file(const char *path, const char *mode)
{
	FILE *fp = fopen(path, mode);

	if (fp == NULL)
		sp_die(SP_EXIT_USAGE, "--transcripts: %s:", path);
	return fp;
}

static void
close_file(FILE *fp, const char *path)
{
	if (fp != NULL && (ferror(fp) || fclose(fp) != 0))
		sp_die(SP_EXIT_USAGE, "--transcripts: %s:", path);
}

struct demo_transcripts *
transcripts_open(const char *dir)
{
	struct demo_transcripts *t = sp_xcalloc(1, sizeof *t);
	const char *logs[] = { "logs", "sweep-driver.log", NULL };
	const char *hist[] = { "home", "carol", ".bash_history", NULL };

	t->dir = sp_xstrdup(dir);
	if (sp_parse_time(TRANSCRIPTS_SINCE, strlen(TRANSCRIPTS_SINCE),
			  &t->since) != SP_VAL_OK)
		sp_die(SP_EXIT_USAGE, "internal error: TRANSCRIPTS_SINCE");
	t->driver = open_file(under(t, logs, 1), "w");
	t->history = open_file(under(t, hist, 2), "w");
	return t;
}

/* ----------------------------------------------------------- sessions */

static uint64_t
mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * The repository a job's script lives in: one of a few, by the job
 * name's leading letters (rollout-gen: rollout), so that a piece of work
 * stays in one place.
 */
static const char *
repo_of(struct sp_slice name)
{
	static const char *const repos[] = { "agents", "evals", "data",
		"pretrain" };
	size_t i = 0;

	while (i < name.n && ((name.p[i] >= 'a' && name.p[i] <= 'z') ||
			      (name.p[i] >= 'A' && name.p[i] <= 'Z')))
		i++;
	return repos[mix(sp_hash_bytes(name.p, i)) % 4];
}

static void
session_close(struct demo_transcripts *t, struct session *s)
{
	if (s->fp == NULL)
		return;
	close_file(s->fp, s->path);
	s->fp = NULL;
	t->open--;
}

/* The session's file, open; the one unused longest is closed for it. */
static FILE *
session_file(struct demo_transcripts *t, struct session *s)
{
	s->used = ++t->clock;
	if (s->fp != NULL)
		return s->fp;
	if (t->open == OPEN_MAX) {
		struct session *old = NULL;

		for (size_t i = 0; i < t->n; i++)
			if (t->v[i].fp && (old == NULL || t->v[i].used < old->used))
				old = &t->v[i];
		session_close(t, old);
	}
	s->fp = open_file(s->path, s->lines ? "a" : "w");
	t->open++;
	return s->fp;
}

static struct session *
session_for(struct demo_transcripts *t, struct sp_slice user,
	    struct sp_slice name, int64_t at)
{
	long period = (long)((at - t->since) / (SESSION_DAYS * 86400));
	size_t k, before = t->keys.n;
	struct session *s;
	uint64_t h;

	const char *repo = repo_of(name);

	sp_buf_clear(&t->tmp);
	sp_buf_add(&t->tmp, user.p, user.n);
	sp_buf_printf(&t->tmp, "/%s/%ld", repo, period);
	k = sp_intern(&t->keys, t->tmp.p, t->tmp.len);
	if (t->keys.n == before)
		return &t->v[k];
	t->v = sp_xgrow(t->v, &t->cap, t->n + 1, sizeof *t->v);
	s = &t->v[t->n++];
	memset(s, 0, sizeof *s);
	h = mix(sp_hash_bytes(t->tmp.p, t->tmp.len));
	snprintf(s->id, sizeof s->id, "%08x-%04x-4%03x-%04x-%012llx",
		 (unsigned)(h >> 32), (unsigned)(h >> 16) & 0xffff,
		 (unsigned)h & 0xfff, 0x8000 | ((unsigned)(h >> 44) & 0x3fff),
		 (unsigned long long)(mix(h) & 0xffffffffffffULL));
	s->user = sp_xstrndup(user.p, user.n);
	s->repo = sp_xstrdup(repo);
	sp_buf_clear(&t->tmp);
	sp_buf_printf(&t->tmp, "/home/%s/%s", s->user, s->repo);
	s->cwd = sp_xstrdup(t->tmp.p);
	s->parsable = strcmp(repo, "evals") == 0;
	sp_buf_clear(&t->tmp);
	sp_buf_printf(&t->tmp, "-home-%s-%s", s->user, s->repo);
	sp_buf_clear(&t->text);
	sp_buf_printf(&t->text, "%s.jsonl", s->id);
	{
		const char *parts[] = { "projects", t->tmp.p, t->text.p, NULL };

		s->path = sp_xstrdup(under(t, parts, 2));
	}
	return s;
}

/* --------------------------------------------------------- messages */

/* "2026-02-10T12:00:03.412Z": the demo's civil time written as UTC. */
static void
put_stamp(struct sp_buf *b, int64_t t, unsigned ms)
{
	sp_buf_adds(b, "\"timestamp\":\"");
	sp_fmt_time(b, t);
	sp_buf_printf(b, ".%03uZ\"", ms % 1000);
}

static void
put_str(struct sp_buf *b, const char *key, const char *s, size_t n)
{
	sp_buf_printf(b, "\"%s\":", key);
	sp_json_string(b, s, n);
}

/* The fields every message line opens with. */
static void
begin_line(struct demo_transcripts *t, struct session *s)
{
	struct sp_buf *b = &t->line;

	sp_buf_clear(b);
	sp_buf_adds(b, "{\"parentUuid\":null,\"isSidechain\":false,"
		    "\"userType\":\"external\",");
	put_str(b, "cwd", s->cwd, strlen(s->cwd));
	sp_buf_printf(b, ",\"sessionId\":\"%s\",\"version\":\"2.0.49\","
		      "\"gitBranch\":\"main\",", s->id);
}

/* ... and close with: the message's uuid and time; then it is written. */
static void
end_line(struct demo_transcripts *t, struct session *s, int64_t at,
	 const char *after)
{
	struct sp_buf *b = &t->line;
	uint64_t h = mix(((uint64_t)s->lines << 20) ^
			 sp_hash_bytes(s->id, sizeof s->id - 1));
	FILE *fp;

	s->lines++;
	sp_buf_printf(b, ",\"uuid\":\"%08x-%04x-4%03x-a%03x-%012llx\",",
		      (unsigned)(h >> 32), (unsigned)(h >> 16) & 0xffff,
		      (unsigned)h & 0xfff, (unsigned)(h >> 52) & 0xfff,
		      (unsigned long long)(mix(h) & 0xffffffffffffULL));
	put_stamp(b, at, (unsigned)(h >> 24));
	if (after)
		sp_buf_adds(b, after);
	sp_buf_adds(b, "}\n");
	fp = session_file(t, s);
	if (fwrite(b->p, 1, b->len, fp) != b->len)
		sp_die(SP_EXIT_USAGE, "--transcripts: %s:", s->path);
}

/* A tool call's id, as the API names them: toolu_01 and 22 letters. */
static void
tool_id(char out[31], const struct session *s)
{
	static const char abc[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	uint64_t h = mix(sp_hash_bytes(s->id, sizeof s->id - 1) ^ s->lines);

	memcpy(out, "toolu_01", 8);
	for (int i = 8; i < 30; i++) {
		out[i] = abc[h % 62];
		h = mix(h + (uint64_t)i);
	}
	out[30] = '\0';
}

static void
user_says(struct demo_transcripts *t, struct session *s, int64_t at,
	  const char *text)
{
	begin_line(t, s);
	sp_buf_adds(&t->line, "\"type\":\"user\",\"message\":{\"role\":\"user\",");
	put_str(&t->line, "content", text, strlen(text));
	sp_buf_addc(&t->line, '}');
	end_line(t, s, at, NULL);
}

static void
assistant_says(struct demo_transcripts *t, struct session *s, int64_t at,
	       const char *text)
{
	begin_line(t, s);
	sp_buf_adds(&t->line, "\"message\":{\"model\":\"claude-sonnet-4-5-"
		    "20250929\",\"type\":\"message\",\"role\":\"assistant\","
		    "\"content\":[{\"type\":\"text\",");
	put_str(&t->line, "text", text, strlen(text));
	sp_buf_adds(&t->line, "}]},\"type\":\"assistant\"");
	end_line(t, s, at, NULL);
}

/* A tool call, then its result a moment later. */
static void
tool(struct demo_transcripts *t, struct session *s, int64_t at,
     const char *name, const char *input_key, const char *input,
     const char *output, int shell)
{
	char id[31];

	tool_id(id, s);
	begin_line(t, s);
	sp_buf_adds(&t->line, "\"message\":{\"model\":\"claude-sonnet-4-5-"
		    "20250929\",\"type\":\"message\",\"role\":\"assistant\","
		    "\"content\":[{\"type\":\"tool_use\",");
	sp_buf_printf(&t->line, "\"id\":\"%s\",\"name\":\"%s\",\"input\":{",
		      id, name);
	put_str(&t->line, input_key, input, strlen(input));
	sp_buf_adds(&t->line, "}}],\"stop_reason\":\"tool_use\"},"
		    "\"type\":\"assistant\"");
	end_line(t, s, at - 1, NULL);

	begin_line(t, s);
	sp_buf_printf(&t->line, "\"type\":\"user\",\"message\":{\"role\":"
		      "\"user\",\"content\":[{\"tool_use_id\":\"%s\","
		      "\"type\":\"tool_result\",", id);
	put_str(&t->line, "content", output, strlen(output));
	sp_buf_adds(&t->line, ",\"is_error\":false}]}");
	sp_buf_clear(&t->tmp);
	if (shell) {
		sp_buf_adds(&t->tmp, ",\"toolUseResult\":{");
		put_str(&t->tmp, "stdout", output, strlen(output));
		sp_buf_adds(&t->tmp, ",\"stderr\":\"\",\"interrupted\":false,"
			    "\"isImage\":false}");
	} else {
		sp_buf_adds(&t->tmp, ",\"toolUseResult\":{\"type\":\"text\","
			    "\"file\":{");
		put_str(&t->tmp, "filePath", input, strlen(input));
		sp_buf_addc(&t->tmp, ',');
		put_str(&t->tmp, "content", output, strlen(output));
		sp_buf_adds(&t->tmp, "}}");
	}
	end_line(t, s, at, t->tmp.p);
}

/* ------------------------------------------------------------- jobs */

static struct sp_slice
text(const struct sp_sacct_rec *rec, int jc)
{
	return rec->text[jc];
}

static int
is(struct sp_slice s, const char *lit)
{
	return s.n == strlen(lit) && memcmp(s.p, lit, s.n) == 0;
}

/* "sbatch --time=01:00:00 --mem=16G scripts/NAME.sh" */
static void
command_for(const struct sp_sacct_rec *rec, int parsable, struct sp_buf *b)
{
	struct sp_slice name = text(rec, SP_JC_name);
	struct sp_slice mem = text(rec, SP_JC_req_mem);

	sp_buf_clear(b);
	if (parsable)
		sp_buf_adds(b, "jid=$(");
	sp_buf_adds(b, "sbatch ");
	if (parsable)
		sp_buf_adds(b, "--parsable ");
	if (rec->num[SP_JC_timelimit_s] == rec->num[SP_JC_timelimit_s]) {
		sp_buf_adds(b, "--time=");
		sp_fmt_hms(b, rec->num[SP_JC_timelimit_s]);
		sp_buf_addc(b, ' ');
	}
	if (mem.n > 0) {
		sp_buf_adds(b, "--mem=");
		sp_buf_add(b, mem.p, mem.n);
		sp_buf_addc(b, ' ');
	}
	sp_buf_adds(b, "scripts/");
	sp_buf_add(b, name.p, name.n);
	sp_buf_adds(b, ".sh");
	if (parsable)
		sp_buf_adds(b, ") && echo \"$jid\"");
}

/* alice's submission, with what surrounds it in a session. */
static void
session_job(struct demo_transcripts *t, const struct sp_sacct_rec *rec,
	    struct sp_slice id, int64_t at)
{
	struct session *s = session_for(t, text(rec, SP_JC_user),
					text(rec, SP_JC_name), at);
	struct sp_slice name = text(rec, SP_JC_name);
	struct sp_buf cmd = { 0 }, out = { 0 };

	if (s->lines == 0) {
		sp_buf_printf(&out, "Pick up the %s runs where we left off, "
			      "and keep an eye on the queue.", s->repo);
		user_says(t, s, at - 300, out.p);
		sp_buf_clear(&out);
		sp_buf_adds(&out, "#!/bin/bash\n#SBATCH --partition=");
		sp_buf_add(&out, text(rec, SP_JC_partition).p,
			   text(rec, SP_JC_partition).n);
		sp_buf_adds(&out, "\n#SBATCH --output=logs/%x-%j.out\n\n"
			    "srun python -m ");
		sp_buf_add(&out, name.p, name.n);
		sp_buf_adds(&out, " \"$@\"\n");
		sp_buf_clear(&cmd);
		sp_buf_printf(&cmd, "%s/scripts/", s->cwd);
		sp_buf_add(&cmd, name.p, name.n);
		sp_buf_adds(&cmd, ".sh");
		tool(t, s, at - 60, "Read", "file_path", cmd.p, out.p, 0);
	}
	command_for(rec, s->parsable, &cmd);
	sp_buf_clear(&out);
	if (s->parsable) {
		sp_buf_add(&out, id.p, id.n);
		sp_buf_addc(&out, '\n');
	} else {
		sp_buf_adds(&out, "Submitted batch job ");
		sp_buf_add(&out, id.p, id.n);
	}
	tool(t, s, at + 1, "Bash", "command", cmd.p, out.p, 1);
	s->subs++;
	/* The queue looked at now and then: ids shown, none submitted. */
	if (s->subs % 4 == 0) {
		sp_buf_clear(&out);
		sp_buf_printf(&out, "JOBID PARTITION NAME USER ST TIME NODES "
			      "NODELIST(REASON)\n%.*s %.*s %.*s %s PD 0:00 1 "
			      "(Priority)", (int)id.n, id.p,
			      (int)text(rec, SP_JC_partition).n,
			      text(rec, SP_JC_partition).p, (int)name.n, name.p,
			      s->user);
		sp_buf_clear(&cmd);
		sp_buf_printf(&cmd, "squeue -u %s", s->user);
		tool(t, s, at + 40, "Bash", "command", cmd.p, out.p, 1);
	}
	if (s->subs % 10 == 3) {
		sp_buf_clear(&out);
		sp_buf_printf(&out, "Job %.*s is queued; I will check on it "
			      "once it starts.", (int)id.n, id.p);
		assistant_says(t, s, at + 45, out.p);
	}
	sp_buf_free(&cmd);
	sp_buf_free(&out);
}

/* bob's driver logs each answer, with a time, as Python's logging does. */
static void
driver_job(struct demo_transcripts *t, const struct sp_sacct_rec *rec,
	   struct sp_slice id, int64_t at)
{
	struct sp_slice name = text(rec, SP_JC_name);

	sp_buf_clear(&t->text);
	sp_fmt_time(&t->text, at);
	t->text.p[10] = ' ';
	fprintf(t->driver, "%s,%03u INFO sweep %.*s: launching\n", t->text.p,
		(unsigned)(mix(at) % 1000), (int)name.n, name.p);
	fprintf(t->driver, "%s,%03u INFO sweep %.*s: Submitted batch job "
		"%.*s\n", t->text.p, (unsigned)(mix(at + 1) % 1000),
		(int)name.n, name.p, (int)id.n, id.p);
}

/* carol's history: the command and its time, never the answer. */
static void
history_job(struct demo_transcripts *t, const struct sp_sacct_rec *rec,
	    int64_t at)
{
	command_for(rec, 0, &t->text);
	fprintf(t->history, "#%lld\n%s\n", (long long)at, t->text.p);
}

void
transcripts_job(struct demo_transcripts *t, const struct sp_sacct_rec *rec)
{
	struct sp_slice jobid = text(rec, SP_JC_jobid);
	struct sp_slice array = text(rec, SP_JC_array_job);
	struct sp_slice submit = text(rec, SP_JC_submit);
	struct sp_slice user = text(rec, SP_JC_user);
	struct sp_slice id = array.n > 0 ? array : jobid;
	size_t before;
	int64_t at;

	if (text(rec, SP_JC_step).n > 0 ||
	    sp_parse_time(submit.p, submit.n, &at) != SP_VAL_OK ||
	    at < t->since)
		return;
	/* sbatch answers once for an array, once for each job requeued. */
	for (size_t i = 0; i < id.n; i++)
		if (id.p[i] == '+' || id.p[i] == '_') {
			id.n = i;
			break;
		}
	before = t->seen.n;
	sp_intern(&t->seen, id.p, id.n);
	if (t->seen.n == before)
		return;
	if (is(user, "alice"))
		session_job(t, rec, id, at);
	else if (is(user, "bob"))
		driver_job(t, rec, id, at);
	else if (is(user, "carol"))
		history_job(t, rec, at);
}

void
transcripts_close(struct demo_transcripts *t)
{
	const char *logs[] = { "logs", "sweep-driver.log", NULL };
	const char *hist[] = { "home", "carol", ".bash_history", NULL };

	for (size_t i = 0; i < t->n; i++) {
		session_close(t, &t->v[i]);
		free(t->v[i].path);
		free(t->v[i].cwd);
		free(t->v[i].user);
		free(t->v[i].repo);
	}
	close_file(t->driver, under(t, logs, -1));
	close_file(t->history, under(t, hist, -1));
	free(t->v);
	sp_intern_free(&t->keys);
	sp_intern_free(&t->seen);
	sp_buf_free(&t->path);
	sp_buf_free(&t->line);
	sp_buf_free(&t->text);
	sp_buf_free(&t->tmp);
	free(t->dir);
	free(t);
}
