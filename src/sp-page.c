/*
 * sp-page - text longer than the screen through a pager, as every
 * program of the family pages it (lib/ground/sp_pager): the front door and any
 * script pipe their report into it.  On a terminal it starts the pager
 * (SLURMPAST_PAGER, PAGER, less -FRX) and feeds it; into a pipe, or with
 * --no-pager, it copies its input unchanged.  A reader who quits the
 * pager early ends the copy quietly.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sp.h"
#include "sp_opt.h"
#include "sp_pager.h"

static const char usage_text[] =
"usage: sp-page [--no-pager] [file ...]\n";

static const char help_text[] =
"\n"
"Copies the files (or standard input) to standard output, through the\n"
"pager when standard output is a terminal.\n"
"\n"
"      --no-pager          never page: copy, even on a terminal\n";

enum { OPT_NO_PAGER = 0x2000 };

/* 0, or -1 when the reader went away (the pager was quit). */
static int
copy(int in, const char *name)
{
	char buf[1 << 16];
	ssize_t got;

	while ((got = read(in, buf, sizeof buf)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			sp_die(SP_EXIT_USAGE, "%s:", name);
		if (fwrite(buf, 1, (size_t)got, stdout) != (size_t)got) {
			if (errno == EPIPE)
				return -1;
			sp_die(SP_EXIT_FAIL, "<stdout>:");
		}
	}
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "no-pager", no_argument, NULL, OPT_NO_PAGER },
		{ NULL, 0, NULL, 0 }
	};
	struct sp_opts common = { .usage = usage_text, .help = help_text,
				  .formatless = 1 };
	int c, no_pager = 0, paging;

	sp_setprog(argv[0]);
	sp_stdout_init();
	while ((c = sp_getopt(argc, argv, "", longopts, NULL,
			      &common)) != -1)
		if (c == OPT_NO_PAGER)
			no_pager = 1;
	/* Every file must open before anything is shown. */
	for (int i = optind; i < argc; i++)
		if (strcmp(argv[i], "-") != 0 && access(argv[i], R_OK) != 0)
			sp_die(SP_EXIT_USAGE, "%s:", argv[i]);
	paging = sp_pager_start(no_pager);
	/* A pager quit early is a reader that had enough: no error. */
	if (paging)
		signal(SIGPIPE, SIG_IGN);
	if (optind == argc)
		copy(STDIN_FILENO, "<stdin>");
	for (int i = optind; i < argc; i++) {
		int fd = strcmp(argv[i], "-") == 0 ? STDIN_FILENO :
			 open(argv[i], O_RDONLY);
		int rc;

		if (fd < 0)
			sp_die(SP_EXIT_USAGE, "%s:", argv[i]);
		rc = copy(fd, argv[i]);
		if (fd != STDIN_FILENO)
			close(fd);
		if (rc != 0)
			break;
	}
	sp_pager_end();
	return SP_EXIT_OK;
}
