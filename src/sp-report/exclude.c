/*
 * exclude.c - the machines to leave out: sp-nodes --exclude's line, with
 * a comment above it naming the workload they fail and the nodes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static int
has_sbatch(const char *text)
{
	return strncmp(text, "#SBATCH", 7) == 0 || strstr(text, "\n#SBATCH");
}

/* "# rollout-gen (alice): leave out g003, g011, worse than ..." */
static void
comment(const struct opts *o, const struct labels *l)
{
	struct sp_reader r;
	struct sp_buf nodes = { 0 }, who = { 0 };
	int node, verdict, key, wl;

	if (o->in[IN_NODES] == NULL)
		return;
	input_open(&r, o, IN_NODES);
	node = sp_reader_need(&r, "node", "sp-nodes");
	verdict = sp_reader_need(&r, "verdict", "sp-nodes");
	key = sp_reader_col(&r, "workload_key");
	wl = sp_reader_col(&r, "workload");
	while (sp_next_or_die(&r)) {
		if (!sp_slice_eq(r.f[verdict], "worse"))
			continue;
		if (nodes.len > 0)
			sp_buf_adds(&nodes, ", ");
		field_text(&nodes, r.f[node]);
		if (who.len > 0)
			continue;
		if (key < 0 || r.f[key].n == 0 || sp_slice_eq(r.f[key], "*"))
			sp_buf_adds(&who, "every workload");
		else
			labels_name(l, &who, r.f[key], wl >= 0 ? r.f[wl] :
				    r.f[key]);
	}
	sp_reader_close(&r);
	if (nodes.len > 0)
		printf("# %s: leave out %s, worse than the other machines for "
		       "it\n", sp_buf_str(&who), sp_buf_str(&nodes));
	sp_buf_free(&nodes);
	sp_buf_free(&who);
}

void
exclude_lines(const struct opts *o, const struct labels *l, int always)
{
	size_t len;
	char *text;

	if (o->in[IN_EXCLUDE] == NULL)
		return;
	/* What sp-nodes --exclude wrote is text, not records. */
	text = slurp(o->in[IN_EXCLUDE], &len);
	if (has_sbatch(text))
		comment(o, l);
	if (has_sbatch(text) || always)
		fwrite(text, 1, len, stdout);
	free(text);
}

int
part_exclude(const struct opts *o)
{
	struct labels l;

	if (o->in[IN_EXCLUDE] == NULL)
		sp_die(SP_EXIT_USAGE, "exclude needs --exclude FILE");
	labels_load(&l, o);
	exclude_lines(o, &l, o->all);
	labels_free(&l);
	return SP_EXIT_OK;
}
