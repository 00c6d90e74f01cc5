#include "core/cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/input.h"
#include "core/util.h"

bool cli_option(int c, const char *arg, const char *usage, cli_output *out)
{
	switch (c) {
	case 'q': out->quiet = true; return true;
	case 'o': out->path = cli_path("-o", arg); return true;
	case 't': out->opts.tsv = true; return true;
	case 'z': out->opts.gzip = true; return true;
	case CLI_OPT_BOM: out->opts.bom = true; return true;
	case CLI_OPT_MAX_LINE: {
		size_t n;
		if (!input_parse_size(arg, &n))
			die_usage("invalid --max-line '%s': expected a size such as 64M", arg);
		input_set_max_line(n);
		return true;
	}
	case 'h':
		if (printf(usage, util_progname) < 0)
			die("stdout: write error: %s", strerror(errno));
		util_flush_stdout();
		exit(0);
	case CLI_OPT_VERSION: util_version();
	case '?': util_try_help();
	}
	return false;
}

const char *cli_path(const char *name, const char *arg)
{
	if (!*arg)
		die_usage("invalid %s '': expected a file name", name);
	return arg;
}

int64_t cli_i64(const char *name, const char *arg, int64_t lo, int64_t hi)
{
	int64_t v;
	if (!util_parse_i64(arg, lo, hi, &v))
		die_usage("invalid %s '%s': expected an integer from %" PRId64 " to %" PRId64,
			  name, arg, lo, hi);
	return v;
}

uint64_t cli_u64(const char *name, const char *arg, uint64_t hi)
{
	uint64_t v;
	if (!util_parse_u64(arg, hi, &v))
		die_usage("invalid %s '%s': expected an integer from 0 to %" PRIu64, name, arg, hi);
	return v;
}

double cli_double(const char *name, const char *arg, double lo, double hi)
{
	double v;
	if (!util_parse_double(arg, lo, hi, &v))
		die_usage("invalid %s '%s': expected a number from %g to %g", name, arg, lo, hi);
	return v;
}

int cli_choice(const char *name, const char *arg, const char *const *choices)
{
	char list[256] = "";
	for (int i = 0; choices[i]; i++) {
		if (strcmp(arg, choices[i]) == 0)
			return i;
		if (i)
			strncat(list, ", ", sizeof list - strlen(list) - 1);
		strncat(list, choices[i], sizeof list - strlen(list) - 1);
	}
	die_usage("invalid %s '%s': expected one of %s", name, arg, list);
}
