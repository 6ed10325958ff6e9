/*
 * page.c - the report as one HTML page: the text report's sections, the
 * figures beside them, and every #SBATCH line gathered at the end.
 *
 * Self-contained, so that it can be mailed as one file: no script, no
 * font, no style sheet or image from elsewhere; the figures are inline
 * SVG and the style one <style> element, with a print style and a
 * layout that stacks in a narrow window.  Every line of text is escaped
 * here, with the figures' own function (sp_xml_text).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp_xml.h"
#include "plot.h"

/* A heading in the text report: the line starts with this byte (the
 * front door's emphasis mark). */
#define HEADING '\036'
/* A table (columns aligned with spaces) wider than this many characters
 * takes the page's whole width, its figures below it: wrapped beside
 * them, its rows would no longer line up. */
#define WIDE_TABLE 100

static const char style[] =
	"body{font-family:sans-serif;color:#1a1a1a;background:#fff;"
	"margin:0 auto;max-width:1500px;padding:1rem 1.5rem;"
	"line-height:1.4}\n"
	"h1{font-size:1.5rem;margin:.2rem 0 .8rem}\n"
	"h2{font-size:1.15rem;margin:1.6rem 0 .6rem;padding-bottom:.2rem;"
	"border-bottom:1px solid #c8c8c8}\n"
	"section.lead h2{font-size:1.35rem;border:0}\n"
	".row{display:flex;flex-wrap:wrap;gap:1rem 1.5rem;"
	"align-items:flex-start}\n"
	".row>pre{flex:1 1 30rem;min-width:0}\n"
	".row>pre.wide{flex-basis:100%}\n"
	".figures{flex:1 1 480px;max-width:640px;min-width:0;display:flex;"
	"flex-direction:column;gap:1rem}\n"
	"pre{font-family:monospace;font-size:.78rem;white-space:pre-wrap;"
	"overflow-wrap:anywhere;background:#f4f4f4;padding:.6rem .8rem;"
	"margin:0}\n"
	"pre b{color:#000}\n"
	"figure{margin:0}\n"
	"figure svg{display:block;max-width:100%;height:auto;"
	"border:1px solid #e3e3e3}\n"
	".nofig{color:#595959;font-style:italic;margin:0}\n"
	"footer{color:#595959;font-size:.8rem;margin-top:2rem}\n"
	"@media (max-width:700px){body{padding:.5rem}pre{font-size:.7rem}}\n"
	"@media print{body{max-width:none;padding:0}"
	"pre{background:none;border-left:2px solid #c8c8c8;font-size:7.5pt}"
	".row,.figures{display:block;max-width:none}"
	".row>pre{margin-bottom:.6rem}"
	"figure,pre{break-inside:avoid}figure{margin:.6rem 0}"
	"figure svg{border:0;max-height:24cm}h2{break-after:avoid}"
	"footer{display:none}}\n";

struct section {
	int open;		/* a <section> is open */
	int figures;		/* its figures' <div> is open */
	struct sp_buf text;	/* its text, escaped, not yet written */
	int wide;		/* the text holds a wide table */
	size_t table_w;		/* its widest table row, in characters */
	size_t headed;		/* sections with a heading so far */
};

static void
escape(struct sp_buf *b, const char *s, size_t n)
{
	sp_xml_text(b, s, n);
}

/* The text gathered so far goes out before the figures beside it. */
static void
flush_text(struct section *s, struct sp_buf *out)
{
	size_t len = s->text.len;

	/* Blank lines at the end are the report's gaps between sections. */
	while (len > 0 && s->text.p[len - 1] == '\n')
		len--;
	if (len > 0) {
		len++;	/* the last line's own end */
		/* HTML drops the line break right after <pre>; it keeps
		 * the first line of the text apart in the source. */
		if (s->wide)
			sp_buf_adds(out, "<pre class=\"wide\">\n");
		else if (s->table_w > 0)
			/* A table never wraps a row: no narrower than its
			 * widest one (up to the page's width), the figures
			 * go below it when both do not fit side by side. */
			sp_buf_printf(out, "<pre style=\"min-width:min(100%%,"
				      "calc(%zuch + 1.6rem))\">\n", s->table_w);
		else
			sp_buf_adds(out, "<pre>\n");
		sp_buf_add(out, s->text.p, len);
		sp_buf_adds(out, "</pre>\n");
	}
	sp_buf_clear(&s->text);
	s->wide = 0;
	s->table_w = 0;
}

/* A row of a table: two columns apart by two spaces or more. */
static int
table_row(const char *line, size_t n)
{
	int gap = 0;

	for (size_t i = 1; i < n; i++) {
		if (gap && line[i] != ' ')
			return 1;
		if (i + 1 < n && line[i] == ' ' && line[i + 1] == ' ' &&
		    line[i - 1] != ' ')
			gap = 1;
	}
	return 0;
}

static void
close_section(struct section *s, struct sp_buf *out)
{
	if (!s->open)
		return;
	flush_text(s, out);
	if (s->figures)
		sp_buf_adds(out, "</div>\n");
	sp_buf_adds(out, "</div>\n</section>\n");
	s->open = s->figures = 0;
}

