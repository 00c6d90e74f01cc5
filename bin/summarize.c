/* summarize: one-pass group-by aggregation of any table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cli.h"
#include "summary/summary.h"
#include "core/util.h"

static const char usage_text[] =
	"Usage: %s [-g COL[,COL...]] [OPERATION]... [FILE]...\n"
	"Aggregate a CSV/TSV table (FILEs or stdin; gzip recognised) by groups in\n"
	"one pass: one row per group (first-seen order), one or more columns per\n"
	"operation. Without operations: count.\n"
	"\n"
	"Operations:\n"
	"  count                 rows\n"
	"  sum:C mean:C min:C max:C sd:C var:C\n"
	"                        over the numbers in column C (sd, var: sample);\n"
	"                        empty and NA cells are skipped and counted in C_na\n"
	"  median:C q:P:C        median, quantile P (R's type 7)\n"
	"  mode:C distinct:C     most frequent value, number of distinct values\n"
	"  first:C last:C        first and last value\n"
	"  rate:C=V              share of rows where C is V, with its Wilson interval\n"
	"                        (_lo, _hi)\n"
	"  score:C=W/D           wins (C is W) plus half draws (C is D) per row, with\n"
	"                        its interval and the Elo difference it implies\n"
	"\n"
	"Options:\n"
	"  -g, --group COLS      group by these columns (comma-separated)\n"
	"      --sort            groups in key order (numbers numerically)\n"
	"      --level L         interval level (default 0.95)\n"
	"      --crosstab ROW,COL\n"
	"                        lay one operation out as a grid, ROW values down,\n"
	"                        COL values across\n"
	"      --partial         write exact mergeable partial aggregates (not for\n"
	"                        median, q, mode, distinct)\n"
	"      --merge           FILEs are partial tables: combine them into the\n"
	"                        output one run over all the data would give\n"
	CLI_HELP;

enum { OPT_SORT = 256, OPT_LEVEL, OPT_CROSSTAB, OPT_PARTIAL, OPT_MERGE };

static const struct option long_opts[] = {
	{"group", required_argument, NULL, 'g'},
	{"sort", no_argument, NULL, OPT_SORT},
	{"level", required_argument, NULL, OPT_LEVEL},
	{"crosstab", required_argument, NULL, OPT_CROSSTAB},
	{"partial", no_argument, NULL, OPT_PARTIAL},
	{"merge", no_argument, NULL, OPT_MERGE},
	CLI_LONG_OPTIONS,
	{NULL, 0, NULL, 0},
};

/* Splits a comma-separated list into an array of strings held in *COPY. */
static const char **split(const char *arg, int *n, const char *what, char **copy_out)
{
	char *copy = xstrdup(arg);
	*copy_out = copy;
	const char **v = NULL;
	*n = 0;
	for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		v = xrealloc(v, (size_t)(*n + 1) * sizeof *v);
		v[(*n)++] = t;
	}
	if (*n == 0)
		die_usage("%s needs at least one column", what);
	return v;
}

int main(int argc, char **argv)
{
	util_init(argv[0]);
	summary_opts so = {.level = 0.95};
	cli_output out = {0};
	bool merge = false;
	const char *crosstab = NULL;
	char *group_text = NULL;
	int c;
	/* Options may come anywhere; of the operands, the leading ones that
	 * have the form of an operation are operations, the rest files. */
	while ((c = getopt_long(argc, argv, "g:" CLI_SHORT, long_opts, NULL)) != -1) {
		switch (c) {
		case 'g':
			free(so.group);
			free(group_text);
			so.group = split(optarg, &so.ngroup, "--group", &group_text);
			break;
		case OPT_SORT: so.sort = true; break;
		case OPT_LEVEL: so.level = cli_double("--level", optarg, 0.000001, 0.999999); break;
		case OPT_CROSSTAB: crosstab = optarg; break;
		case OPT_PARTIAL: so.partial = true; break;
		case OPT_MERGE: merge = true; break;
		default:
			if (!cli_option(c, optarg, usage_text, &out))
				util_try_help();
		}
	}
	if (crosstab) {
		if (so.ngroup)
			die_usage("--crosstab and --group exclude each other");
		so.group = split(crosstab, &so.ngroup, "--crosstab", &group_text);
		so.crosstab = true;
		if (so.partial)
			die_usage("--crosstab and --partial exclude each other");
	}
	const char **ops = xmalloc((size_t)argc * sizeof *ops);
	int nops = 0;
	while (optind < argc && summary_is_op(argv[optind]))
		ops[nops++] = argv[optind++];
	for (int i = optind; i < argc; i++) {
		/* NAME:... that is neither an operation nor a file: a typo. */
		const char *colon = strchr(argv[i], ':');
		if (colon && access(argv[i], F_OK) != 0) {
			char *name = xstrndup(argv[i], (size_t)(colon - argv[i]));
			die_usage("unknown operation '%s' in '%s'", name, argv[i]);
		}
	}
	if (merge) {
		if (nops || so.ngroup)
			die_usage("--merge takes groups and operations from the partial tables");
	} else if (nops == 0) {
		ops[nops++] = "count";
	}
	so.ops = ops;
	so.nops = nops;
	summary *s = summary_new(&so);
	if (optind == argc) {
		if (merge)
			summary_merge_table(s, "-");
		else
			summary_add_table(s, "-");
	}
	for (int i = optind; i < argc; i++) {
		if (merge)
			summary_merge_table(s, argv[i]);
		else
			summary_add_table(s, argv[i]);
	}
	output *o = output_open(out.path, &out.opts);
	summary_write(s, o);
	output_close(o);
	summary_free(s);
	free(ops);
	free(so.group);
	free(group_text);
	return 0;
}
