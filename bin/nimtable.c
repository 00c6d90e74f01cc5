/* nimtable: win/loss tables, Grundy values and perfect moves for Nim-family
 * games. The options are parsed here; the tables and the advice are
 * lib/run/nimrun, the solver and the closed forms lib/nim. */
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "core/input.h"
#include "core/util.h"
#include "run/nimrun.h"

static const char usage_text[] =
	"Usage: %s [OPTION]... [GAME]\n"
	"Solve a Nim-family GAME: every position's outcome (P: the player to move\n"
	"loses; N), Grundy value, remoteness and one winning move, as the table\n"
	"h1..hM,outcome,grundy,remoteness,move (h1 varies fastest).\n"
	"\n"
	"Games:\n"
	"  nim                   take any number from one heap (the default)\n"
	"  wythoff               two heaps: from one heap, or the same from both\n"
	"  subtract:S            take k from one heap, k in the set S (1,2,3)\n"
	"  octal:CODE            take-and-break game on one heap, e.g. 0.77\n"
	"                        (Kayles), 0.07 (Dawson's Kayles): Grundy values\n"
	"                        of heaps 0..--max, their period, and outcome,\n"
	"                        remoteness and move from the game on sets of heaps\n"
	"\n"
	"Positions:\n"
	"  -m, --heaps M         number of heaps (default 3; wythoff 2, octal 1)\n"
	"  -n, --max N           largest heap (default 10)\n"
	"      --sizes A,B,...   largest heap of each heap instead\n"
	"      --misere          misere play: the last player to move loses\n"
	"\n"
	"Output:\n"
	"      --p-only          P positions only, heap columns only\n"
	"      --count           only the numbers of P and N positions\n"
	"      --advise [FILE]   read positions (a table with h1..hM, or lines of\n"
	"                        heap sizes) and write the perfect player's move:\n"
	"                        a winning move from N, a small random take from P\n"
	"      --seed N          random takes of --advise (default 1)\n"
	"      --max-memory SIZE refuse tables needing more (default 4G; K, M, G)\n"
	CLI_HELP;

enum { OPT_SIZES = 256, OPT_MISERE, OPT_PONLY, OPT_COUNT, OPT_ADVISE, OPT_SEED, OPT_MEM };

static const struct option long_opts[] = {
	{"heaps", required_argument, NULL, 'm'},
	{"max", required_argument, NULL, 'n'},
	{"sizes", required_argument, NULL, OPT_SIZES},
	{"misere", no_argument, NULL, OPT_MISERE},
	{"p-only", no_argument, NULL, OPT_PONLY},
	{"count", no_argument, NULL, OPT_COUNT},
	{"advise", no_argument, NULL, OPT_ADVISE},
	{"seed", required_argument, NULL, OPT_SEED},
	{"max-memory", required_argument, NULL, OPT_MEM},
	CLI_LONG_OPTIONS,
	{NULL, 0, NULL, 0},
};

static uint64_t parse_size(const char *arg)
{
	size_t n;
	if (!input_parse_size(arg, &n))
		die_usage("invalid --max-memory '%s': expected a size such as 512M or 4G", arg);
	return n;
}

/* Parses --sizes A,B,... into G's bounds. */
static void parse_sizes(const char *sizes, nim_game *g)
{
	/* strtok would pass over an empty item ("3,,4") in silence. */
	if (sizes[0] == ',' || strstr(sizes, ",,") || (sizes[0] && sizes[strlen(sizes) - 1] == ','))
		die_usage("invalid --sizes '%s': an empty heap size", sizes);
	char *copy = xstrdup(sizes), *save = NULL;
	int k = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (k == NIM_MAX_HEAPS)
			die_usage("at most %d heaps", NIM_MAX_HEAPS);
		g->max[k++] = (uint32_t)cli_i64("--sizes", t, 0, NIMRUN_MAX_HEAP);
	}
	free(copy);
	if (k == 0)
		die_usage("--sizes needs at least one heap");
	g->m = k;
}

/* GAME, then (with --advise) FILE: an operand is the game if it names
 * one. Returns the game's spec. */
static const char *split_operands(int argc, char **argv, nimrun_opts *o)
{
	const char *spec = "nim", *why;
	nim_game probe = {0};
	bool adv = o->mode == NIMRUN_ADVISE;
	if (optind < argc && (!adv || nim_parse_game(argv[optind], &probe, &why) || optind < argc - 1))
		spec = argv[optind++];
	o->common.files = argv + optind;
	o->common.nfiles = optind < argc;
	if (optind < argc - 1)
		die_usage("unexpected argument '%s'", argv[optind + 1]);
	return spec;
}

/* The game SPEC, its heaps and their bounds. */
static void set_game(nim_game *g, const char *spec, int heaps, int64_t max, const char *sizes)
{
	const char *why;
	if (!nim_parse_game(spec, g, &why))
		die_usage("invalid game '%s': %s", spec, why);
	if (sizes) {
		if (heaps >= 0)
			die_usage("--sizes and --heaps exclude each other");
		parse_sizes(sizes, g);
	} else {
		g->m = heaps >= 0 ? heaps : g->kind == NIM_WYTHOFF ? 2 : g->kind == NIM_OCTAL ? 1 : 3;
		for (int i = 0; i < g->m; i++)
			g->max[i] = (uint32_t)max;
	}
	if (g->kind == NIM_WYTHOFF && g->m != 2)
		die_usage("wythoff is played on 2 heaps, not %d", g->m);
	if (g->kind == NIM_OCTAL && g->m != 1)
		die_usage("octal games are tabled for one heap, not %d", g->m);
}

int main(int argc, char **argv)
{
	util_init(argv[0]);
	argv[0] = (char *)util_progname; /* getopt's messages name it so too */
	nimrun_opts o = {.common = {.seed = 1}, .max_memory = 4ull << 30};
	int heaps = -1, modes = 0;
	int64_t max = 10;
	const char *sizes = NULL;
	int c;
	while ((c = getopt_long(argc, argv, "m:n:" CLI_SHORT, long_opts, NULL)) != -1) {
		switch (c) {
		case 'm': heaps = (int)cli_i64("--heaps", optarg, 1, NIM_MAX_HEAPS); break;
		case 'n': max = cli_i64("--max", optarg, 0, NIMRUN_MAX_HEAP); break;
		case OPT_SIZES: sizes = optarg; break;
		case OPT_MISERE: o.game.misere = true; break;
		case OPT_PONLY: o.mode = NIMRUN_P_ONLY, modes++; break;
		case OPT_COUNT: o.mode = NIMRUN_COUNT, modes++; break;
		case OPT_ADVISE: o.mode = NIMRUN_ADVISE, modes++; break;
		case OPT_SEED: o.common.seed = cli_u64("--seed", optarg, UINT64_MAX); break;
		case OPT_MEM: o.max_memory = parse_size(optarg); break;
		default:
			if (!cli_option(c, optarg, usage_text, &o.common.out))
				util_try_help();
		}
	}
	const char *spec = split_operands(argc, argv, &o);
	if (modes > 1)
		die_usage("--p-only, --count and --advise exclude each other");
	set_game(&o.game, spec, heaps, max, sizes);
	return nimrun_main(&o);
}
