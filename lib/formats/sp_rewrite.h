/*
 * sp_rewrite.h - a text file rewritten line by line: the new text, the
 * same change as a unified diff (patch -p0 applies it), or the file
 * replaced in place.
 *
 * A rewrite is the original's lines in order, each kept, changed or
 * dropped, with new lines added between them.  Every line keeps its own
 * end (LF, CR LF); a file that did not end in a newline still does not,
 * whatever was added after its last line.
 */
#ifndef SP_REWRITE_H
#define SP_REWRITE_H

#include <stddef.h>
#include "sp_script.h"
#include "sp_util.h"

struct sp_row {
	long old;		/* the original line; -1 for a new one */
	int drop;		/* the original line left out */
	int own;		/* the text is the rewrite's (in buf) */
	size_t off, len;	/* own text, in buf */
	enum sp_eol eol;
};

struct sp_rewrite {
	const char *text;		/* the original */
	const struct sp_sline *lines;
	size_t nlines;
	struct sp_row *rows;
	size_t n, cap;
	struct sp_buf buf;
};

/* A rewrite of text, split in lines (sp_script's), that changes nothing
 * yet: call sp_rewrite_keep, _change, _drop for every line in order, and
 * _add between them. */
void sp_rewrite_init(struct sp_rewrite *rw, const char *text,
		     const struct sp_sline *lines, size_t nlines);
void sp_rewrite_free(struct sp_rewrite *rw);

void sp_rewrite_keep(struct sp_rewrite *rw, size_t line);
void sp_rewrite_drop(struct sp_rewrite *rw, size_t line);
/* Line's text (without its end) becomes p[0..n); its end stays. */
void sp_rewrite_change(struct sp_rewrite *rw, size_t line, const char *p,
		       size_t n);
void sp_rewrite_add(struct sp_rewrite *rw, const char *p, size_t n,
		    enum sp_eol eol);
/* After the last line: the file's last line keeps the original's end. */
void sp_rewrite_finish(struct sp_rewrite *rw);

/* How many lines differ: added, dropped or changed. */
size_t sp_rewrite_changes(const struct sp_rewrite *rw);
/* The new text, appended. */
void sp_rewrite_text(const struct sp_rewrite *rw, struct sp_buf *out);
/*
 * The unified diff from the original to the new text (three lines of
 * context, as diff -u), appended; nothing when nothing changed.  Both
 * headers name path, so that patch -p0 applies it to that file.
 */
void sp_rewrite_diff(const struct sp_rewrite *rw, const char *path,
		     struct sp_buf *out);

/* The whole file at path into out (cleared): 0, or -1 with errno set. */
int sp_rewrite_read(const char *path, struct sp_buf *out);

/*
 * Replaces the file at path (through a symbolic link, its target) with
 * text, written beside it under a temporary name and renamed over it,
 * with the original's permissions -- only when the file still holds
 * exactly old (what was read), compared just before the rename.  When
 * backup is not NULL, the original is kept as path + backup first.
 * Returns 0, or -1 with the reason in err.
 */
int sp_rewrite_replace(const char *path, const char *old, size_t oldlen,
		       const char *text, size_t len, const char *backup,
		       struct sp_buf *err);

#endif
