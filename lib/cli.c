#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "util.h"

bool cli_option(int c, const char *arg, const char *usage, cli_output *out)
{
	switch (c) {
	case 'o': out->path = arg; return true;
	case 't': out->opts.tsv = true; return true;
	case 'z': out->opts.gzip = true; return true;
	case CLI_OPT_BOM: out->opts.bom = true; return true;
	case 'h':
		printf(usage, util_progname);
		exit(fflush(stdout) || ferror(stdout) ? EXIT_DATA : 0);
	case CLI_OPT_VERSION: util_version();
	case '?': util_try_help();
	}
	return false;
}

void cli_progress(bool show, const char *what, size_t done, size_t total)
{
	static time_t last;
	if (!show)
		return;
	time_t now = time(NULL);
	if (now != last || done == total) {
		last = now;
		fprintf(stderr, "\r%s: %s %zu/%zu%s", util_progname, what, done, total,
			done == total ? "\n" : "");
	}
}
