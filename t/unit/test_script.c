/*
 * A batch script read as sbatch reads it: the first block and where it
 * ends, every spelling of an option and its value (attached, separate,
 * grouped, abbreviated, quoted, escaped, on the next line), the bytes
 * each value lies at, what sbatch stops at; and sbatch's values read and
 * written back in their own spelling.
 */
#include <math.h>
#include <string.h>

#include "sp_sbatch.h"
#include "sp_script.h"
#include "tap.h"

static struct sp_script s;
static struct sp_buf err;

static int
parse(const char *text)
{
	sp_script_free(&s);
	sp_buf_clear(&err);
	return sp_script_parse(&s, text, strlen(text), &err);
}

static const char *
value(const char *name)
{
	const struct sp_sopt *x = sp_script_opt(&s, name);

	return x == NULL ? "(none)" : x->value ? x->value : "(no value)";
}

/* The bytes a value lies at, as written. */
static const char *
raw(const char *name)
{
	static char out[256];
	const struct sp_sopt *x = sp_script_opt(&s, name);
	size_t n;
	const char *line;

	if (x == NULL || x->value == NULL)
		return "(none)";
	line = sp_script_line(&s, x->vat.line, &n);
	snprintf(out, sizeof out, "%zu:%.*s", x->vat.line, (int)x->vat.len,
		 line + x->vat.off);
	return out;
}

static const char *
notes(void)
{
	static struct sp_buf b;

	sp_buf_clear(&b);
	for (size_t i = 0; i < s.nnotes; i++)
		sp_buf_printf(&b, "%s%zu: %s", i ? " | " : "",
			      s.notes[i].line + 1, s.notes[i].text);
	return sp_buf_str(&b);
}

static void
test_block(void)
{
	is_int(0, parse("#!/bin/bash\n"
			"# a comment\n"
			"#SBATCH --mem=4G\n"
			"\n"
			"   # an indented comment\n"
			"#SBATCH -t 60\n"
			"module load python\n"
			"#SBATCH --partition=late\n"
			"python run.py\n"), "a script parses");
	ok(s.shebang, "the #! line is seen");
	is_int(9, (long long)s.nlines, "nine lines");
	is_int(6, (long long)s.first_cmd, "sbatch stops at the first command");
	is_int(5, s.last_directive, "the last directive before it");
	is_string("4G", value("mem"), "--mem=4G");
	is_string("60", value("time"), "-t 60");
	is_string("(none)", value("partition"),
		  "an #SBATCH line after the first command is not read");
	ok(!s.lines[7].directive, "  nor taken for a directive");
	ok(s.lines[2].directive && s.lines[5].directive &&
	   !s.lines[4].directive, "directives are the lines sbatch reads");

	is_int(0, parse("#!/bin/sh\n  #SBATCH --mem=8G\n#SBATCH --mem=9G\n"),
	       "an indented #SBATCH");
	is_string("9G", value("mem"), "  is a comment to sbatch, not read");
	is_int(0, parse("#!/bin/sh\n#SBATCH --mem=1G\n#SBATCH --mem=2G\n"),
	       "an option twice");
	is_string("2G", value("mem"), "  the later wins, as for getopt");
	is_int(0, parse(""), "an empty script");
	is_int(0, (long long)s.nlines, "  has no lines");
	ok(!s.shebang, "  and no #! line");
}

