/* chain-lookahead (and, built from this file, chain-greedy): shiritori
 * players over a dictionary table. The options are parsed here; the modes
 * (step filter, match, tournament) and the game log are lib/run/chainrun. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "core/util.h"
#include "run/chainrun.h"

/* The program's own strategy: chain-greedy.c defines it as CHAIN_GREEDY. */
#ifndef CHAIN_PROGRAM_KIND
#define CHAIN_PROGRAM_KIND CHAIN_LOOKAHEAD
#endif

static const char usage_fmt[] =
	"Usage: %s -d DICT [OPTION]... [LOG]\n"
	"Play shiritori on the dictionary table DICT (word,head,tail,len):\n"
	"chain-greedy plays the longest word, chain-lookahead searches ahead.\n"
	"\n"
	"Modes:\n"
	"  (step filter)         read a game log (LOG or stdin), append --moves moves\n"
	"                        for whoever is to move, write the whole log\n"
	"      --start WORD      begin a new game from WORD instead of reading a log;\n"
	"                        a word not in DICT is keyed by the rules DICT's\n"
	"                        words were keyed by (said on stderr)\n"
	"      --play WORD       append a person's move first: WORD for whoever is\n"
	"                        to move, checked against the rules ('' when they\n"
	"                        are stuck)\n"
	"      --moves N         moves to append (default 1, 0 with --play; 0 writes\n"
	"                        just the start)\n"
	"      --vs STRATEGY     with --start: play a whole match against STRATEGY\n"
	"                        (greedy, random, lookahead, lookahead:D, lookahead:end)\n"
	"                        and write its log\n"
	"      --second          in a match or tournament, move second\n"
	"      --starts LIST     tournament against --vs from every start word in LIST:\n"
	"                        all (the whole dictionary), sample:N (N words drawn\n"
	"                        by --seed), a file of words, or W1,W2,...; writes\n"
	"                        one result row per game\n"
	"      --starts-column NAME  LIST is a table (CSV or TSV, gzip or not): its\n"
	"                        column NAME holds the start words\n"
	"      --games N         tournament: seeds SEED .. SEED+N-1 (default 1)\n"
	"      --both-sides      tournament: play every game from both sides\n"
	"      --first-game K    tournament: start at game K (default 1)\n"
	"  -n, --count N         tournament: play N games from there (default all);\n"
	"                        shards made so reproduce the rows of the whole run\n"
	"\n"
	"Rules:\n"
	"  -d, --dict FILE       the dictionary table (required)\n"
	"      --rounds R        the game ends after R rounds, 2R moves (default 15)\n"
	"      --handicap A,B    points added to player 1 and 2 (default 0,0)\n"
	"      --lose-tail CHARS playing a word whose tail is one of CHARS loses\n"
	"\n"
	"Players:\n"
	"      --depth D         lookahead: plies searched (default 2), or end\n"
	"      --time SECONDS    lookahead: deepen iteratively within SECONDS a move\n"
	"      --seed N          breaks ties between equally good words (default 1)\n"
	"      --game N          game number of a new log (default 1)\n"
	"      --trace FILE      write every candidate considered, with its value\n"
	"\n"
	"Output:\n"
	CLI_HELP;

enum {
	OPT_START = 256, OPT_MOVES, OPT_VS, OPT_SECOND, OPT_STARTS, OPT_GAMES, OPT_BOTH, OPT_ROUNDS,
	OPT_HANDICAP, OPT_LOSE, OPT_DEPTH, OPT_TIME, OPT_SEED, OPT_GAME, OPT_TRACE, OPT_FIRST,
	OPT_PLAY, OPT_COLUMN
};

static const struct option long_opts[] = {
	{"dict", required_argument, NULL, 'd'},
	{"start", required_argument, NULL, OPT_START},
	{"moves", required_argument, NULL, OPT_MOVES},
	{"play", required_argument, NULL, OPT_PLAY},
	{"starts-column", required_argument, NULL, OPT_COLUMN},
	{"vs", required_argument, NULL, OPT_VS},
	{"second", no_argument, NULL, OPT_SECOND},
	{"starts", required_argument, NULL, OPT_STARTS},
	{"games", required_argument, NULL, OPT_GAMES},
	{"both-sides", no_argument, NULL, OPT_BOTH},
	{"first-game", required_argument, NULL, OPT_FIRST},
	{"count", required_argument, NULL, 'n'},
	{"rounds", required_argument, NULL, OPT_ROUNDS},
	{"handicap", required_argument, NULL, OPT_HANDICAP},
	{"lose-tail", required_argument, NULL, OPT_LOSE},
	{"depth", required_argument, NULL, OPT_DEPTH},
	{"time", required_argument, NULL, OPT_TIME},
	{"seed", required_argument, NULL, OPT_SEED},
	{"game", required_argument, NULL, OPT_GAME},
	{"trace", required_argument, NULL, OPT_TRACE},
	CLI_LONG_OPTIONS,
	{NULL, 0, NULL, 0},
};

