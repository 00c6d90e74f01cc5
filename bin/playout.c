/* playout: Othello and Calculation playouts, matches, Monte Carlo
 * statistics and perft. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/calcrun.h"
#include "core/cli.h"
#include "othello/othelloplay.h"
#include "run/othellorun.h"
#include "core/util.h"

static const char usage_text[] =
	"Usage: %s [--game othello|calc] [OPTIONS] [FILE]...\n"
	"Play games to the end and write one row per game:\n"
	"  game,seed,first_player,first_move,plies,black,white,winner[,moves]\n"
	"from the standard start, or N games from each position of the FILEs\n"
	"(tables with columns board and turn, or moves, or all three; '-' is\n"
	"stdin), whose other columns are carried along after a position column.\n"
	"\n"
	"Options:\n"
	"  -g, --game GAME       othello (the default) or calc\n"
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
	"\n"
	"Calculation (--game calc): one row per game,\n"
	"  game,seed,variant,policy,success,rest,steps[,moves]\n"
	"from seeded shuffles, or from the decks of the FILEs (column deck: rank\n"
	"letters A23456789TJQK, top of the stock first; other columns are carried\n"
	"after a deal column). -n, --seed, --first-game, --moves, --show, --ucb and\n"
	"--threshold as above, and:\n"
	"      --policy P        random (default), greedy, mcts, simple, best, or\n"
	"                        clairvoyant (sees the stock's order: a bound on\n"
	"                        any player, not a player)\n"
	"      --variant V       no-foundations, three-piles (comma-separated or\n"
	"                        repeated; default standard)\n"
	"      --playouts N      mcts: playouts per move (default 10000); best:\n"
	"                        rollouts per leaf of its two-ply search (default 128)\n"
	"      --endgame E       best: from E cards unseen on (default 20; 0: never),\n"
	"                        choose among the moves by solving sampled orders\n"
	"      --samples K       best: orders sampled per move there (default 32)\n"
	"      --exact U         best: from U cards unseen on (default 8; 0: never),\n"
	"                        choose by exact search over the unseen cards'\n"
	"                        orders, as a player who cannot see them\n"
	"      --exact-all A     best: from A cards unseen on (default 6; 0: never),\n"
	"                        the exact search weighs every move: a card may\n"
	"                        wait on a pile while a foundation wants it\n"
	"      --hold H          best: from H cards unseen on (default 12; 0:\n"
	"                        never), a card that fits a foundation may also\n"
	"                        wait on a pile: every move is a candidate\n"
	"      --reward R        mcts and simple: binary (default) or rest:B (B for\n"
	"                        two cards left, falling to 0 at 25)\n"
	"      --level L         simple: plies expanded; clairvoyant: levels of\n"
	"                        nested search over greedy lines (default 3)\n"
	"      --width W         simple: playouts per leaf (default 5)\n"
	CLI_HELP;

enum {
	OPT_SEED = 256, OPT_FIRST, OPT_MOVES, OPT_BLACK, OPT_WHITE, OPT_UCB, OPT_THRESHOLD,
	OPT_PER_MOVE, OPT_PERFT, OPT_SHOW, OPT_POLICY, OPT_VARIANT, OPT_PLAYOUTS, OPT_REWARD,
	OPT_LEVEL, OPT_WIDTH, OPT_ENDGAME, OPT_SAMPLES, OPT_EXACT, OPT_EXACT_ALL,
	OPT_HOLD
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
	{"policy", required_argument, NULL, OPT_POLICY},
	{"variant", required_argument, NULL, OPT_VARIANT},
	{"playouts", required_argument, NULL, OPT_PLAYOUTS},
	{"reward", required_argument, NULL, OPT_REWARD},
	{"level", required_argument, NULL, OPT_LEVEL},
	{"width", required_argument, NULL, OPT_WIDTH},
	{"endgame", required_argument, NULL, OPT_ENDGAME},
	{"samples", required_argument, NULL, OPT_SAMPLES},
	{"exact", required_argument, NULL, OPT_EXACT},
	{"exact-all", required_argument, NULL, OPT_EXACT_ALL},
	{"hold", required_argument, NULL, OPT_HOLD},
	{"quiet", no_argument, NULL, 'q'},
	CLI_LONG_OPTIONS,
	{NULL, 0, NULL, 0},
};

static void need_player(const char *opt, const char *spec, othelloplay *p)
{
	if (!othelloplay_parse(spec, 0.5, 5, p))
		die_usage("%s: '%s' is not random, mc:N or mcts:N (1 <= N <= %d)", opt, spec,
			  OTHELLOPLAY_MAX_PLAYOUTS);
}

/* Adds the comma-separated variants of ARG to *V. */
static void parse_variant(const char *arg, int *v)
{
	static const char *const names[] = {"standard", "no-foundations", "three-piles", NULL};
	static const int flags[] = {0, CALC_NOFOUND, CALC_THREE};
	char *copy = xstrdup(arg);
	for (char *t = strtok(copy, ","); t; t = strtok(NULL, ","))
		*v |= flags[cli_choice("--variant", t, names)];
	free(copy);
}

