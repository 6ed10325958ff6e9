/*
 * ui.c - the frame every view is drawn in, and the loop.
 *
 * The terminal is /dev/tty, opened for both ways, so the records may come
 * on standard input and standard output stays free for what y copies.
 * Lines come from the views as clean text with the SGR escapes of
 * sp_term_paint in them (nothing else can hold an escape: record text is
 * made safe before it is put in a line); they are drawn through ncurses,
 * each escape turned into an attribute, each line cut at the width.
 *
 * Every way out goes through leave(): q on the workloads, Q, Ctrl-C (the
 * signal, caught and answered between two keys, then raised again once
 * the terminal is restored, so a calling script stops as it should),
 * SIGTERM and SIGHUP, a failed write to the terminal, a terminal gone
 * (hung up, its input at an end: a closed window whose SIGHUP went to a
 * shell that ignores it), and exit() from anywhere (an atexit hook).
 */
#include <curses.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "browse.h"
/* Last: its capability macros (lines, columns) would rename ours. */
#include <term.h>

/* What a key waits at most before the loop looks at the signals. */
#define POLL_MS		200
/* Escape alone, not the start of a sequence, after this long. */
#define ESC_DELAY_MS	25
/*
 * Key reads in a row that fail while the terminal says input is waiting:
 * one is a key that came just after the wait ran out, several are a
 * terminal whose reads end at once (gone, though not hung up).
 */
#define TTY_DEAD_READS	3

/* Why the loop stops besides a signal (caught holds a signal's number). */
enum { GONE_WRITE = -1, GONE_TTY = -2 };

enum pair { PAIR_CRITICAL = 1, PAIR_WARNING, PAIR_INFO, PAIR_GOOD };

static volatile sig_atomic_t caught;
static int odd_reads;		/* failed reads in a row, input waiting */
static SCREEN *screen;
static FILE *tty;
static int hues;		/* colours drawn */

static void
on_signal(int sig)
{
	caught = sig;
}

/* The terminal as it was: main screen, cursor, modes. */
static void
restore(void)
{
	if (screen == NULL)
		return;
	endwin();
	delscreen(screen);
	screen = NULL;
	if (tty != NULL) {
		fclose(tty);
		tty = NULL;
	}
}

static void
catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a key read in wait returns, and the loop sees it. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static int
start(struct browse *B)
{
	const char *term = getenv("TERM");

	tty = fopen("/dev/tty", "r+");
	if (tty == NULL) {
		sp_warn("/dev/tty: %s: the text instead", strerror(errno));
		return -1;
	}
	screen = newterm(term, tty, tty);
	if (screen == NULL) {
		sp_warn("TERM=%s: not a terminal ncurses knows: the text "
			"instead", term ? term : "");
		fclose(tty);
		tty = NULL;
		return -1;
	}
	set_term(screen);
	atexit(restore);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	if (getenv("ESCDELAY") == NULL)
		set_escdelay(ESC_DELAY_MS);
	curs_set(0);
	wtimeout(stdscr, POLL_MS);
	catch_signals();
	hues = !B->o->term.no_color && has_colors();
	if (hues) {
		start_color();
		use_default_colors();
		init_pair(PAIR_CRITICAL, COLOR_RED, -1);
		init_pair(PAIR_WARNING, COLOR_YELLOW, -1);
		init_pair(PAIR_INFO, COLOR_CYAN, -1);
		init_pair(PAIR_GOOD, COLOR_GREEN, -1);
	}
	/* Terminfo's Ms: the terminal takes a selection (OSC 52). */
	{
		char *ms = tigetstr("Ms");

		B->clipboard = ms != NULL && ms != (char *)-1;
	}
	return 0;
}

/* ------------------------------------------------------------ drawing */

