/*
 * script.c - sp-size --script: a batch script read as sbatch reads it,
 * its workload found in the history, the advice written into it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "size.h"
#include "sp_verdict.h"

void
script_read(struct script_job *j, const char *path)
{
	struct sp_buf err = { 0 };

	memset(j, 0, sizeof *j);
	if (sp_rewrite_read(path, &j->text) != 0)
		sp_die(SP_EXIT_USAGE, "%s: %s", path, strerror(errno));
	if (sp_script_parse(&j->s, j->text.p ? j->text.p : "", j->text.len,
			    &err) != 0)
		sp_die(SP_EXIT_USAGE, "%s:%s", path, sp_buf_str(&err));
	sp_buf_free(&err);
}

void
script_free(struct script_job *j)
{
	sp_script_free(&j->s);
	sp_buf_free(&j->text);
}

/* -u, else the user running this. */
static const char *
who_runs(const struct script_opts *o)
{
	const char *u = o->user ? o->user : sp_user_name();

	if (u != NULL && *u)
		return u;
	sp_die(SP_EXIT_USAGE, "whose workload the script is cannot be told: "
	       "give -u user");
}

/* What sbatch itself would say of the script, before the advice. */
static void
warn_script(const struct script_job *j, const char *path)
{
	const struct sp_script *s = &j->s;

	if (!s->shebang)
		sp_warn("%s: no #! first line: sbatch refuses such a script",
			path);
	if (s->crlf > 0)
		sp_warn("%s: %zu %s in CR LF (DOS): sbatch refuses such a "
			"script (dos2unix fixes it); the line ends are kept",
			path, s->crlf, s->crlf == 1 ? "line ends" :
			"lines end");
	for (size_t i = 0; i < s->nnotes; i++)
		sp_warn("%s:%zu: %s", path, s->notes[i].line + 1,
			s->notes[i].text);
}

/* The fix's notes, one warning a line. */
static void
warn_notes(const struct sp_buf *notes, const char *path)
{
	const char *p = sp_buf_str(notes), *nl;

	while ((nl = strchr(p, '\n')) != NULL) {
		sp_warn("%s: %.*s", path, (int)(nl - p), p);
		p = nl + 1;
	}
}

/* A failed write says why at once (a full disk), as the record writer. */
static void
put(const struct sp_buf *b)
{
	if (b->len > 0 && (fwrite(b->p, 1, b->len, stdout) != b->len ||
			   fflush(stdout) != 0))
		sp_die(SP_EXIT_USAGE, "<stdout>:");
}

static int
write_out(struct script_job *j, const struct script_opts *o,
	  const struct sp_script_fix *fx)
{
	struct sp_buf out = { 0 }, err = { 0 };
	size_t changes = sp_rewrite_changes(&fx->rw);

	switch (o->out) {
	case SCRIPT_TEXT:
		sp_rewrite_text(&fx->rw, &out);
		put(&out);
		break;
	case SCRIPT_DIFF:
		sp_rewrite_diff(&fx->rw, o->path, &out);
		put(&out);
		break;
	case SCRIPT_IN_PLACE:
		if (changes == 0) {
			sp_warn("%s: nothing to change: left as it is",
				o->path);
			break;
		}
		sp_rewrite_text(&fx->rw, &out);
		if (sp_rewrite_replace(o->path, j->text.p ? j->text.p : "",
				       j->text.len, out.p, out.len, o->backup,
				       &err) != 0)
			sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&err));
		sp_warn("%s: rewritten; the original is %s%s", o->path,
			o->path, o->backup);
		break;
	}
	sp_buf_free(&out);
	sp_buf_free(&err);
	return SP_EXIT_OK;
}

int
script_run(struct script_job *j, const struct script_opts *o,
	   struct sp_histset *set, const struct sp_site *site,
	   const struct sp_nodes *nodes)
{
	struct sp_advice adv[SP_FLAG_N] = { { 0 } }, ex = { 0 };
	const struct sp_advice *use[SP_FLAG_N] = { 0 };
	struct sp_buf note = { 0 }, why = { 0 };
	struct sp_script_who who;
	struct sp_size_site ss;
	struct sp_script_fix fx;
	const struct sp_hist *h;
	long i;
	int rc;

	warn_script(j, o->path);
	sp_script_who(&j->s, o->path, &who);
	i = sp_script_find(set, &who, who_runs(o), &note, &why);
	if (i < 0)
		sp_die(SP_EXIT_USAGE, "%s: %s", o->path, sp_buf_str(&why));
	if (note.len > 0)
		sp_warn("%s: %s", o->path, sp_buf_str(&note));
	h = sp_histset_hist(set, (size_t)i);
	sp_warn("%s: the advice of %.*s, %ld %s", o->path, (int)h->keylen,
		h->key, (long)h->runs, h->runs == 1 ? "run" : "runs");
	/* The site sp-size's records are made with: the input's missing
	 * columns too, so the script gets the same verdict. */
	sp_wl_site(site, set, h, &ss);
	for (int f = 0; f < SP_FLAG_N; f++)
		if (o->flags[f] &&
		    sp_size_advise(h, &ss, (enum sp_flag)f, &adv[f]) == 0)
			use[f] = &adv[f];
	/* The node rule's --exclude, as sp-size writes its record. */
	sp_script_fix(&fx, &j->s, use, nodes != NULL &&
		      sp_wl_exclude_of(nodes, set, (size_t)i, &ex) ? &ex : NULL,
		      o->add);
	warn_notes(&fx.notes, o->path);
	rc = write_out(j, o, &fx);
	sp_script_fix_free(&fx);
	for (int f = 0; f < SP_FLAG_N; f++)
		sp_advice_free(&adv[f]);
	sp_advice_free(&ex);
	sp_script_who_free(&who);
	sp_buf_free(&note);
	sp_buf_free(&why);
	return rc;
}