static double parse_reward(const char *arg)
{
	if (!strcmp(arg, "binary"))
		return -1;
	if (strncmp(arg, "rest:", 5))
		die_usage("--reward: '%s' is not binary or rest:B", arg);
	return cli_double("--reward rest:B", arg + 5, 0, 1);
}

/* The game's options are checked apart: a calc run takes none of
 * Othello's, and the other way round. */
static int calc_main(calcrun_opts *c, int64_t playouts, bool playouts_set)
{
	static char name[64];
	calcplay *p = &c->player;
	switch (p->kind) {
	case CALCPLAY_MCTS:
		p->playouts = (uint32_t)playouts;
		snprintf(name, sizeof name, "mcts:%u", p->playouts);
		break;
	case CALCPLAY_BEST:
		p->playouts = playouts_set ? (uint32_t)playouts : 128;
		snprintf(name, sizeof name, "best:%u/%dx%u/%d/%d/%d", p->playouts, p->endgame,
			 p->samples, p->hold, p->exact, p->exact_all);
		break;
	case CALCPLAY_SIMPLE:
		snprintf(name, sizeof name, "simple:%dx%d", p->level, p->width);
		break;
	case CALCPLAY_CLAIRVOYANT:
		snprintf(name, sizeof name, "clairvoyant:%d", p->level);
		break;
	case CALCPLAY_GREEDY: snprintf(name, sizeof name, "greedy"); break;
	default: snprintf(name, sizeof name, "random"); break;
	}
	c->policy_name = name;
	int rc = calcrun_main(c);
	calcplay_free(p);
	return rc;
}

