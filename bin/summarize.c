/* summarize: one-pass group-by aggregation of any table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/util.h"
#include "run/summarizerun.h"

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
	"      --compare KEY     each rate's and score's difference from the one of\n"
	"                        group KEY, with its interval (columns diff_...)\n"
	"      --crosstab ROW,COL\n"
	"                        lay one operation out as a grid, ROW values down,\n"
	"                        COL values across\n"
	"      --partial         write mergeable partial aggregates (not for\n"
	"                        median, q, mode, distinct)\n"
	"      --merge           FILEs are partial tables: combine them into the\n"
	"                        output one run over all the data would give\n"
	"  -j, --jobs N          read each plain file with N threads (default: the\n"
	"                        cores available); the output is the same\n"
	"      --round N         write numbers with N decimals (0-15), for people;\n"
	"                        by default in full precision, for programs\n"
	"      --delimiter C     the input's field delimiter: one character, or tab\n"
	"                        (default: a comma or a tab, as the header has)\n"
	CLI_HELP;

enum { OPT_SORT = 256, OPT_LEVEL, OPT_CROSSTAB, OPT_PARTIAL, OPT_MERGE, OPT_ROUND, OPT_DELIM,
       OPT_COMPARE };

static const struct option long_opts[] = {
	{"group", required_argument, NULL, 'g'},
	{"sort", no_argument, NULL, OPT_SORT},
	{"level", required_argument, NULL, OPT_LEVEL},
	{"crosstab", required_argument, NULL, OPT_CROSSTAB},
	{"partial", no_argument, NULL, OPT_PARTIAL},
	{"merge", no_argument, NULL, OPT_MERGE},
	{"jobs", required_argument, NULL, 'j'},
	{"round", required_argument, NULL, OPT_ROUND},
	{"compare", required_argument, NULL, OPT_COMPARE},
	{"delimiter", required_argument, NULL, OPT_DELIM},
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

/* --delimiter's argument: one byte that can separate fields, or "tab". */
static char parse_delim(const char *arg)
{
	if (strcmp(arg, "tab") == 0)
		return '\t';
	if (strlen(arg) != 1 || strchr("\"\r\n", arg[0]))
		die_usage("invalid --delimiter '%s': expected one character other than a quote "
			  "or a line end, or tab", arg);
	return arg[0];
}

/* Fills O from the command line. *KEEP holds the group columns' text
 * until the run ends. */
static void parse(int argc, char **argv, summarizerun_opts *o, char **keep)
{
	summary_opts *so = &o->summary;
	const char *crosstab = NULL;
	int c;
	/* Options may come anywhere; of the operands, the leading ones that
	 * have the form of an operation are operations, the rest files. */
	while ((c = getopt_long(argc, argv, "g:j:" CLI_SHORT, long_opts, NULL)) != -1) {
		switch (c) {
		case 'g':
			free(so->group);
			free(*keep);
			so->group = split(optarg, &so->ngroup, "--group", keep);
			break;
		case OPT_SORT: so->sort = true; break;
		case OPT_LEVEL: so->level = cli_double("--level", optarg, 0.000001, 0.999999); break;
		case OPT_CROSSTAB: crosstab = optarg; break;
		case OPT_PARTIAL: so->partial = true; break;
		case OPT_MERGE: o->merge = true; break;
		case 'j': o->jobs = (int)cli_i64("--jobs", optarg, 1, 1024); break;
		case OPT_ROUND: so->round = (int)cli_i64("--round", optarg, 0, 15); break;
		case OPT_DELIM: so->delim = parse_delim(optarg); break;
		case OPT_COMPARE: so->compare = optarg; break;
		default:
			if (!cli_option(c, optarg, usage_text, &o->common.out))
				util_try_help();
		}
	}
	if (so->partial && so->round >= 0)
		die_usage("--round and --partial exclude each other: a partial keeps every digit");
	if (crosstab) {
		if (so->ngroup)
			die_usage("--crosstab and --group exclude each other");
		so->group = split(crosstab, &so->ngroup, "--crosstab", keep);
		so->crosstab = true;
		if (so->partial)
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
			const char *why = summary_op_error(argv[i]);
			if (!why)
				die_usage("operation '%s' after a file: operations come first", argv[i]);
			if (strcmp(why, "unknown operation") != 0)
				die_usage("invalid operation '%s': %s", argv[i], why);
			char *name = xstrndup(argv[i], (size_t)(colon - argv[i]));
			die_usage("unknown operation '%s' in '%s'", name, argv[i]);
		}
	}
	if (o->merge) {
		if (nops || so->ngroup)
			die_usage("--merge takes groups and operations from the partial tables");
	} else if (nops == 0) {
		ops[nops++] = "count";
	}
	so->ops = ops;
	so->nops = nops;
	o->common.files = argv + optind;
	o->common.nfiles = argc - optind;
}

int main(int argc, char **argv)
{
	util_init(argv[0]);
	argv[0] = (char *)util_progname; /* getopt's messages name it so too */
	summarizerun_opts o = {.summary = {.level = 0.95, .round = -1}};
	char *group_text = NULL;
	parse(argc, argv, &o, &group_text);
	int rc = summarizerun_main(&o);
	free(o.summary.ops);
	free(o.summary.group);
	free(group_text);
	return rc;
}