static void
open_section(struct section *s, struct sp_buf *out, const char *heading,
	     size_t n)
{
	close_section(s, out);
	/* The first heading is the report's headline. */
	sp_buf_printf(out, "<section%s>\n", heading && s->headed++ == 0 ?
		      " class=\"lead\"" : "");
	if (heading) {
		sp_buf_adds(out, "<h2>");
		escape(out, heading, n);
		sp_buf_adds(out, "</h2>\n");
	}
	sp_buf_adds(out, "<div class=\"row\">\n");
	s->open = 1;
}

/* One line of the text report; an #SBATCH line is also kept apart. */
static void
text_line(struct section *s, struct sp_buf *out, struct sp_buf *sbatch,
	  const char *line, size_t n)
{
	if (n > 0 && line[0] == HEADING) {
		open_section(s, out, line + 1, n - 1);
		return;
	}
	if (!s->open) {
		/* Leading blank lines open nothing. */
		if (n == 0)
			return;
		open_section(s, out, NULL, 0);
	}
	if (s->text.len == 0 && n == 0)
		return;
	if (n >= 7 && strncmp(line, "#SBATCH", 7) == 0) {
		sp_buf_adds(&s->text, "<b>");
		escape(&s->text, line, n);
		sp_buf_adds(&s->text, "</b>\n");
		escape(sbatch, line, n);
		sp_buf_addc(sbatch, '\n');
		return;
	}
	if (table_row(line, n)) {
		size_t w = sp_text_width(line, n);

		if (w > WIDE_TABLE)
			s->wide = 1;
		if (w > s->table_w)
			s->table_w = w;
	}
	escape(&s->text, line, n);
	sp_buf_addc(&s->text, '\n');
}

static void
text_file(struct section *s, struct sp_buf *out, struct sp_buf *sbatch,
	  const char *path)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!fp)
		sp_die(SP_EXIT_USAGE, "%s:", path);
	while ((n = getline(&line, &cap, fp)) > 0) {
		if (line[n - 1] == '\n')
			n--;
		text_line(s, out, sbatch, line, (size_t)n);
	}
	if (ferror(fp))
		sp_die(SP_EXIT_USAGE, "%s:", path);
	free(line);
	fclose(fp);
}

static void
figure(struct section *s, struct sp_buf *out, const struct page *p,
       const struct page_block *blk, size_t number)
{
	struct plot_opts o = { 0 };
	struct sp_buf svg = { 0 }, why = { 0 };
	char id[32];
	char *paths[] = { (char *)blk->path };

	if (!s->open)
		open_section(s, out, NULL, 0);
	if (!s->figures) {
		flush_text(s, out);
		sp_buf_adds(out, "<div class=\"figures\">\n");
		s->figures = 1;
	}
	/* Ids unique in the page: two figures of one kind stay apart. */
	snprintf(id, sizeof id, "fig%zu", number);
	o.id = id;
	o.findings = p->findings;
	if (plot_draw(blk->figure, paths, 1, &o, &svg, &why)) {
		sp_buf_adds(out, "<figure>\n");
		sp_buf_add(out, svg.p, svg.len);
		sp_buf_adds(out, "</figure>\n");
	} else {
		sp_buf_adds(out, "<p class=\"nofig\">No figure of ");
		escape(out, blk->figure->what, strlen(blk->figure->what));
		sp_buf_adds(out, ": ");
		escape(out, sp_buf_str(&why), why.len);
		sp_buf_adds(out, ".</p>\n");
	}
	sp_buf_free(&svg);
	sp_buf_free(&why);
}

void
page_write(const struct page *p, struct sp_buf *out)
{
	const char *title = p->title ? p->title : "slurmpast report";
	struct section s = { 0 };
	struct sp_buf sbatch = { 0 };

	sp_buf_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		    "<meta charset=\"utf-8\"/>\n<meta name=\"viewport\" "
		    "content=\"width=device-width, initial-scale=1\"/>\n"
		    "<title>");
	escape(out, title, strlen(title));
	sp_buf_printf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n"
		      "<h1>", style);
	escape(out, title, strlen(title));
	sp_buf_adds(out, "</h1>\n");
	for (size_t i = 0; i < p->n; i++) {
		if (p->blocks[i].kind == BLOCK_TEXT)
			text_file(&s, out, &sbatch, p->blocks[i].path);
		else
			figure(&s, out, p, &p->blocks[i], i + 1);
	}
	close_section(&s, out);
	if (sbatch.len) {
		sp_buf_adds(out, "<section>\n<h2>The lines to paste</h2>\n"
			    "<pre>\n");
		sp_buf_add(out, sbatch.p, sbatch.len);
		sp_buf_adds(out, "</pre>\n</section>\n");
	}
	sp_buf_printf(out, "<footer>Made by sp-plot page (slurmpast %s) from "
		      "the stages' records; every figure says where its "
		      "numbers come from.</footer>\n</body>\n</html>\n",
		      SP_VERSION);
	sp_buf_free(&s.text);
	sp_buf_free(&sbatch);
}
