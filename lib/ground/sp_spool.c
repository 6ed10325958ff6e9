/*
 * sp_spool.c - a program's own temporary file, above the buffers: the
 * error and memory helpers below it (sp_util.c) need no buffer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sp_buf.h"
#include "sp_spool.h"
#include "sp_util.h"

FILE *
sp_spool_open(void)
{
	const char *dir = getenv("TMPDIR");
	struct sp_buf path = { 0 };
	FILE *spool;
	int fd;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	sp_buf_printf(&path, "%s/%s.XXXXXX", dir, sp_progname());
	fd = mkstemp(path.p);
	if (fd < 0)
		sp_die(SP_EXIT_USAGE, "cannot make a spool file in %s:", dir);
	unlink(path.p);
	sp_buf_free(&path);
	spool = fdopen(fd, "w+");
	if (spool == NULL)
		sp_die(SP_EXIT_USAGE, "spool file:");
	return spool;
}