int main(int argc, char **argv)
{
	util_init(argv[0]);
	static const char *const games[] = {"othello", "calc", NULL};
	static const char *const policies[] = {"random", "greedy", "mcts", "simple", "best",
						     "clairvoyant", NULL};
	int game = 0;
	calcrun_opts co = {.player = {.bad = -1, .level = 3, .width = 5, .endgame = 20, .samples = 32,
				     .exact = 8, .exact_all = 6, .hold = 12}};
	int64_t playouts = 10000;
	bool playouts_set = false, calc_only = false;
	othellorun_opts o = {.seed = 1, .first = 1, .games = 1, .black = "random", .white = "random"};
	double ucb = 0.5;
	uint32_t threshold = 5;
	int c;
	while ((c = getopt_long(argc, argv, "g:n:q" CLI_SHORT, long_opts, NULL)) != -1) {
		if (cli_option(c, optarg, usage_text, &o.out))
			continue;
		switch (c) {
		case 'g': game = cli_choice("--game", optarg, games); break;
		case OPT_POLICY: co.player.kind = (calcplay_kind)cli_choice("--policy", optarg, policies); calc_only = true; break;
		case OPT_VARIANT: parse_variant(optarg, &co.variant); calc_only = true; break;
		case OPT_PLAYOUTS:
			playouts = cli_i64("--playouts", optarg, 1, 100000000);
			playouts_set = calc_only = true;
			break;
		case OPT_REWARD: co.player.bad = parse_reward(optarg); calc_only = true; break;
		case OPT_LEVEL: co.player.level = (int)cli_i64("--level", optarg, 0, 30); calc_only = true; break;
		case OPT_WIDTH: co.player.width = (int)cli_i64("--width", optarg, 1, 1000000); calc_only = true; break;
		case OPT_ENDGAME: co.player.endgame = (int)cli_i64("--endgame", optarg, 0, 52); calc_only = true; break;
		case OPT_EXACT: co.player.exact = (int)cli_i64("--exact", optarg, 0, 52); calc_only = true; break;
		case OPT_EXACT_ALL:
			co.player.exact_all = (int)cli_i64("--exact-all", optarg, 0, 52);
			calc_only = true;
			break;
		case OPT_HOLD: co.player.hold = (int)cli_i64("--hold", optarg, 0, 52); calc_only = true; break;
		case OPT_SAMPLES:
			co.player.samples = (uint32_t)cli_i64("--samples", optarg, 1, 1000000);
			calc_only = true;
			break;
		case 'n':
			o.games = cli_i64("-n", optarg, 1, OTHELLORUN_MAX_GAMES - 1);
			o.games_set = true;
			break;
		case OPT_SEED: o.seed = cli_u64("--seed", optarg, UINT64_MAX); break;
		case OPT_FIRST: o.first = cli_i64("--first-game", optarg, 1, OTHELLORUN_MAX_GAMES - 1); break;
		case OPT_MOVES: o.moves = true; break;
		case OPT_BLACK: o.black = optarg; need_player("--black", optarg, &o.player[OTHELLO_BLACK]); break;
		case OPT_WHITE: o.white = optarg; need_player("--white", optarg, &o.player[OTHELLO_WHITE]); break;
		case OPT_UCB: ucb = cli_double("--ucb", optarg, 0, 100); break;
		case OPT_THRESHOLD: threshold = (uint32_t)cli_i64("--threshold", optarg, 1, 1000000); break;
		case OPT_PER_MOVE: o.per_move = cli_i64("--per-move", optarg, 1, OTHELLORUN_MAX_GAMES - 1); break;
		case OPT_PERFT: o.perft = (int)cli_i64("--perft", optarg, 1, OTHELLORUN_MAX_PERFT); break;
		case OPT_SHOW: o.show = true; break;
		case 'q': o.quiet = true; break;
		default: util_try_help();
		}
	}
	bool players = strcmp(o.black, "random") || strcmp(o.white, "random");
	if (o.show && (o.games != 1 || o.moves))
		die_usage("--show draws a single game: drop -n and --moves");
	int64_t count = o.per_move ? o.per_move : o.games;
	if (o.first - 1 > OTHELLORUN_MAX_GAMES - 1 - count)
		die_usage("--first-game plus the number of games passes %lld",
			  (long long)OTHELLORUN_MAX_GAMES);
	if (game == 1) {
		if (o.per_move || o.perft || players)
			die_usage("--black, --white, --per-move and --perft are for --game othello");
		co.seed = o.seed;
		co.first = o.first;
		co.games = o.games;
		co.moves = o.moves;
		co.show = o.show;
		co.quiet = o.quiet;
		co.player.ucb = ucb;
		co.player.threshold = threshold;
		co.out = o.out;
		co.files = argv + optind;
		co.nfiles = argc - optind;
		return calc_main(&co, playouts, playouts_set);
	}
	if (calc_only)
		die_usage("--policy, --variant, --playouts, --reward, --level, --width, --endgame, "
			  "--samples, --exact, --exact-all and --hold are for --game calc");
	if ((o.per_move > 0) + (o.perft > 0) + o.show > 1)
		die_usage("--per-move, --perft and --show are separate modes: choose one");
	if ((o.per_move || o.perft) && (players || o.moves || o.games_set))
		die_usage("--per-move and --perft take neither -n, --moves nor players");
	for (int i = 0; i < 2; i++) {
		o.player[i].ucb = ucb;
		o.player[i].threshold = threshold;
	}
	o.files = argv + optind;
	o.nfiles = argc - optind;
	return othellorun_main(&o);
}