/* The attribute of one SGR parameter list, as sp_term_paint writes. */
static attr_t
sgr_attr(const char *p, size_t n, attr_t base)
{
	attr_t a = base;
	size_t i = 0;

	while (i < n) {
		int v = 0;

		while (i < n && p[i] >= '0' && p[i] <= '9')
			v = v * 10 + (p[i++] - '0');
		i++;	/* the ';' */
		switch (v) {
		case 0: a = base; break;
		case 1: a |= A_BOLD; break;
		case 2: a |= A_DIM; break;
		case 31: if (hues) a |= COLOR_PAIR(PAIR_CRITICAL); break;
		case 33: if (hues) a |= COLOR_PAIR(PAIR_WARNING); break;
		case 36: if (hues) a |= COLOR_PAIR(PAIR_INFO); break;
		case 32: if (hues) a |= COLOR_PAIR(PAIR_GOOD); break;
		default: break;
		}
	}
	return a;
}

/*
 * Line y: the text from column 0, cut at the width, the rest of the row
 * cleared (filled with base, so a selected line is a bar).
 */
static void
put_line(int y, const char *s, size_t n, attr_t base)
{
	size_t used = 0, width = (size_t)COLS, i = 0;
	attr_t a = base;

	move(y, 0);
	attrset(base);
	while (i < n && used < width) {
		size_t j = i, run, fit;

		if (s[i] == '\033' && i + 1 < n && s[i + 1] == '[') {
			size_t k = i + 2;

			while (k < n && s[k] != 'm')
				k++;
			a = sgr_attr(s + i + 2, k - i - 2, base);
			attrset(a);
			i = k + 1;
			continue;
		}
		while (j < n && s[j] != '\033')
			j++;
		run = j - i;
		fit = sp_text_fit(s + i, run, width - used);
		addnstr(s + i, (int)fit);
		used += sp_text_width(s + i, fit);
		if (fit < run)
			break;
		i = j;
	}
	attrset(base);
	for (; used < width; used++)
		addch(' ');
	attrset(A_NORMAL);
}

static void
put_buf(int y, const struct sp_buf *b, attr_t base)
{
	put_line(y, b->p ? b->p : "", b->len, base);
}

/* "key word" of one request, as the bottom line gives it (appended). */
static void
hint(struct browse *B, const struct view *v, enum req r, struct sp_buf *b)
{
	const struct keyinfo *k = key_info(r);
	const char *sp = strchr(k->keys, ' ');

	sp_term_paint(&B->term, b, SP_P_BOLD);
	sp_buf_add(b, k->keys, sp ? (size_t)(sp - k->keys) : strlen(k->keys));
	sp_term_paint(&B->term, b, SP_P_NONE);
	sp_buf_addc(b, ' ');
	if (r == REQ_BACK && v->parent == NULL)
		sp_buf_adds(b, "quit");
	else if (r == REQ_ENTER && strcmp(v->ops->name, "filter") == 0)
		sp_buf_adds(b, "toggle");	/* a list of check boxes */
	else
		sp_buf_adds(b, k->brief);
}

/*
 * The bottom line: a message, or the main keys of the view on top, and
 * where the cursor is at the right.  Keys that do not fit leave, the
 * first ones last; ? (which lists them all) and q stay.
 */
static void
bottom(struct browse *B, struct sp_buf *b)
{
	const struct view *v = B->view;
	size_t count = v->ops->count((struct view *)v), room = (size_t)COLS;
	struct sp_buf pos = { 0 }, h = { 0 };
	int keep[REQ_N] = { 0 };

	if (v->cursor && count > 0)
		sp_buf_printf(&pos, "%zu/%zu", v->cur + 1, count);
	room = room > pos.len + 2 ? room - pos.len - 2 : 0;
	sp_buf_clear(b);
	if (B->msg.len > 0) {
		/* Cut at the window, visibly, should it have shrunk. */
		size_t w = sp_text_width(B->msg.p, B->msg.len);

		text_cell(&B->term, b, B->msg.p, B->msg.len,
			  w > (size_t)COLS ? (size_t)COLS : w, 0);
	} else {
		size_t used = 0;

		/* What must stay first, then the others in their order. */
		for (int pass = 0; pass < 2; pass++)
			for (const enum req *r = v->ops->main_keys;
			     *r != REQ_NONE; r++) {
				int must = *r == REQ_HELP || *r == REQ_BACK;

				if (must != (pass == 0))
					continue;
				sp_buf_clear(&h);
				hint(B, v, *r, &h);
				if (used + (used ? 2 : 0) +
				    sp_text_width(h.p, h.len) > room)
					continue;
				used += (used ? 2 : 0) +
					sp_text_width(h.p, h.len);
				keep[*r] = 1;
			}
		for (const enum req *r = v->ops->main_keys; *r != REQ_NONE;
		     r++) {
			if (!keep[*r])
				continue;
			if (b->len > 0)
				sp_buf_adds(b, "  ");
			hint(B, v, *r, b);
		}
	}
	if (pos.len > 0) {
		size_t w = sp_text_width(b->p, b->len);

		if (w + pos.len + 2 <= (size_t)COLS) {
			for (size_t k = w; k + pos.len < (size_t)COLS; k++)
				sp_buf_addc(b, ' ');
			sp_buf_add(b, pos.p, pos.len);
		}
	}
	sp_buf_free(&pos);
	sp_buf_free(&h);
}

