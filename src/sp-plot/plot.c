/*
 * plot.c - the kinds of figure, and one drawn: above every figure, which
 * each stand on figure.c and svg.c.
 */
#include <stdlib.h>
#include <string.h>

#include "plot.h"

const struct plot_kind plot_kinds[] = {
	{ "runtime", "job records (sp-fetch)",
	  "how long each run lasted", plot_runtime },
	{ "share", "workload records (sp-group --rollup)",
	  "the cumulative share of compute", plot_share },
	{ "job", "job records (sp-fetch)",
	  "one job's request against use", plot_job },
	{ "memory-walk", "job records (sp-group)",
	  "the memory walk of one workload", plot_walk },
	{ "array", "job records (sp-group)",
	  "an array's tasks against its probes", plot_array },
	{ "failures", "workload records (sp-group --rollup)",
	  "the workloads with most failures", plot_failures },
	{ "verdicts", "advice records (sp-size)",
	  "the verdicts by flag", plot_verdicts },
	{ "advice", "advice records (sp-size)",
	  "memory asked against advised", plot_advice },
	{ "cost", "re-costing records (sp-size --cost)",
	  "the value of following the advice", plot_cost },
	{ "idle", "the summary of sp-hang --summary",
	  "the allocations that computed nothing", plot_idle },
	{ "nodes", "node records (sp-nodes)",
	  "bad placements by machine", plot_nodes },
	{ NULL, NULL, NULL, NULL }
};

const struct plot_kind *
plot_kind(const char *name)
{
	for (const struct plot_kind *k = plot_kinds; k->name; k++)
		if (strcmp(k->name, name) == 0)
			return k;
	return NULL;
}

int
plot_draw(const struct plot_kind *k, char *const *paths, size_t npaths,
	  const struct plot_opts *o, struct sp_buf *out, struct sp_buf *why)
{
	struct sp_reader r;
	struct svg g;
	struct sp_buf title = { 0 }, caption = { 0 };
	int drawn;

	sp_open_or_die(&r, paths, npaths);
	svg_init(&g, o->id ? o->id : k->name);
	drawn = k->draw(&r, o, &g, &title, &caption, why);
	if (drawn)
		svg_finish(&g, out, sp_buf_str(&title), sp_buf_str(&caption));
	svg_free(&g);
	sp_buf_free(&title);
	sp_buf_free(&caption);
	sp_reader_close(&r);
	return drawn;
}
