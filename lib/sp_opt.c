/*
 * sp_opt.c - the options every program shares.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp_opt.h"
#include "sp_util.h"

static const char common_help[] =
"  -h, --help              this text\n"
"      --version           the version\n";

static void __attribute__((noreturn))
help(const struct sp_opts *o)
{
	fputs(o->usage, stdout);
	if (o->help != NULL) {
		fputs(o->help, stdout);
		fputs(common_help, stdout);
	}
	if (o->help_more != NULL)
		o->help_more();
	sp_stdout_close();
	exit(SP_EXIT_OK);
}

/* One format, however often it is asked for; two are a guess. */
static void
format(struct sp_opts *o, enum sp_format fmt, const char *opt)
{
	if (o->fmt_opt != NULL && fmt != o->fmt)
		sp_die(SP_EXIT_USAGE, "%s and %s are different outputs: "
		       "choose one", o->fmt_opt, opt);
	o->fmt = fmt;
	o->fmt_opt = opt;
}

static void
logs_settle(struct sp_log_opts *l)
{
	if (l != NULL && l->off && l->ndirs > 0) {
		sp_warn("--log-dir has no effect with --no-logs");
		l->ndirs = 0;
	}
}

int
sp_getopt(int argc, char *const argv[], const char *own_short,
	  const struct option *longopts, int *longindex, struct sp_opts *o)
{
	enum sp_format fmt;
	int ch;

	if (o->shortopts == NULL) {
		size_t n = strlen(own_short);

		o->shortopts = sp_xmalloc(n + 3);
		memcpy(o->shortopts, ":h", 2);
		memcpy(o->shortopts + 2, own_short, n + 1);
		opterr = 0;
	}
	for (;;) {
		ch = getopt_long(argc, argv, o->shortopts, longopts,
				 longindex);
		switch (ch) {
		case -1:
			free(o->shortopts);
			o->shortopts = NULL;
			logs_settle(o->logs);
			return -1;
		case 'h':
			help(o);
		case SP_OPT_VERSION:
			sp_print_version();
			sp_stdout_close();
			exit(SP_EXIT_OK);
		case SP_OPT_NO_LOGS:
			o->logs->off = 1;
			break;
		case SP_OPT_LOG_DIR:
			o->logs->dirs = sp_xrealloc(o->logs->dirs,
			    (o->logs->ndirs + 1) * sizeof *o->logs->dirs);
			o->logs->dirs[o->logs->ndirs++] = optarg;
			break;
		case ':':
			sp_die(SP_EXIT_USAGE, "option '%s' needs a value",
			       argv[optind - 1]);
		case '?':
			sp_die_unknown_option(optopt, argv[optind - 1]);
		default:
			if (!sp_format_option(ch, &fmt))
				return ch;
			format(o, fmt, argv[optind - 1]);
		}
	}
}