static void
draw(struct browse *B)
{
	struct view *v = B->view;
	struct sp_buf b = { 0 };
	size_t head = v->ops->nheader ? v->ops->nheader(v) : 0;
	size_t h = view_height(v), count = v->ops->count(v);
	int y = 0;

	B->term.width = COLS;
	erase();
	v->ops->title(v, &b);
	put_buf(y++, &b, A_BOLD);
	for (size_t i = 0; i < head && y < LINES - 1; i++) {
		sp_buf_clear(&b);
		v->ops->header(v, i, &b);
		put_buf(y++, &b, A_NORMAL);
	}
	for (size_t i = v->top; i < count && i < v->top + h &&
	     y < LINES - 1; i++) {
		sp_buf_clear(&b);
		v->ops->line(v, i, &b);
		put_buf(y++, &b, v->cursor && i == v->cur ? A_REVERSE :
			A_NORMAL);
	}
	bottom(B, &b);
	put_buf(LINES - 1, &b, A_REVERSE);
	sp_buf_free(&b);
	/* A terminal that takes no more output ends the run, restored. */
	if (wnoutrefresh(stdscr) == ERR || doupdate() == ERR)
		caught = GONE_WRITE;
}

/* ---------------------------------------------------------------- keys */

/*
 * Whether a failed key read means the terminal is gone.  A wait that ran
 * out leaves nothing to read; a hung-up terminal polls as hung up and
 * reads end of file at once, forever, so a loop that took it for a wait
 * would spin; an input that errs (EIO) says so in errno.
 */
static int
tty_gone(int read_errno)
{
	struct pollfd p;

	if (read_errno == EIO || read_errno == EBADF)
		return 1;
	memset(&p, 0, sizeof p);
	p.fd = fileno(tty);
	p.events = POLLIN;
	if (poll(&p, 1, 0) <= 0) {
		odd_reads = 0;
		return 0;
	}
	if (p.revents & (POLLHUP | POLLERR | POLLNVAL))
		return 1;
	return ++odd_reads >= TTY_DEAD_READS;
}

/* A key, ERR when none came in time; a terminal gone stops the loop. */
static int
read_key(void)
{
	int c;

	errno = 0;
	c = getch();
	if (c != ERR)
		odd_reads = 0;
	else if (!caught && tty_gone(errno))
		caught = GONE_TTY;
	return c;
}

/* ------------------------------------------------------------- search */

static int
contains_lower(const char *hay, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	if (k == 0)
		return 1;
	for (size_t i = 0; i + k <= n; i++) {
		size_t j = 0;

		while (j < k) {
			int c = (unsigned char)hay[i + j];

			if (c >= 'A' && c <= 'Z')
				c += 'a' - 'A';
			if (c != (unsigned char)needle[j])
				break;
			j++;
		}
		if (j == k)
			return 1;
	}
	return 0;
}