static void
test_spellings(void)
{
	is_int(0, parse("#!/bin/sh\n"
			"#SBATCH --mem 4G --time=1:00:00 -c4\n"
			"#SBATCH -J 'my job' -p\"gpu\" --gres=gpu:2\n"
			"#SBATCH -Hn 8 --nodes=2 # two nodes\n"),
	       "every spelling parses");
	is_string("4G", value("mem"), "--mem 4G: separate");
	is_string("1:4G", raw("mem"), "  its bytes");
	is_string("1:00:00", value("time"), "--time=: after the =");
	is_string("1:1:00:00", raw("time"), "  its bytes");
	is_string("4", value("cpus-per-task"), "-c4: attached");
	is_string("1:4", raw("cpus-per-task"), "  its bytes");
	is_string("my job", value("job-name"), "-J 'my job': quotes group");
	is_string("2:'my job'", raw("job-name"), "  the quotes are its bytes");
	is_string("gpu", value("partition"), "-p\"gpu\": attached and quoted");
	is_string("2:\"gpu\"", raw("partition"), "  quotes and all");
	is_string("gpu:2", value("gres"), "--gres=gpu:2");
	is_string("(no value)", value("hold"), "-Hn 8: -H grouped");
	is_string("8", value("ntasks"), "  with -n and its value after it");
	is_string("2", value("nodes"), "an unquoted # ends the line");
	is_string("", notes(), "nothing to object to");

	is_int(0, parse("#!/bin/sh\n#SBATCH --mem\n#SBATCH 16G\n"),
	       "a value on the next line");
	is_string("16G", value("mem"), "  is the option's, as for sbatch");
	is_string("2:16G", raw("mem"), "  on its own line");

	is_int(0, parse("#!/bin/sh\n#SBATCH --partit=gpu --cpus-per=4 "
			"--tim 5\n"), "abbreviations");
	is_string("gpu", value("partition"), "  a unique prefix is the option");
	is_string("(none)", value("cpus-per-task"), "  an ambiguous one is not");
	is_string("(none)", value("time"), "  --tim is --time or --time-min");
	is_string("2: '--cpus-per' is an ambiguous abbreviation of an sbatch "
		  "option | 2: '--tim' is an ambiguous abbreviation of an "
		  "sbatch option | 2: '5' is not an option: sbatch reads no "
		  "directive after it, and refuses the script", notes(),
		  "  both said, and what follows");

	is_int(0, parse("#!/bin/sh\n#SBATCH --mem=1\\G -t\"1:00\"\":00\" "
			"--comment=\"a # b\" -J a\\\"b\n"),
	       "escapes and quotes");
	is_string("1G", value("mem"), "  a backslash takes the next byte");
	is_string("a\"b", value("job-name"), "  a quote too");
	is_string("1:00:00", value("time"), "  quotes join within a word");
	is_string("a # b", value("comment"), "  a quoted # is not a comment");
	is_int(0, parse("#!/bin/sh\n#SBATCH --mem=1\\ G\n"),
	       "a backslash before a space");
	is_string("1", value("mem"), "  ends the word all the same, as in "
		  "sbatch's reading");

	is_int(0, parse("#!/bin/sh\n#SBATCH --bogus -Z --hold=1 --mem\n"),
	       "what sbatch refuses");
	is_string("2: '--bogus' is not an sbatch option | 2: '-Z' is not an "
		  "sbatch option | 2: '--hold' takes no value | 2: '--mem' "
		  "needs a value", notes(), "  is said, and parsing goes on");
	is_int(0, parse("#!/bin/sh\n#SBATCH --mem=1G stray\n"
			"#SBATCH --time=5\n"), "an argument not an option");
	is_string("(none)", value("time"), "  ends the options, as for getopt");
	is_string("2: 'stray' is not an option: sbatch reads no directive "
		  "after it, and refuses the script", notes(), "  and is said");
	is_int(0, parse("#!/bin/sh\n#SBATCH \"\" --mem=1G\n"
			"#SBATCH --time=5\n"), "an empty argument");
	is_string("(none)", value("mem"), "  ends its line, as for sbatch");
	is_string("5", value("time"), "  not the next");
}

