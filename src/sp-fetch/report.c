/*
 * report.c - what sp-fetch read and what it could not: every count the
 * parser keeps, as one line on standard error each, and as a record file
 * (--stats) that the front door turns into its headline and --json.
 * The message of a kind is written once, here, for both.
 */
#include <string.h>

#include "sp.h"
#include "fetch.h"

struct report {
	struct sp_writer w;
	int stats;		/* writing the record file */
	struct sp_buf msg;
};

static const char *
plural(unsigned long n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* Text from the input, safe on a terminal: a control byte shows as '?'. */
static void
add_shown(struct sp_buf *b, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sp_buf_addc(b, (unsigned char)s[i] < 0x20 || s[i] == 0x7f ?
		    '?' : s[i]);
}

/* One kind: said on stderr when it happened, a row of the record file. */
static void
kind(struct report *r, const char *key, unsigned long n)
{
	if (n > 0 && r->msg.len > 0)
		sp_warn("%s", sp_buf_str(&r->msg));
	if (r->stats) {
		sp_writer_str(&r->w, key);
		sp_writer_int(&r->w, (long long)n);
		if (n > 0)
			sp_writer_raw(&r->w, r->msg.p, r->msg.len);
		else
			sp_writer_empty(&r->w);
		sp_writer_end(&r->w);
	}
	sp_buf_clear(&r->msg);
}

static void
add_column(struct report *r, const struct sp_sacct *ps, size_t pos)
{
	const char *name = sp_sacct_column_name(ps, pos);

	add_shown(&r->msg, name, strlen(name));
}

/* "their last field (Partition)", "their last 3 fields (A, B, C)". */
static void
short_rows(struct report *r, const struct sp_sacct *ps)
{
	const struct sp_sacct_stats *st = &ps->st;
	size_t first = st->short_fewest, i;

	if (st->short_rows == 0) {
		kind(r, "short_rows", 0);
		return;
	}
	sp_buf_printf(&r->msg, "read %lu %s short of ", st->short_rows,
	    plural(st->short_rows, "row", "rows"));
	if (st->short_fewest == st->short_most) {
		size_t k = ps->ncols - first;

		sp_buf_adds(&r->msg, plural(st->short_rows, "its", "their"));
		if (k == 1)
			sp_buf_adds(&r->msg, " last field (");
		else
			sp_buf_printf(&r->msg, " last %zu fields (", k);
		for (i = first; i < ps->ncols; i++) {
			if (i > first + 3 && i + 1 < ps->ncols) {
				sp_buf_adds(&r->msg, ", ...");
				i = ps->ncols - 2;
				continue;
			}
			if (i > first)
				sp_buf_adds(&r->msg, ", ");
			add_column(r, ps, i);
		}
		sp_buf_printf(&r->msg, ") with %s unknown",
		    k == 1 ? "it" : "them");
	} else {
		sp_buf_adds(&r->msg, "trailing fields (from ");
		add_column(r, ps, first);
		sp_buf_adds(&r->msg, " on) with those unknown");
	}
	kind(r, "short_rows", st->short_rows);
}

static const char *
delimiter_name(int delim)
{
	switch (delim) {
	case '|':
		return "'|'";
	case '\t':
		return "TAB";
	case 0x1f:
		return "0x1F";
	}
	return "delimiter";
}

/* "rejoined 3 rows whose SubmitLine held the delimiter '|'". */
static void
rejoined(struct report *r, const struct sp_sacct *ps)
{
	size_t i, named = 0;

	if (ps->st.rejoined > 0) {
		sp_buf_printf(&r->msg, "rejoined %lu %s whose ",
		    ps->st.rejoined, plural(ps->st.rejoined, "row", "rows"));
		for (i = 0; i < ps->ncols; i++) {
			if (ps->rejoined_at[i] == 0)
				continue;
			if (named++)
				sp_buf_adds(&r->msg, " or ");
			add_column(r, ps, i);
		}
		sp_buf_printf(&r->msg, " held the delimiter %s",
		    delimiter_name(ps->delim));
	}
	kind(r, "rejoined_rows", ps->st.rejoined);
}

/* "2 records in states slurmpast does not know (FOO, BAR): ...". */
static void
odd_states(struct report *r, const struct sp_sacct *ps)
{
	size_t i, n = ps->odd_states.n;

	if (ps->st.unknown_states > 0) {
		sp_buf_printf(&r->msg, "%lu %s in %s slurmpast does not know (",
		    ps->st.unknown_states, plural(ps->st.unknown_states,
		    "record", "records"), plural(n, "a state", "states"));
		for (i = 0; i < n && i < 5; i++) {
			const char *s = sp_intern_str(&ps->odd_states, i);

			if (i)
				sp_buf_adds(&r->msg, ", ");
			add_shown(&r->msg, s, strlen(s));
		}
		if (n > 5)
			sp_buf_printf(&r->msg, " and %zu more", n - 5);
		sp_buf_adds(&r->msg, "): kept as printed, counted as neither "
		    "success nor failure");
	}
	kind(r, "unknown_states", ps->st.unknown_states);
}

int
fetch_report(const struct sp_sacct *ps, unsigned long records,
	     unsigned long unselected, unsigned long unsettled, FILE *stats)
{
	const struct sp_sacct_stats *st = &ps->st;
	struct report r;
	struct sp_buf *m = &r.msg;
	unsigned long dropped = st->shifted + st->nul_rows;

	memset(&r, 0, sizeof r);
	r.stats = stats != NULL;
	if (r.stats) {
		sp_writer_init(&r.w, stats, SP_FMT_TSV);
		sp_writer_column(&r.w, "key");
		sp_writer_column(&r.w, "count");
		sp_writer_column(&r.w, "message");
		sp_writer_header(&r.w);
	}
	kind(&r, "rows", st->rows - st->headers);
	kind(&r, "records", records);
	/* The user's own choice: counted, never said. */
	kind(&r, "unselected", unselected);
	short_rows(&r, ps);
	rejoined(&r, ps);
	if (st->shifted)
		sp_buf_printf(m, "dropped %lu %s with more fields than the %zu "
		    "named, where no single free-text field can hold the "
		    "extra ones (the delimiter inside a value?)", st->shifted,
		    plural(st->shifted, "row", "rows"), ps->ncols);
	kind(&r, "long_rows", st->shifted);
	if (st->nul_rows)
		sp_buf_printf(m, "dropped %lu %s holding a NUL byte (binary "
		    "data?)", st->nul_rows, plural(st->nul_rows, "row", "rows"));
	kind(&r, "nul_rows", st->nul_rows);
	if (st->lost_steps)
		sp_buf_printf(m, "%lu of the %lu dropped %s %s, so for %lu %s "
		    "the step figures (peak memory, step CPU, I/O) are the "
		    "allocation row's alone, unknown where it has none",
		    st->lost_steps, dropped, plural(dropped, "row", "rows"),
		    plural(st->lost_steps, "was a step", "were steps"),
		    st->partial, plural(st->partial, "job", "jobs"));
	kind(&r, "dropped_steps", st->lost_steps);
	kind(&r, "partial_records", st->partial);
	if (st->damaged)
		sp_buf_printf(m, "left out %lu %s whose own %s dropped",
		    st->damaged, plural(st->damaged, "allocation",
		    "allocations"), plural(st->damaged, "row was",
		    "rows were"));
	kind(&r, "left_out", st->damaged);
	if (st->orphans)
		sp_buf_printf(m, "ignored %lu step %s without %s allocation "
		    "row", st->orphans, plural(st->orphans, "row", "rows"),
		    plural(st->orphans, "its", "their"));
	kind(&r, "orphan_steps", st->orphans);
	if (st->stray)
		sp_buf_printf(m, "ignored %lu %s that %s no record", st->stray,
		    plural(st->stray, "line", "lines"),
		    plural(st->stray, "holds", "hold"));
	kind(&r, "stray_lines", st->stray);
	odd_states(&r, ps);
	/* Slurm's habits with CPU time: each met is said once, by name. */
	if (st->cpu_usersys)
		sp_buf_printf(m, "read the CPU time of %lu %s from UserCPU + "
		    "SystemCPU: TotalCPU said 0 or nothing", st->cpu_usersys,
		    plural(st->cpu_usersys, "job", "jobs"));
	kind(&r, "cpu_from_usersys", st->cpu_usersys);
	if (st->cpu_tres)
		sp_buf_printf(m, "read the CPU time of %lu %s from "
		    "TRESUsageInTot's cpu=: TotalCPU, UserCPU and SystemCPU "
		    "said 0 or nothing, as Slurm 25.05 wrote them for job "
		    "steps (user and system time unknown)", st->cpu_tres,
		    plural(st->cpu_tres, "job", "jobs"));
	kind(&r, "cpu_from_tres", st->cpu_tres);
	if (unsettled)
		sp_buf_printf(m, "%lu %s ended within the last %d minutes with "
		    "no CPU time recorded: usage not yet recorded, read as "
		    "unknown, not as computing nothing (ask again later)",
		    unsettled, plural(unsettled, "job", "jobs"),
		    SP_USAGE_SETTLE_S / 60);
	kind(&r, "usage_not_recorded", unsettled);
	if (st->mem_update)
		sp_buf_printf(m, "%lu %s asked for --mem-update: Slurm may have "
		    "lowered %s memory limit while %s ran, so the limit in the "
		    "record need not be the one %s ran or %s killed under; "
		    "read as unknown, never as a kill size or a request",
		    st->mem_update, plural(st->mem_update, "job", "jobs"),
		    plural(st->mem_update, "its", "their"),
		    plural(st->mem_update, "it", "they"),
		    plural(st->mem_update, "it", "they"),
		    plural(st->mem_update, "was", "were"));
	kind(&r, "mem_update", st->mem_update);
	sp_buf_free(&r.msg);
	if (r.stats) {
		sp_writer_finish(&r.w);
		return ferror(stats) ? -1 : 0;
	}
	return 0;
}
