/*
 * exclude.c - the machines to leave out: what sp-nodes --exclude wrote
 * (the line to paste under a comment naming the workload and the nodes),
 * where there is a line, or also why there is none.
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

void
exclude_lines(const struct opts *o, int always)
{
	size_t len;
	char *text;

	if (o->in[IN_EXCLUDE] == NULL)
		return;
	/* What sp-nodes --exclude wrote is text, not records. */
	text = slurp(o->in[IN_EXCLUDE], &len);
	if (has_sbatch(text) || always)
		fwrite(text, 1, len, stdout);
	free(text);
}

int
part_exclude(const struct opts *o)
{
	if (o->in[IN_EXCLUDE] == NULL)
		sp_die(SP_EXIT_USAGE, "exclude needs --exclude FILE");
	exclude_lines(o, o->all);
	return SP_EXIT_OK;
}