/* A line's text without its paint, for views with no match of their own. */
static int
line_matches(struct view *v, size_t i, const char *needle)
{
	struct sp_buf b = { 0 }, plain = { 0 };
	int hit;

	if (v->ops->match != NULL)
		return v->ops->match(v, i, needle);
	v->ops->line(v, i, &b);
	for (size_t k = 0; k < b.len; k++) {
		if (b.p[k] == '\033') {
			while (k < b.len && b.p[k] != 'm')
				k++;
			continue;
		}
		sp_buf_addc(&plain, b.p[k]);
	}
	hit = contains_lower(plain.p ? plain.p : "", plain.len, needle);
	sp_buf_free(&b);
	sp_buf_free(&plain);
	return hit;
}

/* From line from, in direction dir, wrapping: 1 and v's line moved. */
static int
find(struct view *v, size_t from, int dir, const char *needle)
{
	size_t count = v->ops->count(v);

	for (size_t k = 0; k < count; k++) {
		size_t i = dir > 0 ? (from + k) % count :
				     (from + count - k % count) % count;

		if (line_matches(v, i, needle)) {
			if (v->cursor)
				v->cur = i;
			else
				v->top = i;
			view_settle(v);
			return 1;
		}
	}
	return 0;
}

static int
text_key(int c)
{
	return c >= 0x20 && c < 0x100 && c != 0x7f;
}

/* The prompt on the bottom line; every key moves to the first match. */
static void
search(struct browse *B)
{
	struct view *v = B->view;
	size_t cur0 = v->cur, top0 = v->top;
	struct sp_buf typed = { 0 }, shown = { 0 };
	int c;

	for (;;) {
		sp_buf_clear(&B->msg);
		sp_buf_addc(&B->msg, '/');
		sp_buf_clear(&shown);
		sp_term_clean(&B->term, &shown, typed.p ? typed.p : "",
			      typed.len, 0);
		sp_buf_add(&B->msg, shown.p, shown.len);
		draw(B);
		c = read_key();
		if (caught)
			break;
		if (c == ERR)
			continue;
		if (c == KEY_RESIZE) {
			B->rows = LINES;
			if (v->ops->relayout)
				v->ops->relayout(v);
			continue;
		}
		if (c == 27) {
			v->cur = cur0;
			v->top = top0;
			sp_buf_clear(&B->msg);
			break;
		}
		if (c == '\n' || c == '\r' || c == KEY_ENTER) {
			sp_buf_clear(&B->msg);
			if (typed.len == 0)
				break;
			sp_buf_clear(&B->needle);
			for (size_t k = 0; k < typed.len; k++) {
				int ch = (unsigned char)typed.p[k];

				sp_buf_addc(&B->needle, (char)(ch >= 'A' &&
					    ch <= 'Z' ? ch + 'a' - 'A' : ch));
			}
			if (!find(v, v->cursor ? v->cur : v->top, 1,
				  sp_buf_str(&B->needle)))
				browse_say(B, "no line holds \"%s\"",
					   sp_buf_str(&shown));
			break;
		}
		if (c == KEY_BACKSPACE || c == 127 || c == 8) {
			/* A whole character: its continuation bytes too. */
			while (typed.len > 0 &&
			       ((unsigned char)typed.p[typed.len - 1] &
				0xc0) == 0x80)
				typed.len--;
			if (typed.len > 0)
				typed.len--;
			if (typed.p)
				typed.p[typed.len] = '\0';
		} else if (text_key(c)) {
			sp_buf_addc(&typed, (char)c);
		} else {
			continue;
		}
		v->cur = cur0;
		v->top = top0;
		if (typed.len > 0) {
			struct sp_buf low = { 0 };

			for (size_t k = 0; k < typed.len; k++) {
				int ch = (unsigned char)typed.p[k];

				sp_buf_addc(&low, (char)(ch >= 'A' &&
					    ch <= 'Z' ? ch + 'a' - 'A' : ch));
			}
			find(v, v->cursor ? cur0 : top0, 1, sp_buf_str(&low));
			sp_buf_free(&low);
		}
	}
	sp_buf_free(&typed);
	sp_buf_free(&shown);
}

