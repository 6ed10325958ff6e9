/*
 * sp-submit's parts: sbatch's command line read as sbatch reads it, the
 * options overlaid on a script's, the sbatch commands of a shell line
 * (sp-submit --hook) and the JSON of an agent's call.
 */
#include <stdlib.h>
#include <string.h>

#include "sp_script.h"
#include "sp-submit/hook.h"
#include "tap.h"

static const char *
value(const struct sp_script *s, const char *name)
{
	const struct sp_sopt *x = sp_script_opt(s, name);

	return x == NULL ? "(none)" : x->value ? x->value : "(no value)";
}

static void
cmdline(void)
{
	char *argv[] = { "--pars", "-c4", "--mem", "4G", "-Jtok",
		"--time=1:00:00", "job.sh", "--mem=1G", "-p", NULL };
	char *wrap[] = { "--wrap", "srun x", NULL };
	char *dash[] = { "-p", "cpu", "--", "-odd.sh", NULL };
	struct sp_script cl, sc, eff;
	struct sp_buf err = { 0 };
	const struct sp_sopt *x;
	const char *text = "#!/bin/sh\n#SBATCH --mem=8G -p gpu\n#SBATCH -J a\n";
	size_t at;

	at = sp_script_cmdline(&cl, argv, 9);
	is_int(6, (long long)at, "the script is the first operand");
	is_string("4", value(&cl, "cpus-per-task"), "-c4");
	is_string("4G", value(&cl, "mem"), "--mem 4G: the value the next "
		  "argument");
	is_string("tok", value(&cl, "job-name"), "-Jtok");
	is_string("1:00:00", value(&cl, "time"), "--time=1:00:00");
	ok(sp_script_opt(&cl, "parsable") != NULL, "--pars: an abbreviation");
	is_string("(none)", value(&cl, "partition"), "after the script, "
		  "the script's own arguments");
	x = sp_script_opt(&cl, "mem");
	ok(x->line == 2 && x->vat.line == 3 && x->vat.off == 0 &&
	   x->vat.len == 2, "--mem 4G: the value is argument 3, whole");
	x = sp_script_opt(&cl, "time");
	ok(x->line == 5 && x->vat.line == 5 && x->vat.off == 7 &&
	   x->vat.len == 7, "--time=1:00:00: the value after the '='");
	sp_script_free(&cl);

	is_int(2, (long long)sp_script_cmdline(&cl, wrap, 2),
	       "--wrap: no operand");
	is_string("srun x", value(&cl, "wrap"), "--wrap's command");
	sp_script_free(&cl);
	is_int(3, (long long)sp_script_cmdline(&cl, dash, 4),
	       "-- ends the options");
	sp_script_free(&cl);

	at = sp_script_cmdline(&cl, argv, 9);
	ok(sp_script_parse(&sc, text, strlen(text), &err) == 0, "a script");
	sp_script_overlay(&eff, &sc, &cl);
	is_string("4G", value(&eff, "mem"), "the command line over the "
		  "script");
	is_string("gpu", value(&eff, "partition"), "the script where the "
		  "command line says nothing");
	is_string("tok", value(&eff, "job-name"), "-J on the command line");
	sp_script_free(&eff);
	sp_script_free(&sc);
	sp_script_free(&cl);
	sp_buf_free(&err);
}

/* The sbatch commands of a line, "dir: arg arg | ..." */
static const char *
found(const char *cmd, const char *cwd)
{
	static struct sp_buf out;
	struct hook_found f = { 0 };

	sp_buf_clear(&out);
	hook_shell(cmd, cwd, &f);
	for (size_t i = 0; i < f.n; i++) {
		if (i > 0)
			sp_buf_adds(&out, " | ");
		sp_buf_printf(&out, "%s:", f.v[i].dir ? f.v[i].dir : "-");
		for (size_t k = 0; k < f.v[i].nargs; k++)
			sp_buf_printf(&out, " [%s]", f.v[i].args[k]);
		if (f.v[i].unknown)
			sp_buf_printf(&out, " ?(%s)", f.v[i].unknown);
	}
	hook_found_free(&f);
	return sp_buf_str(&out);
}