static void
test_errors_and_ends(void)
{
	is_int(-1, parse("#!/bin/sh\n#SBATCH --job-name=\"open\n"),
	       "an unmatched quote");
	is_string("2: unmatched \", which sbatch refuses", sp_buf_str(&err),
		  "  names its line");
	is_int(-1, parse("#!/bin/sh\n#SBATCH -N 1\n#SBATCH hetjob\n"
			 "#SBATCH -N 2\n"), "a heterogeneous job");
	is_string("3: a heterogeneous job (hetjob): its components are sized "
		  "apart", sp_buf_str(&err), "  is refused");
	is_int(-1, parse("#!/bin/sh\n#SBATCH :\n"), "a leading ':'");

	is_int(0, parse("#!/bin/sh\r\n#SBATCH --mem=4G\r\nrun\r\n"), "CR LF");
	is_int(3, (long long)s.crlf, "  every line counted");
	is_string("4G", value("mem"), "  the CR is no part of a value");
	is_string("1:4G", raw("mem"), "  nor of its bytes");
	ok(s.lines[1].eol == SP_EOL_CRLF, "  the line ends in CR LF");

	is_int(0, parse("#!/bin/sh\n#SBATCH --mem=4G"), "no last newline");
	ok(s.lines[1].eol == SP_EOL_NONE, "  the last line has no end");
	is_string("4G", value("mem"), "  and is read");

	{
		static const char text[] = "#!/bin/sh\n#SBATCH --mem=1G\0-t 5\n"
		    "\0run\n#SBATCH --cpus-per-task=9\n";

		sp_script_free(&s);
		is_int(0, sp_script_parse(&s, text, sizeof text - 1, &err),
		       "NUL bytes");
		is_string("(none)", value("time"),
			  "  end a directive, as for sbatch");
		is_string("9", value("cpus-per-task"),
			  "  and hide a command, as for sbatch");
		is_int(4, (long long)s.first_cmd, "  which reads on past it");
	}
}

static const char *
spell_time(const char *as, double seconds)
{
	static struct sp_buf b;
	struct sp_sbtime t;

	sp_buf_clear(&b);
	if (sp_sbatch_time(as, &t) != 0)
		return "(refused)";
	sp_sbatch_time_spell(&b, &t, seconds);
	return sp_buf_str(&b);
}

static double
secs(const char *v)
{
	struct sp_sbtime t;

	return sp_sbatch_time(v, &t) == 0 ? t.s : -1;
}

static void
test_time(void)
{
	is_double(3600, secs("60"), 0, "60 is minutes");
	is_double(90, secs("1:30"), 0, "1:30 is minutes:seconds");
	is_double(5400, secs("1:30:00"), 0, "hours:minutes:seconds");
	is_double(129600, secs("1-12"), 0, "days-hours");
	is_double(131400, secs("1-12:30"), 0, "days-hours:minutes");
	is_double(131415, secs("1-12:30:15"), 0, "days-hours:minutes:seconds");
	ok(isnan(secs("UNLIMITED")) && isnan(secs("infinite")) &&
	   isnan(secs("-1")), "no limit, three ways");
	is_double(-1, secs("1:2:3:4"), 0, "four fields are refused");
	is_double(-1, secs("1h"), 0, "a unit is refused");
	is_double(-1, secs(""), 0, "nothing is refused");
	is_double(-1, secs("1-"), 0, "a day alone is refused");

	is_string("120", spell_time("480", 7200), "minutes stay minutes");
	is_string("125:30", spell_time("480", 7530),
		  "  seconds in them: minutes:seconds");
	is_string("2:00:00", spell_time("8:00:00", 7200), "hours unpadded");
	is_string("02:00:00", spell_time("08:00:00", 7200), "  padded");
	is_string("36:00:00", spell_time("8:00:00", 129600),
		  "  past a day, still hours");
	is_string("0-02", spell_time("1-00", 7200), "days-hours");
	is_string("0-2:45", spell_time("1-0", 9900),
		  "  not a whole hour: days-hours:minutes");
	is_string("1-00:00:30", spell_time("2-00:00", 86430),
		  "  not a whole minute: with seconds");
	is_string("02:30:00", spell_time("UNLIMITED", 9000),
		  "no limit becomes the advice's own form");
}

static const char *
spell_mem(const char *as, double bytes)
{
	static struct sp_buf b;
	struct sp_sbmem m;

	sp_buf_clear(&b);
	if (sp_sbatch_mem(as, &m) != 0)
		return "(refused)";
	sp_sbatch_mem_spell(&b, &m, bytes);
	return sp_buf_str(&b);
}