/* The requests every view answers the same way. */
static void
request(struct browse *B, enum req r)
{
	struct view *v = B->view;
	long page = (long)view_height(v);

	if (v->ops->request != NULL && v->ops->request(v, r))
		return;
	switch (r) {
	case REQ_UP: view_move_by(v, -1); break;
	case REQ_DOWN: view_move_by(v, 1); break;
	case REQ_PGUP:
		if (v->cursor)
			v->top = v->top > (size_t)page ? v->top - page : 0;
		view_move_by(v, -page);
		break;
	case REQ_PGDN:
		if (v->cursor)
			v->top += (size_t)page;
		view_move_by(v, page);
		break;
	case REQ_HOME: view_move_by(v, -(long)v->ops->count(v)); break;
	case REQ_END: view_move_by(v, (long)v->ops->count(v)); break;
	case REQ_BACK:
		if (v->parent == NULL)
			B->done = 1;
		else
			view_pop(B);
		break;
	case REQ_QUIT: B->done = 1; break;
	case REQ_HELP:
		if (strcmp(v->ops->name, "keys") != 0)
			view_push(B, help_open(B));
		break;
	case REQ_RUNNING:
		if (strcmp(v->ops->name, "running") != 0)
			view_push(B, running_open(B));
		break;
	case REQ_SEARCH: search(B); break;
	case REQ_NEXT:
	case REQ_PREV:
		if (B->needle.len == 0) {
			browse_say(B, "no search yet: / to search");
			break;
		}
		if (!find(v, (v->cursor ? v->cur : v->top) +
			  (r == REQ_NEXT ? 1 : v->ops->count(v) - 1),
			  r == REQ_NEXT ? 1 : -1, sp_buf_str(&B->needle)))
			browse_say(B, "no line holds \"%s\"",
				   sp_buf_str(&B->needle));
		break;
	case REQ_REDRAW: clearok(curscr, TRUE); break;
	default: break;
	}
}

/* Leaves the screen, then says what y copied; the exit status. */
static int
leave(struct browse *B)
{
	int sig = caught;

	restore();
	while (B->view != NULL)
		view_pop(B);
	if (B->copied.len > 0)
		fwrite(B->copied.p, 1, B->copied.len, stdout);
	if (sig == GONE_WRITE) {
		sp_warn("/dev/tty: the terminal took no more output");
		return SP_EXIT_USAGE;
	}
	if (sig == GONE_TTY) {
		sp_warn("/dev/tty: the terminal went away");
		return SP_EXIT_USAGE;
	}
	if (sig > 0) {
		/* Restored: now die of the signal, as the caller expects. */
		sp_stdout_close();
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return SP_EXIT_OK;
}

int
ui_run(struct model *m, const struct opts *o)
{
	struct browse B;
	int status;

	memset(&B, 0, sizeof B);
	B.m = m;
	B.o = o;
	if (start(&B) != 0)
		return plain_run(m, o);
	B.term.width = COLS;
	B.term.color = 1;	/* paints become attributes; hues are ours */
	B.term.ascii = o->term.ascii || !sp_term_locale_utf8();
	B.term.tty = 1;
	B.rows = LINES;
	B.view = workloads_open(&B);
	while (!B.done && !caught) {
		int c;

		draw(&B);
		if (caught)
			break;
		c = read_key();
		if (c == ERR)
			continue;
		sp_buf_clear(&B.msg);
		if (c == KEY_RESIZE) {
			B.rows = LINES;
			B.term.width = COLS;
			for (struct view *v = B.view; v; v = v->parent) {
				if (v->ops->relayout)
					v->ops->relayout(v);
				view_settle(v);
			}
			continue;
		}
		request(&B, key_request(c));
		if (B.osc.len > 0) {
			/* The selection, straight to the terminal. */
			fwrite(B.osc.p, 1, B.osc.len, tty);
			fflush(tty);
			sp_buf_clear(&B.osc);
		}
	}
	status = leave(&B);
	sp_buf_free(&B.msg);
	sp_buf_free(&B.needle);
	sp_buf_free(&B.copied);
	sp_buf_free(&B.osc);
	return status;
}
