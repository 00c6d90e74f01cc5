/* playout: Othello and Calculation playouts, matches, Monte Carlo
 * statistics and perft. The games are runners in lib/run, one row each in
 * games[]; this file parses what they share and hands each its own
 * options (lib/run/playoutgame.h). */
#include <errno.h>
#include <stdio.h>
#include <stdnoreturn.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "core/isa.h"
#include "core/util.h"
#include "run/calcrun.h"
#include "run/othellorun.h"

static const playoutgame *const games[] = {&othellorun_game, &calcrun_game};
enum { NGAMES = sizeof games / sizeof *games };

static const char usage_head[] =
	"Usage: %s [--game othello|calc] [OPTIONS] [FILE]...\n"
	"Play games to the end and write one row per game, from the game's start\n"
	"or N games from each position of the FILEs ('-' is stdin).\n"
	"\n"
	"Options for every game:\n"
	"  -g, --game GAME       othello (the default) or calc\n"
	"  -n, --games N         games per position (default 1)\n"
	"      --seed S          random seed (default 1); game i draws from the\n"
	"                        stream (S, i), so shards equal one run\n"
	"      --first-game K    number the games from K (default 1)\n"
	"      --moves           add a moves column (\"f5 d6 ... pass ...\")\n"
	"      --show            draw one game's boards for people (not for pipes)\n"
	CLI_HELP;

enum { OPT_SEED = 256, OPT_FIRST, OPT_MOVES, OPT_SHOW, OPT_GAME_OWN };

static const struct option common_opts[] = {
	{"game", required_argument, NULL, 'g'},
	{"games", required_argument, NULL, 'n'},
	{"seed", required_argument, NULL, OPT_SEED},
	{"first-game", required_argument, NULL, OPT_FIRST},
	{"moves", no_argument, NULL, OPT_MOVES},
	{"show", no_argument, NULL, OPT_SHOW},
	CLI_LONG_OPTIONS,
};

static noreturn void usage(void)
{
	bool ok = printf(usage_head, util_progname) >= 0;
	for (int g = 0; g < NGAMES && ok; g++)
		ok = printf("\n%s", games[g]->usage) >= 0;
	if (!ok)
		die("stdout: write error: %s", strerror(errno));
	util_flush_stdout();
	exit(0);
}

static bool game_takes(const playoutgame *g, const char *name)
{
	for (const struct option *o = g->options; o->name; o++)
		if (!strcmp(o->name, name))
			return true;
	return false;
}

/* The long options: the shared ones, then every game's own (once each,
 * all with one code: the option's name tells them apart). */
static struct option *long_options(void)
{
	size_t n = sizeof common_opts / sizeof *common_opts, cap = n + 1;
	for (int g = 0; g < NGAMES; g++)
		for (const struct option *o = games[g]->options; o->name; o++)
			cap++;
	struct option *all = xcalloc(cap, sizeof *all);
	memcpy(all, common_opts, sizeof common_opts);
	for (int g = 0; g < NGAMES; g++)
		for (const struct option *o = games[g]->options; o->name; o++) {
			bool dup = false;
			for (size_t i = 0; i < n; i++)
				dup |= !strcmp(all[i].name, o->name);
			if (!dup) {
				all[n] = *o;
				all[n++].val = OPT_GAME_OWN;
			}
		}
	return all;
}

/* Dies when NAME is an option only other games take, listing those that
 * GAME lacks of the first such game ("--a, --b and --c are for --game G"). */
static void need_own(const playoutgame *game, const char *name)
{
	if (game_takes(game, name))
		return;
	for (int g = 0; g < NGAMES; g++) {
		if (!game_takes(games[g], name))
			continue;
		char list[512] = "";
		int k = 0, n = 0;
		for (const struct option *o = games[g]->options; o->name; o++)
			n += !game_takes(game, o->name);
		for (const struct option *o = games[g]->options; o->name; o++) {
			if (game_takes(game, o->name))
				continue;
			size_t len = strlen(list);
			snprintf(list + len, sizeof list - len, "%s--%s",
				 k == 0 ? "" : k == n - 1 ? " and " : ", ", o->name);
			k++;
		}
		die_usage("%s are for --game %s", list, games[g]->name);
	}
}

typedef struct {
	const char *name, *arg;
} given;

int main(int argc, char **argv)
{
	util_init(argv[0]);
	argv[0] = (char *)util_progname; /* getopt's messages name it so too */
	util_version_extra = isa_print_version;
	isa_path(); /* a bad YOMI_ISA stops the run before it starts */
	const char *names[NGAMES + 1] = {NULL};
	for (int g = 0; g < NGAMES; g++)
		names[g] = games[g]->name;
	run_opts *own[NGAMES];
	for (int g = 0; g < NGAMES; g++)
		own[g] = games[g]->create();
	run_opts c = {.seed = 1, .first = 1, .count = 1};
	struct option *opts = long_options();
	given *seen = xmalloc((size_t)argc * sizeof *seen);
	int nseen = 0, game = 0, opt, at;
	while ((opt = getopt_long(argc, argv, "g:n:" CLI_SHORT, opts, &at)) != -1) {
		switch (opt) {
		case 'g': game = cli_choice("--game", optarg, names); break;
		case 'n':
			c.count = cli_i64("-n", optarg, 1, RUN_MAX_GAMES - 1);
			c.count_set = true;
			break;
		case OPT_SEED: c.seed = cli_u64("--seed", optarg, UINT64_MAX); break;
		case OPT_FIRST: c.first = cli_i64("--first-game", optarg, 1, RUN_MAX_GAMES - 1); break;
		case OPT_MOVES: c.moves = true; break;
		case OPT_SHOW: c.show = true; break;
		case OPT_GAME_OWN:
			/* Every game that takes the option parses it, so a bad value
			 * is refused before whether it applies is asked. */
			for (int g = 0; g < NGAMES; g++)
				if (game_takes(games[g], opts[at].name))
					games[g]->option(own[g], opts[at].name, optarg);
			seen[nseen++] = (given){opts[at].name, optarg};
			break;
		case 'h': usage();
		default:
			if (!cli_option(opt, optarg, usage_head, &c.out))
				util_try_help();
		}
	}
	if (c.show && (c.count != 1 || c.moves))
		die_usage("--show draws a single game: drop -n and --moves");
	if (c.first - 1 > RUN_MAX_GAMES - 1 - c.count)
		die_usage("--first-game plus the number of games passes %lld", (long long)RUN_MAX_GAMES);
	for (int i = 0; i < nseen; i++)
		need_own(games[game], seen[i].name);
	c.files = argv + optind;
	c.nfiles = argc - optind;
	for (int g = 0; g < NGAMES; g++)
		if (g != game)
			free(own[g]); /* a game's options hold nothing else before it runs */
	free(seen);
	free(opts);
	/* The shared options lead the game's own struct. */
	*own[game] = c;
	return games[game]->run(own[game]);
}
