/*
 * sp_pager.h - output longer than the screen through a pager, as git
 * does it: only when standard output is a terminal (not TERM=dumb), the
 * command from SLURMPAST_PAGER, else PAGER, else "less -FRX" (-F: quit
 * at once when it fits one screen, -R: keep the colours, -X: leave the
 * text on the screen); LESS=FRX and LV=-c set for the pager when unset.
 * An empty value, or "cat", means no pager; so does --no-pager.
 *
 * The command is split at white space and run with execvp, never by a
 * shell.  A pager that cannot be started is said once on stderr, and the
 * output goes to the terminal as it would have.
 */
#ifndef SP_PAGER_H
#define SP_PAGER_H

/*
 * Starts the pager unless off is set, standard output is not a terminal
 * or TERM is dumb; from here standard output goes to it.  Call after
 * deciding anything from the terminal (its width, colour) and before
 * writing.  Returns 1 when a pager runs.
 */
int sp_pager_start(int off);

/*
 * Closes standard output (as sp_stdout_close, a failed write is a failed
 * run) and waits for the pager to end.  Programs that may page call this
 * in place of sp_stdout_close.  Writes that failed because the reader
 * quit the pager are no error.  An exit on another path (an error) still
 * waits for the pager, so the terminal is never left to two readers.
 */
void sp_pager_end(void);

#endif
