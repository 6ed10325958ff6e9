/*
 * keys.c - the key map, as data: which key makes which request, and the
 * words the help screen and the bottom line say about each.  The habits
 * are ncdu's and less's: arrows or j/k move, Enter or Right goes in,
 * q, Escape, Left or Backspace come out, / searches, ? tells the keys.
 */
#include <curses.h>
#include <string.h>

#include "browse.h"

#define CTRL(c) ((c) & 0x1f)

static const struct {
	int key;
	enum req req;
} keymap[] = {
	{ KEY_UP, REQ_UP }, { 'k', REQ_UP },
	{ KEY_DOWN, REQ_DOWN }, { 'j', REQ_DOWN },
	{ KEY_PPAGE, REQ_PGUP }, { 'b', REQ_PGUP }, { CTRL('b'), REQ_PGUP },
	{ KEY_NPAGE, REQ_PGDN }, { ' ', REQ_PGDN }, { CTRL('f'), REQ_PGDN },
	{ KEY_HOME, REQ_HOME }, { 'g', REQ_HOME },
	{ KEY_END, REQ_END }, { 'G', REQ_END },
	{ '\n', REQ_ENTER }, { '\r', REQ_ENTER }, { KEY_ENTER, REQ_ENTER },
	{ KEY_RIGHT, REQ_ENTER }, { 'l', REQ_ENTER },
	{ 'q', REQ_BACK }, { 27, REQ_BACK }, { KEY_LEFT, REQ_BACK },
	{ 'h', REQ_BACK }, { KEY_BACKSPACE, REQ_BACK }, { 127, REQ_BACK },
	{ CTRL('h'), REQ_BACK },
	{ 'Q', REQ_QUIT },
	{ '?', REQ_HELP }, { KEY_F(1), REQ_HELP },
	{ 's', REQ_SORT }, { '>', REQ_SORT }, { '<', REQ_SORT_BACK },
	{ 'S', REQ_REVERSE }, { 'r', REQ_REVERSE },
	{ 'f', REQ_FILTER },
	{ '/', REQ_SEARCH },
	{ 'n', REQ_NEXT }, { 'N', REQ_PREV },
	{ 'y', REQ_COPY },
	{ '\t', REQ_TAB }, { KEY_BTAB, REQ_BACKTAB },
	{ '1', REQ_PANE1 }, { '2', REQ_PANE2 }, { '3', REQ_PANE3 },
	{ '4', REQ_PANE4 },
	{ CTRL('l'), REQ_REDRAW },
	{ 'R', REQ_RUNNING },
};

static const struct keyinfo info[REQ_N] = {
	[REQ_UP] = { "Up k", "move", "the line above" },
	[REQ_DOWN] = { "Down j", "move", "the line below" },
	[REQ_PGUP] = { "PgUp b Ctrl-B", "page", "a page up" },
	[REQ_PGDN] = { "PgDn Space Ctrl-F", "page", "a page down" },
	[REQ_HOME] = { "Home g", "top", "the first line" },
	[REQ_END] = { "End G", "end", "the last line" },
	[REQ_ENTER] = { "Enter Right l", "open",
		"open the line: a workload, a run" },
	[REQ_BACK] = { "q Esc Left h Backspace", "back",
		"back a level; on the workloads, quit" },
	[REQ_QUIT] = { "Q", "quit", "quit from anywhere" },
	[REQ_HELP] = { "? F1", "keys", "every key, on a screen of its own" },
	[REQ_SORT] = { "s >", "sort", "sort by the next column" },
	[REQ_SORT_BACK] = { "<", "sort", "sort by the previous column" },
	[REQ_REVERSE] = { "S r", "reverse", "reverse the order" },
	[REQ_FILTER] = { "f", "filter",
		"filter: failed only, one user, one partition" },
	[REQ_SEARCH] = { "/", "search", "search the names; Enter keeps it" },
	[REQ_NEXT] = { "n", "next", "the next match" },
	[REQ_PREV] = { "N", "previous", "the previous match" },
	[REQ_COPY] = { "y", "copy #SBATCH",
		"copy the #SBATCH lines (clipboard; printed on exit)" },
	[REQ_TAB] = { "Tab", "pane", "the next pane of a workload" },
	[REQ_BACKTAB] = { "Shift-Tab", "pane", "the previous pane" },
	[REQ_PANE1] = { "1", "runs", "the runs, newest first" },
	[REQ_PANE2] = { "2", "advice", "the advice: #SBATCH lines and why" },
	[REQ_PANE3] = { "3", "findings", "the findings across runs" },
	[REQ_PANE4] = { "4", "machines", "the machines, with intervals" },
	[REQ_REDRAW] = { "Ctrl-L", "redraw", "draw the screen again" },
	[REQ_RUNNING] = { "R", "running",
		"the jobs running now: live figures and warnings" },
};

enum req
key_request(int key)
{
	for (size_t i = 0; i < sizeof keymap / sizeof keymap[0]; i++)
		if (keymap[i].key == key)
			return keymap[i].req;
	return REQ_NONE;
}

/* The widest list of keys, for a column of them. */
size_t
key_width(void)
{
	size_t w = 0;

	for (int r = REQ_NONE + 1; r < REQ_N; r++)
		if (info[r].keys != NULL && strlen(info[r].keys) > w)
			w = strlen(info[r].keys);
	return w;
}

const struct keyinfo *
key_info(enum req r)
{
	if ((unsigned)r >= REQ_N || info[r].keys == NULL)
		return NULL;
	return &info[r];
}