static void
shell(void)
{
	setenv("HOME", "/home/a", 1);
	is_string("/w: [job.sh]", found("sbatch job.sh", "/w"), "plain");
	is_string("/w: [--mem=8G] [-p] [cpu] [job.sh] [x y]",
		  found("sbatch --mem=8G -p cpu job.sh 'x y'", "/w"),
		  "with options, a quoted argument");
	is_string("/w/sub: [a.sh] | /w/sub: [b.sh]",
		  found("cd sub && sbatch a.sh; sbatch b.sh", "/w"),
		  "after cd dir &&, carried to the next");
	is_string("/w: [a.sh] | /w: [b.sh] | /w: [c.sh]",
		  found("sbatch a.sh&&sbatch b.sh||sbatch c.sh", "/w"),
		  "several in one line, no blanks around the operators");
	is_string("/w: [a.sh]", found("X=1 env -i /usr/bin/sbatch a.sh >log "
		  "2>&1 </dev/null", "/w"), "assignments, env, a path, "
		  "redirections left out");
	is_string("", found("echo sbatch a.sh | grep sbatch", "/w"),
		  "sbatch as an argument is no sbatch");
	is_string("/w: [--mem=$M] [a.sh] ?(an expansion ($ or `))",
		  found("sbatch --mem=$M a.sh", "/w"), "an expansion: unknown");
	is_string("/w: [--mem=$M] [a.sh]",
		  found("sbatch '--mem=$M' a.sh", "/w"),
		  "single quotes keep $ as it is");
	is_string("/w: [a.sh]", found("sbatch a.sh # sbatch b.sh", "/w"),
		  "a comment");
	is_string("/w: [-p] [x] | /w: [b.sh]",
		  found("sbatch -p x <<EOF\n#!/bin/sh\nsbatch inner.sh\nEOF\n"
			"sbatch b.sh", "/w"),
		  "a here-document's body is no command");
	is_string("/home/a/jobs: [a.sh]", found("cd ~/jobs && sbatch a.sh",
		  "/w"), "~ is HOME");
	is_string("/abs: [a.sh]", found("cd /abs\nsbatch \\\n  a.sh", "/w"),
		  "a line continued");
	is_string("/w: [a.sh] ?(cd -)", found("cd - && sbatch a.sh", "/w"),
		  "a cd that cannot be followed");
	is_string("", found("", "/w"), "nothing");
	is_string("/w: [x\"y]", found("sbatch \"x\\\"y\"", "/w"),
		  "an escaped quote in double quotes");
	is_string(".: [a.sh]", found("sbatch a.sh", NULL), "no cwd: here");
}

static void
json(void)
{
	struct hook_call c = { 0 };
	const char *call = "{\"session_id\":\"s\",\"tool_name\":\"Bash\","
	    "\"tool_input\":{\"command\":\"cd d && sbatch \\\"a b\\\\\\\".sh\\n"
	    "\\u00e9\\ud83d\\ude00\",\"timeout\":120,\"x\":[1,{\"y\":null}]},"
	    "\"cwd\":\"/w\",\"n\":-1.5e3,\"t\":true}";
	const char *bad[] = { "", "[]", "{", "{\"a\":}", "{\"a\":1,}",
		"{\"a\":\"\\x\"}", "{\"a\":01}", "{\"a\":tru}", "{} {}",
		"{\"a\":\"\t\"}", NULL };
	struct sp_buf deep = { 0 };

	ok(hook_json(call, strlen(call), &c) == 0, "a Claude Code call");
	ok(c.have_command && !c.is_argv, "its command, a string");
	is_string("cd d && sbatch \"a b\\\".sh\n\xc3\xa9\xf0\x9f\x98\x80",
		  sp_buf_str(&c.command), "escapes, \\u and a surrogate pair");
	is_string("/w", sp_buf_str(&c.cwd), "its cwd");
	hook_call_free(&c);

	call = "{\"tool_input\":{\"command\":[\"bash\",\"-lc\",\"sbatch a\"]}}";
	ok(hook_json(call, strlen(call), &c) == 0 && c.is_argv &&
	   c.argv.n == 3 && strcmp(c.argv.v[2], "sbatch a") == 0,
	   "a command as an argument vector");
	hook_call_free(&c);

	call = "{\"tool_input\":{\"command\":\"a\\u0000b\"}}";
	ok(hook_json(call, strlen(call), &c) == 0 && c.command_nul,
	   "U+0000 is said, not cut");
	hook_call_free(&c);

	call = "{\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":\"x\"}}";
	ok(hook_json(call, strlen(call), &c) == 0 && !c.have_command,
	   "a call with no command");
	hook_call_free(&c);

	for (const char **b = bad; *b; b++) {
		ok(hook_json(*b, strlen(*b), &c) != 0, "not JSON: %s", *b);
		hook_call_free(&c);
	}
	sp_buf_adds(&deep, "{\"a\":");
	for (int i = 0; i < 100000; i++)
		sp_buf_addc(&deep, '[');
	ok(hook_json(deep.p, deep.len, &c) != 0, "nested 100,000 deep: "
	   "refused, the stack kept");
	hook_call_free(&c);
	sp_buf_free(&deep);
}

int
main(void)
{
	plan_lazy();
	cmdline();
	shell();
	json();
	return done_testing();
}