static void
test_mem(void)
{
	struct sp_sbmem m;

	ok(sp_sbatch_mem("4G", &m) == 0 && m.bytes == 4 * 1073741824.0,
	   "4G");
	ok(sp_sbatch_mem("4096", &m) == 0 && m.bytes == 4 * 1073741824.0 &&
	   m.unit == 0, "a bare number is megabytes");
	ok(sp_sbatch_mem("4GB", &m) == 0 && m.bytes == 4 * 1073741824.0,
	   "what follows the letter is ignored, as sbatch does");
	ok(sp_sbatch_mem("4X", &m) != 0, "an unknown unit is refused");
	ok(sp_sbatch_mem("G", &m) != 0, "no number is refused");
	ok(sp_sbatch_mem("99999999999999999999", &m) != 0,
	   "a number past any size is refused");

	is_string("94G", spell_mem("128G", 94 * 1073741824.0), "G stays G");
	is_string("94g", spell_mem("128g", 94 * 1073741824.0), "  its case too");
	is_string("96256M", spell_mem("131072M", 94 * 1073741824.0), "M");
	is_string("96256", spell_mem("131072", 94 * 1073741824.0),
		  "bare megabytes stay bare");
	is_string("94GB", spell_mem("128GB", 94 * 1073741824.0),
		  "the tail is kept");
	is_string("300M", spell_mem("4G", 300 * 1048576.0),
		  "under a whole G: M");
	is_string("94G", spell_mem("1T", 94 * 1073741824.0),
		  "under a whole T: G");
	is_string("2T", spell_mem("1T", 2 * 1099511627776.0), "T");
	is_string("1537K", spell_mem("2G", 1537 * 1024.0),
		  "not a whole M: K");
}

static const char *
gpus(const char *v, int gres, double count)
{
	static struct sp_buf b;
	struct sp_sbgpu g;
	int rc = sp_sbatch_gpus(v, gres, &g);

	sp_buf_clear(&b);
	if (rc <= 0)
		return rc == 0 ? "(no gpu)" : "(refused)";
	sp_buf_printf(&b, "%g|", g.count);
	sp_sbatch_gpus_spell(&b, v, &g, count);
	return sp_buf_str(&b);
}

static void
test_gpus(void)
{
	is_string("2|1", gpus("2", 0, 1), "--gpus=2");
	is_string("4|a100:2", gpus("a100:4", 0, 2), "--gpus=a100:4");
	is_string("(refused)", gpus("a100", 0, 2), "--gpus needs a count");
	is_string("2|gpu:1", gpus("gpu:2", 1, 1), "--gres=gpu:2");
	is_string("8|gpu:a100:4,lscratch:10", gpus("gpu:a100:8,lscratch:10", 1,
		  4), "  a type, and another resource kept");
	is_string("1|lscratch:10,gpu:2", gpus("lscratch:10,gpu", 1, 2),
		  "  gpu alone is one, and gets its count");
	is_string("1|gpu:v100:2", gpus("gpu:v100", 1, 2),
		  "  a type alone is one");
	is_string("(no gpu)", gpus("lscratch:10", 1, 2), "  no gpu entry");
	is_string("(refused)", gpus("gpu:1,gpu:v100:1", 1, 2),
		  "  GPUs twice are not one count");
	is_string("(refused)", gpus("gpu:x:1y", 1, 2),
		  "  a count that is no number");
}

static const char *
requote(const char *raw, const char *old, const char *new)
{
	static struct sp_buf b;

	sp_buf_clear(&b);
	sp_sbatch_requote(&b, raw, strlen(raw), old, new);
	return sp_buf_str(&b);
}

static void
test_requote(void)
{
	is_string("94G", requote("128G", "128G", "94G"), "plain stays plain");
	is_string("\"94G\"", requote("\"128G\"", "128G", "94G"),
		  "double quotes stay");
	is_string("'94G'", requote("'128G'", "128G", "94G"),
		  "single quotes stay");
	is_string("94G", requote("1\"28\"G", "128G", "94G"),
		  "quotes inside the value: plain");
	is_string("\"a b\"", requote("x", "x", "a b"),
		  "a value that needs them gets quotes");
	is_string("'it\\'s'", requote("'x'", "x", "it's"),
		  "  and its quote escaped");
}

int
main(void)
{
	plan_lazy();
	test_block();
	test_spellings();
	test_errors_and_ends();
	test_time();
	test_mem();
	test_gpus();
	test_requote();
	sp_script_free(&s);
	sp_buf_free(&err);
	return done_testing();
}
