/*
 * screen.c - parts put together for a person: a blank line between two,
 * a title (a line the part marked with RS) in bold, a severity at the
 * start of a line in its colour, every control character from a record
 * shown rather than obeyed, and each line longer than the width wrapped
 * at words, its next lines under its first word; through a pager when it
 * is longer than the terminal (lib/ground/sp_pager).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "sp_pager.h"
#include "sp_term.h"

/* The cells a wrapped line's next lines start at, and what they start
 * with: a comment stays a comment when pasted into a job script. */
static void
hang(const char *line, size_t n, struct sp_buf *lead)
{
	size_t i = 0;

	sp_buf_clear(lead);
	if (n >= 2 && line[0] == '#' && line[1] == ' ') {
		sp_buf_adds(lead, "#   ");
		return;
	}
	while (i < n && line[i] == ' ')
		i++;
	/* Prose at the margin hangs by two. */
	sp_buf_add(lead, "          ", 0);
	for (size_t k = 0; k < (i ? i : 2); k++)
		sp_buf_addc(lead, ' ');
}

/*
 * Appends line (already clean) wrapped to t->width: at a space where
 * one is within the width, else cut; each next line after lead.
 */
static void
wrap(const struct sp_term *t, struct sp_buf *out, const char *line,
     size_t n, const struct sp_buf *lead)
{
	size_t width = (size_t)t->width, used = 0, start = 0;
	size_t lead_cells = sp_text_width(lead->p, lead->len);

	if (width == 0 || sp_text_width(line, n) <= width) {
		sp_buf_add(out, line, n);
		return;
	}
	while (start < n) {
		size_t room = width > used ? width - used : 1;
		size_t fit = sp_text_fit(line + start, n - start, room);
		size_t cut = fit;

		if (start + fit < n) {
			/* Back to the last space inside the room. */
			size_t k = fit;

			while (k > 0 && line[start + k] != ' ')
				k--;
			if (k > 0)
				cut = k;
		}
		if (cut == 0)
			cut = fit ? fit : 1;
		sp_buf_add(out, line + start, cut);
		start += cut;
		while (start < n && line[start] == ' ')
			start++;
		if (start < n) {
			sp_buf_addc(out, '\n');
			sp_buf_add(out, lead->p, lead->len);
			used = lead_cells;
		}
	}
}

static void
paint_line(const struct sp_term *t, struct sp_buf *out, const char *line,
	   size_t n, int title)
{
	static const struct { const char *word; enum sp_paint paint; }
	words[] = { { "critical", SP_P_CRITICAL },
		    { "warning", SP_P_WARNING } };

	if (title) {
		sp_term_paint(t, out, SP_P_BOLD);
		sp_buf_add(out, line, n);
		sp_term_paint(t, out, SP_P_NONE);
		return;
	}
	for (size_t i = 0; i < 2; i++) {
		size_t len = strlen(words[i].word);

		if (n >= len && memcmp(line, words[i].word, len) == 0) {
			sp_term_painted(t, out, words[i].paint,
					words[i].word);
			sp_buf_add(out, line + len, n - len);
			return;
		}
	}
	sp_buf_add(out, line, n);
}

/* One part's text onto the screen. */
static void
add_part(const struct sp_term *t, struct sp_buf *out, const char *text,
	 size_t len)
{
	struct sp_buf clean = { 0 }, wrapped = { 0 }, lead = { 0 };
	size_t at = 0;

	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
		int title = n > 0 && text[at] == '\036';
		const char *line = text + at + title;

		sp_buf_clear(&clean);
		sp_buf_clear(&wrapped);
		sp_term_clean(t, &clean, line, n - title, 0);
		hang(sp_buf_str(&clean), clean.len, &lead);
		wrap(t, &wrapped, sp_buf_str(&clean), clean.len, &lead);
		paint_line(t, out, sp_buf_str(&wrapped), wrapped.len, title);
		sp_buf_addc(out, '\n');
		at += n + 1;
	}
	sp_buf_free(&clean);
	sp_buf_free(&wrapped);
	sp_buf_free(&lead);
}

int
part_screen(const struct opts *o)
{
	struct sp_term t;
	struct sp_buf out = { 0 };
	int any = 0;

	sp_term_setup(&t, 1, (int)o->width, !o->color, 0);
	/* Into a pipe, the text as it is: wrapped only for a width known. */
	if (o->width == 0 && sp_term_width(1) == 0)
		t.width = 0;
	t.color = o->color;
	for (size_t i = 0; i < o->nfiles; i++) {
		size_t len;
		char *text = slurp(o->files[i], &len);

		if (len > 0) {
			if (any)
				sp_buf_addc(&out, '\n');
			add_part(&t, &out, text, len);
			any = 1;
		}
		free(text);
	}
	/* Everything is read and laid out before a pager takes the terminal. */
	sp_pager_start(o->no_pager);
	fwrite(out.p ? out.p : "", 1, out.len, stdout);
	sp_buf_free(&out);
	sp_pager_end();
	return SP_EXIT_OK;
}
