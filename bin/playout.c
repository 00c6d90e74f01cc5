/* playout: Othello playouts, matches, Monte Carlo statistics and perft. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "othplay.h"
#include "othrun.h"
#include "util.h"

static const char usage_text[] =
	"Usage: %s [--game othello] [OPTIONS] [FILE]...\n"
	"Play games to the end and write one row per game:\n"
	"  game,seed,first_player,first_move,plies,black,white,winner[,moves]\n"
	"from the standard start, or N games from each position of the FILEs\n"
	"(tables with columns board and turn, or moves, or all three; '-' is\n"
	"stdin), whose other columns are carried along after a position column.\n"
	"\n"
	"Options:\n"
	"  -g, --game GAME       othello (the default)\n"
	"  -n, --games N         games per position (default 1)\n"
	"      --seed S          random seed (default 1); game i draws from the\n"
	"                        stream (S, i), so shards equal one run\n"
	"      --first-game K    number the games from K (default 1)\n"
	"      --moves           add a moves column (\"f5 d6 ... pass ...\")\n"
	"      --black P         black's player: random (default), mc:N (flat\n"
	"                        Monte Carlo, N playouts per move) or mcts:N (UCT,\n"
	"                        N playouts per move)\n"
	"      --white P         white's player, as for --black\n"
	"      --ucb C           mcts exploration constant (default 0.5)\n"
	"      --threshold T     mcts: visits before a leaf grows children\n"
	"                        (default 5)\n"
	"      --per-move N      instead: N random playouts after each legal move;\n"
	"                        one row per move: move,games,wins,draws,losses,\n"
	"                        win_rate (for the side to move)\n"
	"      --perft D         instead: leaves of the game tree at depths 1..D\n"
	"                        (at most 20): depth,leaves,seconds,leaves_per_second\n"
	"      --show            draw one game's boards for people (not for pipes)\n"
	"  -q, --quiet           no progress on stderr\n"
	CLI_HELP;

enum {
	OPT_SEED = 256, OPT_FIRST, OPT_MOVES, OPT_BLACK, OPT_WHITE, OPT_UCB, OPT_THRESHOLD,
	OPT_PER_MOVE, OPT_PERFT, OPT_SHOW
};

static const struct option long_opts[] = {
	{"game", required_argument, NULL, 'g'},
	{"games", required_argument, NULL, 'n'},
	{"seed", required_argument, NULL, OPT_SEED},
	{"first-game", required_argument, NULL, OPT_FIRST},
	{"moves", no_argument, NULL, OPT_MOVES},
	{"black", required_argument, NULL, OPT_BLACK},
	{"white", required_argument, NULL, OPT_WHITE},
	{"ucb", required_argument, NULL, OPT_UCB},
	{"threshold", required_argument, NULL, OPT_THRESHOLD},
	{"per-move", required_argument, NULL, OPT_PER_MOVE},
	{"perft", required_argument, NULL, OPT_PERFT},
	{"show", no_argument, NULL, OPT_SHOW},
	{"quiet", no_argument, NULL, 'q'},
	CLI_LONG_OPTIONS,
	{NULL, 0, NULL, 0},
};

static void need_player(const char *opt, const char *spec)
{
	othplay p;
	if (!othplay_parse(spec, 0.5, 5, &p))
		die_usage("%s: '%s' is not random, mc:N or mcts:N (1 <= N <= %d)", opt, spec,
			  OTHPLAY_MAX_PLAYOUTS);
}

int main(int argc, char **argv)
{
	util_init(argv[0]);
	static const char *const games[] = {"othello", NULL};
	othrun_opts o = {
		.seed = 1, .first = 1, .games = 1, .black = "random", .white = "random",
		.ucb = 0.5, .threshold = 5,
	};
	int c;
	while ((c = getopt_long(argc, argv, "g:n:q" CLI_SHORT, long_opts, NULL)) != -1) {
		if (cli_option(c, optarg, usage_text, &o.out))
			continue;
		switch (c) {
		case 'g': opt_choice("--game", optarg, games); break;
		case 'n':
			o.games = opt_i64("-n", optarg, 1, OTHRUN_MAX_GAMES - 1);
			o.games_set = true;
			break;
		case OPT_SEED: o.seed = opt_u64("--seed", optarg, UINT64_MAX); break;
		case OPT_FIRST: o.first = opt_i64("--first-game", optarg, 1, OTHRUN_MAX_GAMES - 1); break;
		case OPT_MOVES: o.moves = true; break;
		case OPT_BLACK: o.black = optarg; need_player("--black", optarg); break;
		case OPT_WHITE: o.white = optarg; need_player("--white", optarg); break;
		case OPT_UCB: o.ucb = opt_double("--ucb", optarg, 0, 100); break;
		case OPT_THRESHOLD: o.threshold = (uint32_t)opt_i64("--threshold", optarg, 1, 1000000); break;
		case OPT_PER_MOVE: o.per_move = opt_i64("--per-move", optarg, 1, OTHRUN_MAX_GAMES - 1); break;
		case OPT_PERFT: o.perft = (int)opt_i64("--perft", optarg, 1, OTHRUN_MAX_PERFT); break;
		case OPT_SHOW: o.show = true; break;
		case 'q': o.quiet = true; break;
		default: util_try_help();
		}
	}
	int modes = (o.per_move > 0) + (o.perft > 0) + o.show;
	if (modes > 1)
		die_usage("--per-move, --perft and --show are separate modes: choose one");
	bool players = strcmp(o.black, "random") || strcmp(o.white, "random");
	if ((o.per_move || o.perft) && (players || o.moves || o.games_set))
		die_usage("--per-move and --perft take neither -n, --moves nor players");
	if (o.show && (o.games_set || o.moves))
		die_usage("--show draws a single game: drop -n and --moves");
	int64_t count = o.per_move ? o.per_move : o.games;
	if (o.first - 1 > OTHRUN_MAX_GAMES - 1 - count)
		die_usage("--first-game plus the number of games passes %lld",
			  (long long)OTHRUN_MAX_GAMES);
	o.files = argv + optind;
	o.nfiles = argc - optind;
	return othrun_main(&o);
}