static void parse_handicap(const char *arg, int64_t h[2])
{
	const char *comma = strchr(arg, ',');
	if (!comma)
		die_usage("invalid --handicap '%s': expected A,B", arg);
	char *a = xstrndup(arg, (size_t)(comma - arg));
	int64_t x, y;
	bool ok = util_parse_i64(a, -CHAIN_MAX_HANDICAP, CHAIN_MAX_HANDICAP, &x) &&
		  util_parse_i64(comma + 1, -CHAIN_MAX_HANDICAP, CHAIN_MAX_HANDICAP, &y);
	free(a);
	if (!ok)
		die_usage("invalid --handicap '%s': expected two integers from %d to %d", arg,
			  -CHAIN_MAX_HANDICAP, CHAIN_MAX_HANDICAP);
	h[0] = x, h[1] = y;
}

/* What the options exclude, and the defaults that depend on others. */
static void check(chainrun_opts *o, const char *vs, const char *depth_arg, const char *time_arg,
		  const char *moves_arg, int nargs)
{
	const run_opts *c = &o->common;
	if (!o->dict_path)
		die_usage("a dictionary is required (-d FILE)");
	if (o->me.kind == CHAIN_GREEDY && (depth_arg || time_arg))
		die_usage("%s applies to chain-lookahead only", depth_arg ? "--depth" : "--time");
	if (depth_arg)
		o->me.depth = strcmp(depth_arg, "end") == 0
				      ? CHAIN_DEPTH_END
				      : (int)cli_i64("--depth", depth_arg, 1, 2 * CHAIN_MAX_ROUNDS);
	if (time_arg)
		o->me.time = cli_double("--time", time_arg, 0.001, 86400);
	if (vs && !chain_strategy_parse(vs, &o->vs))
		die_usage("invalid --vs '%s': expected greedy, random, lookahead, lookahead:D or lookahead:end", vs);
	o->has_vs = vs != NULL;
	if (o->starts && !o->has_vs)
		die_usage("--starts needs an opponent (--vs)");
	if (o->starts && o->start)
		die_usage("--start and --starts exclude each other");
	if (o->has_vs && !o->start && !o->starts)
		die_usage("--vs needs --start WORD or --starts LIST");
	if ((o->second || o->both_sides) && !o->has_vs)
		die_usage("%s needs --vs", o->second ? "--second" : "--both-sides");
	if ((o->games != 1 || c->first != 1 || c->count >= 0) && !o->starts)
		die_usage("--games, --first-game and --count apply to tournaments (--starts)");
	if (o->play && (o->has_vs || o->starts))
		die_usage("--play appends to a game log: not with %s", o->has_vs ? "--vs" : "--starts");
	if (o->starts_column && !o->starts)
		die_usage("--starts-column needs --starts FILE");
	o->moves = moves_arg ? cli_i64("--moves", moves_arg, 0, 2 * CHAIN_MAX_ROUNDS) : !o->play;
	if (nargs > 1)
		die_usage("at most one game log");
	if (nargs > 0 && (o->start || o->starts))
		die_usage("a log cannot be read together with --start or --starts");
}

int main(int argc, char **argv)
{
	util_init(argv[0]);
	argv[0] = (char *)util_progname; /* getopt's messages name it so too */
	chainrun_opts o = {
		.common = {.seed = 1, .first = 1, .count = -1},
		.me = {.kind = CHAIN_PROGRAM_KIND, .depth = CHAIN_PROGRAM_KIND == CHAIN_GREEDY ? 1 : 2},
		.rules = {.rounds = 15},
		.games = 1, .game_id = 1,
	};
	run_opts *c = &o.common;
	const char *vs = NULL, *depth_arg = NULL, *time_arg = NULL, *moves_arg = NULL;
	int opt;
	while ((opt = getopt_long(argc, argv, "d:n:" CLI_SHORT, long_opts, NULL)) != -1) {
		switch (opt) {
		case 'd': o.dict_path = optarg; break;
		case OPT_START: o.start = optarg; break;
		case OPT_MOVES: moves_arg = optarg; break;
		case OPT_PLAY: o.play = optarg; break;
		case OPT_COLUMN: o.starts_column = optarg; break;
		case OPT_VS: vs = optarg; break;
		case OPT_SECOND: o.second = true; break;
		case OPT_STARTS: o.starts = optarg; break;
		case OPT_GAMES: o.games = cli_i64("--games", optarg, 1, 1000000000); break;
		case OPT_BOTH: o.both_sides = true; break;
		case OPT_FIRST: c->first = cli_i64("--first-game", optarg, 1, INT64_MAX); break;
		case 'n': c->count = cli_i64("--count", optarg, 0, INT64_MAX); break;
		case OPT_ROUNDS: o.rules.rounds = (int)cli_i64("--rounds", optarg, 1, CHAIN_MAX_ROUNDS); break;
		case OPT_HANDICAP: parse_handicap(optarg, o.rules.handicap); break;
		case OPT_LOSE: o.lose_tail = optarg; break;
		case OPT_DEPTH: depth_arg = optarg; break;
		case OPT_TIME: time_arg = optarg; break;
		case OPT_SEED: c->seed = cli_u64("--seed", optarg, UINT64_MAX); break;
		case OPT_GAME: o.game_id = cli_i64("--game", optarg, 0, INT64_MAX); break;
		case OPT_TRACE: o.trace_path = cli_path("--trace", optarg); break;
		default:
			if (!cli_option(opt, optarg, usage_fmt, &c->out))
				util_try_help();
		}
	}
	check(&o, vs, depth_arg, time_arg, moves_arg, argc - optind);
	c->files = argv + optind;
	c->nfiles = argc - optind;
	return chainrun_main(&o);
}
