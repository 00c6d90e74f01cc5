#include "run/chainrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/input.h"
#include "core/output.h"
#include "core/table.h"
#include "core/utf8.h"
#include "core/util.h"

static const char usage_fmt[] =
	"Usage: %s -d DICT [OPTION]... [LOG]\n"
	"Play shiritori on the dictionary table DICT (word,head,tail,len):\n"
	"chain-greedy plays the longest word, chain-lookahead searches ahead.\n"
	"\n"
	"Modes:\n"
	"  (step filter)         read a game log (LOG or stdin), append --moves moves\n"
	"                        for whoever is to move, write the whole log\n"
	"      --start WORD      begin a new game from WORD instead of reading a log\n"
	"      --moves N         moves to append (default 1; 0 writes just the start)\n"
	"      --vs STRATEGY     with --start: play a whole match against STRATEGY\n"
	"                        (greedy, random, lookahead, lookahead:D, lookahead:end)\n"
	"                        and write its log\n"
	"      --second          in a match or tournament, move second\n"
	"      --starts LIST     tournament against --vs from every start word in LIST:\n"
	"                        all (the whole dictionary), a file of words, or\n"
	"                        W1,W2,...; writes one result row per game\n"
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
	"  -q, --quiet           no progress on stderr\n"
	CLI_HELP;

enum {
	OPT_START = 256, OPT_MOVES, OPT_VS, OPT_SECOND, OPT_STARTS, OPT_GAMES, OPT_BOTH, OPT_ROUNDS,
	OPT_HANDICAP, OPT_LOSE, OPT_DEPTH, OPT_TIME, OPT_SEED, OPT_GAME, OPT_TRACE, OPT_FIRST
};

static const struct option long_opts[] = {
	{"dict", required_argument, NULL, 'd'},
	{"start", required_argument, NULL, OPT_START},
	{"moves", required_argument, NULL, OPT_MOVES},
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
	{"quiet", no_argument, NULL, 'q'},
	CLI_LONG_OPTIONS,
	{NULL, 0, NULL, 0},
};

static const char *const log_cols[] = {"game",  "turn",     "player",   "strategy", "word",
				       "points", "p1_score", "p2_score", "event"};
#define NLOG 9

typedef struct {
	const dict *d;
	chain_rules rules;
	chain_search *search;
	uint64_t *zobrist;
	chain_strategy me, vs;
	uint64_t seed;
	output *trace;
	cli_output out;
} ctx_t;

/* One log row as written: the nine columns, then any extra ones. */
typedef struct {
	char **f;
} row_t;

typedef struct {
	row_t *rows;
	size_t n, cap;
	char **extra; /* names of extra columns */
	size_t nextra;
	int64_t game;
} log_t;

static const char *end_event(chain_end e)
{
	return e == CHAIN_STUCK ? "stuck" : e == CHAIN_LOSE_TAIL ? "lose-tail" : "play";
}

static void log_add(log_t *lg, int64_t game, int turn, int player, const char *strategy,
		    const char *word, int64_t points, const int64_t score[2], const char *event)
{
	util_grow((void **)&lg->rows, &lg->cap, lg->n + 1, sizeof *lg->rows);
	char **f = xcalloc(NLOG + lg->nextra, sizeof *f);
	const int64_t nums[] = {game, turn, player, points, score[0], score[1]};
	const int at[] = {0, 1, 2, 5, 6, 7}; /* where each number goes */
	for (int i = 0; i < 6; i++) {
		char b[24];
		snprintf(b, sizeof b, "%lld", (long long)nums[i]);
		f[at[i]] = xstrdup(b);
	}
	f[3] = xstrdup(strategy);
	f[4] = xstrdup(word);
	f[8] = xstrdup(event);
	for (size_t i = 0; i < lg->nextra; i++)
		f[NLOG + i] = xstrdup("");
	lg->rows[lg->n++].f = f;
}

static void log_write(const log_t *lg, output *o)
{
	for (int i = 0; i < NLOG; i++)
		output_field(o, log_cols[i]);
	for (size_t i = 0; i < lg->nextra; i++)
		output_field(o, lg->extra[i]);
	output_end_row(o);
	for (size_t r = 0; r < lg->n; r++) {
		for (size_t i = 0; i < NLOG + lg->nextra; i++)
			output_field(o, lg->rows[r].f[i]);
		output_end_row(o);
	}
}

static void log_free(log_t *lg)
{
	for (size_t r = 0; r < lg->n; r++) {
		for (size_t i = 0; i < NLOG + lg->nextra; i++)
			free(lg->rows[r].f[i]);
		free(lg->rows[r].f);
	}
	for (size_t i = 0; i < lg->nextra; i++)
		free(lg->extra[i]);
	free(lg->extra);
	free(lg->rows);
}

static int64_t need_int(const table *t, int col, int64_t lo, int64_t hi)
{
	int64_t v;
	const char *s = table_field(t, (size_t)col);
	if (!util_parse_i64(s, lo, hi, &v))
		die_at(table_name(t), table_line(t), "column '%s': '%s' is not an integer from %lld to %lld",
		       table_colname(t, (size_t)col), s, (long long)lo, (long long)hi);
	return v;
}

/* Reads and checks a game log, replaying it into G. */
static void log_read(ctx_t *cx, const char *path, log_t *lg, chain_game *g)
{
	table *t = table_open(path, NULL);
	int col[NLOG];
	for (int i = 0; i < NLOG; i++)
		col[i] = table_need_col(t, log_cols[i]);
	for (size_t i = 0; i < table_ncols(t); i++) {
		bool known = false;
		for (int j = 0; j < NLOG; j++)
			known |= col[j] == (int)i;
		if (!known) {
			lg->extra = xrealloc(lg->extra, (lg->nextra + 1) * sizeof *lg->extra);
			lg->extra[lg->nextra++] = xstrdup(table_colname(t, i));
		}
	}
	const char *name = table_name(t);
	while (table_read_row(t)) {
		long line = table_line(t);
		int64_t game = need_int(t, col[0], 0, INT64_MAX);
		int64_t turn = need_int(t, col[1], 0, 2 * CHAIN_MAX_ROUNDS);
		int64_t player = need_int(t, col[2], 0, 2);
		int64_t points = need_int(t, col[5], -1000000000, 1000000000);
		int64_t p1 = need_int(t, col[6], INT32_MIN, INT32_MAX);
		int64_t p2 = need_int(t, col[7], INT32_MIN, INT32_MAX);
		const char *word = table_field(t, (size_t)col[4]);
		const char *event = table_field(t, (size_t)col[8]);
		if (lg->n == 0)
			lg->game = game;
		else if (game != lg->game)
			die_at(name, line, "the log holds more than one game (%lld after %lld)",
			       (long long)game, (long long)lg->game);
		if (turn != (int64_t)lg->n)
			die_at(name, line, "turn %lld out of order, expected %zu", (long long)turn, lg->n);
		if (lg->n > 0 && g->end != CHAIN_RUNNING)
			die_at(name, line, "a move after the end of the game");
		if (turn == 0) {
			if (strcmp(event, "start") != 0 || player != 0)
				die_at(name, line, "turn 0 must be the start word (player 0, event start)");
			int64_t w = dict_find(cx->d, word);
			if (w < 0)
				die_at(name, line, "start word '%s' is not in the dictionary", word);
			cx->rules.handicap[0] = p1, cx->rules.handicap[1] = p2;
			chain_start(g, (uint32_t)w);
		} else {
			int mover = chain_mover(g);
			if (player != mover)
				die_at(name, line, "turn %lld is player %d's, not player %lld's", (long long)turn,
				       mover, (long long)player);
			if (strcmp(event, "stuck") == 0) {
				if (*word || points != 0)
					die_at(name, line, "a stuck row has no word and no points");
				if (chain_can_move(g))
					die_at(name, line, "player %d is not stuck", mover);
				chain_stuck(g);
			} else {
				int64_t w = dict_find(cx->d, word);
				if (w < 0)
					die_at(name, line, "word '%s' is not in the dictionary", word);
				const char *why = chain_illegal(g, (uint32_t)w);
				if (why)
					die_at(name, line, "word '%s' %s", word, why);
				if (points != cx->d->len[w])
					die_at(name, line, "word '%s' scores %u points, not %lld", word,
					       cx->d->len[w], (long long)points);
				chain_play(g, (uint32_t)w);
				if (strcmp(event, end_event(g->end == CHAIN_LOSE_TAIL ? CHAIN_LOSE_TAIL
										   : CHAIN_RUNNING)) != 0)
					die_at(name, line, "event '%s' does not match the rules (expected %s)",
					       event, g->end == CHAIN_LOSE_TAIL ? "lose-tail" : "play");
			}
			if (p1 != g->score[0] || p2 != g->score[1])
				die_at(name, line, "scores %lld,%lld do not add up (expected %lld,%lld)",
				       (long long)p1, (long long)p2, (long long)g->score[0],
				       (long long)g->score[1]);
		}
		util_grow((void **)&lg->rows, &lg->cap, lg->n + 1, sizeof *lg->rows);
		char **f = xmalloc((NLOG + lg->nextra) * sizeof *f);
		for (int i = 0; i < NLOG; i++)
			f[i] = xstrdup(table_field(t, (size_t)col[i]));
		for (size_t i = 0, e = 0; i < table_ncols(t); i++) {
			bool known = false;
			for (int j = 0; j < NLOG; j++)
				known |= col[j] == (int)i;
			if (!known)
				f[NLOG + e++] = xstrdup(table_field(t, i));
		}
		lg->rows[lg->n++].f = f;
	}
	if (lg->n == 0)
		die("%s: the log has no moves, not even a start word", name);
	table_close(t);
}

static void trace_write(ctx_t *cx, int64_t game, const chain_game *g, const chain_trace *tr)
{
	/* Best first, as the seed's evaluation datasets were sorted. */
	size_t *order = xmalloc(tr->n * sizeof *order);
	for (size_t i = 0; i < tr->n; i++) {
		size_t j = i;
		while (j > 0 && tr->c[order[j - 1]].value < tr->c[i].value) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	for (size_t k = 0; k < tr->n; k++) {
		const chain_cand *c = &tr->c[order[k]];
		output_int(cx->trace, game);
		output_int(cx->trace, g->turn + 1);
		output_int(cx->trace, chain_mover(g));
		output_field(cx->trace, dict_word(cx->d, c->word));
		output_int(cx->trace, cx->d->len[c->word]);
		if (c->value_known)
			output_int(cx->trace, c->value);
		else
			output_na(cx->trace);
		output_int(cx->trace, c->chosen);
		output_end_row(cx->trace);
	}
	free(order);
}

/* Plays one move for the mover with strategy ST; logs it when LG. */
static void play_one(ctx_t *cx, chain_game *g, const chain_strategy *st, bool traced, int64_t game,
		     log_t *lg)
{
	static chain_trace tr;
	uint32_t w;
	char name[32];
	chain_strategy_name(st, name, sizeof name);
	int mover = chain_mover(g);
	bool moved = chain_choose(cx->search, g, st, cx->seed, traced ? &tr : NULL, &w);
	if (traced && moved)
		trace_write(cx, game, g, &tr);
	if (!moved) {
		chain_stuck(g);
		if (lg)
			log_add(lg, game, g->turn + 1, mover, name, "", 0, g->score, "stuck");
		return;
	}
	chain_play(g, w);
	if (lg)
		log_add(lg, game, g->turn, mover, name, dict_word(cx->d, w), cx->d->len[w], g->score,
			end_event(g->end));
}

static uint32_t need_word(const ctx_t *cx, const char *w)
{
	int64_t id = dict_find(cx->d, w);
	if (id < 0)
		die("start word '%s' is not in the dictionary", w);
	return (uint32_t)id;
}

static void parse_handicap(const char *arg, int64_t h[2])
{
	const char *comma = strchr(arg, ',');
	if (!comma)
		die_usage("invalid --handicap '%s': expected A,B", arg);
	char *a = xstrndup(arg, (size_t)(comma - arg));
	int64_t x, y;
	bool ok = util_parse_i64(a, -1000000, 1000000, &x) &&
		  util_parse_i64(comma + 1, -1000000, 1000000, &y);
	free(a);
	if (!ok)
		die_usage("invalid --handicap '%s': expected two integers from -1000000 to 1000000", arg);
	h[0] = x, h[1] = y;
}

/* Start words for a tournament: all, a file of words, or W1,W2,... */
static uint32_t *parse_starts(const ctx_t *cx, const char *arg, size_t *n)
{
	uint32_t *s = NULL;
	size_t cap = 0;
	*n = 0;
	struct stat st;
	if (strcmp(arg, "all") == 0) {
		s = xmalloc(cx->d->nwords * sizeof *s);
		for (uint32_t w = 0; w < cx->d->nwords; w++)
			s[w] = w;
		*n = cx->d->nwords;
	} else if (stat(arg, &st) == 0 && S_ISREG(st.st_mode)) {
		input_file *f = input_open(arg);
		const char *line;
		size_t len;
		while ((line = input_getline(f, &len))) {
			while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' '))
				len--;
			if (len == 0 || line[0] == '#')
				continue;
			char *w = xstrndup(line, len);
			int64_t id = dict_find(cx->d, w);
			if (id < 0)
				die_at(arg, input_lineno(f), "start word '%s' is not in the dictionary", w);
			free(w);
			util_grow((void **)&s, &cap, *n + 1, sizeof *s);
			s[(*n)++] = (uint32_t)id;
		}
		input_close(f);
	} else {
		char *copy = xstrdup(arg), *save = NULL;
		for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
			util_grow((void **)&s, &cap, *n + 1, sizeof *s);
			s[(*n)++] = need_word(cx, w);
		}
		free(copy);
	}
	if (*n == 0)
		die("no start words in '%s'", arg);
	return s;
}

int chainrun_main(int argc, char **argv, chain_kind kind)
{
	util_init(argv[0]);
	ctx_t cx = {.rules = {.rounds = 15}, .seed = 1};
	cx.me.kind = kind;
	cx.me.depth = kind == CHAIN_GREEDY ? 1 : 2;
	const char *dict_path = NULL, *start = NULL, *vs = NULL, *starts = NULL, *trace_path = NULL;
	const char *lose = NULL, *depth_arg = NULL, *time_arg = NULL;
	int64_t moves = 1, games = 1, game_id = 1, first_game = 1, count = -1;
	bool second = false, both = false, quiet = false;
	int c;
	while ((c = getopt_long(argc, argv, "d:n:q" CLI_SHORT, long_opts, NULL)) != -1) {
		switch (c) {
		case 'd': dict_path = optarg; break;
		case OPT_START: start = optarg; break;
		case OPT_MOVES: moves = cli_i64("--moves", optarg, 0, 2 * CHAIN_MAX_ROUNDS); break;
		case OPT_VS: vs = optarg; break;
		case OPT_SECOND: second = true; break;
		case OPT_STARTS: starts = optarg; break;
		case OPT_GAMES: games = cli_i64("--games", optarg, 1, 1000000000); break;
		case OPT_BOTH: both = true; break;
		case OPT_FIRST: first_game = cli_i64("--first-game", optarg, 1, INT64_MAX); break;
		case 'n': count = cli_i64("--count", optarg, 0, INT64_MAX); break;
		case OPT_ROUNDS:
			cx.rules.rounds = (int)cli_i64("--rounds", optarg, 1, CHAIN_MAX_ROUNDS);
			break;
		case OPT_HANDICAP: parse_handicap(optarg, cx.rules.handicap); break;
		case OPT_LOSE: lose = optarg; break;
		case OPT_DEPTH: depth_arg = optarg; break;
		case OPT_TIME: time_arg = optarg; break;
		case OPT_SEED: cx.seed = cli_u64("--seed", optarg, UINT64_MAX); break;
		case OPT_GAME: game_id = cli_i64("--game", optarg, 0, INT64_MAX); break;
		case OPT_TRACE: trace_path = optarg; break;
		case 'q': quiet = true; break;
		default:
			if (!cli_option(c, optarg, usage_fmt, &cx.out))
				util_try_help();
		}
	}
	if (!dict_path)
		die_usage("a dictionary is required (-d FILE)");
	if (kind == CHAIN_GREEDY && (depth_arg || time_arg))
		die_usage("%s applies to chain-lookahead only", depth_arg ? "--depth" : "--time");
	if (depth_arg)
		cx.me.depth = strcmp(depth_arg, "end") == 0
				      ? CHAIN_DEPTH_END
				      : (int)cli_i64("--depth", depth_arg, 1, 2 * CHAIN_MAX_ROUNDS);
	if (time_arg)
		cx.me.time = cli_double("--time", time_arg, 0.001, 86400);
	if (vs && !chain_strategy_parse(vs, &cx.vs))
		die_usage("invalid --vs '%s': expected greedy, random, lookahead, lookahead:D or lookahead:end", vs);
	if (starts && !vs)
		die_usage("--starts needs an opponent (--vs)");
	if (starts && start)
		die_usage("--start and --starts exclude each other");
	if (vs && !start && !starts)
		die_usage("--vs needs --start WORD or --starts LIST");
	if ((second || both) && !vs)
		die_usage("%s needs --vs", second ? "--second" : "--both-sides");
	if ((games != 1 || first_game != 1 || count >= 0) && !starts)
		die_usage("--games, --first-game and --count apply to tournaments (--starts)");
	if (optind < argc - 1)
		die_usage("at most one game log");
	if (optind < argc && (start || starts))
		die_usage("a log cannot be read together with --start or --starts");

	dict *d = dict_load(dict_path);
	cx.d = d;
	if (lose) {
		cx.rules.lose_tail = xcalloc(d->nkeys ? d->nkeys : 1, 1);
		size_t i = 0, n = strlen(lose);
		while (i < n) {
			uint32_t cp;
			int len = utf8_decode(lose + i, n - i, &cp);
			if (!len)
				die_usage("invalid --lose-tail: not UTF-8");
			char key[8];
			memcpy(key, lose + i, (size_t)len);
			key[len] = '\0';
			int64_t k = dict_key(d, key);
			if (k >= 0)
				cx.rules.lose_tail[k] = 1;
			i += (size_t)len;
		}
	}
	cx.zobrist = chain_zobrist(d);
	cx.search = chain_search_new(d, &cx.rules);
	if (trace_path) {
		cx.trace = output_open(trace_path, &cx.out.opts);
		static const char *const th[] = {"game", "turn", "player", "word", "points", "value", "chosen"};
		output_row(cx.trace, th, 7);
	}
	chain_game g;
	chain_init(&g, d, &cx.rules, cx.zobrist);
	output *out = NULL;
	char myname[32], vsname[32];
	chain_strategy_name(&cx.me, myname, sizeof myname);
	chain_strategy_name(&cx.vs, vsname, sizeof vsname);

	if (starts) {
		size_t ns;
		uint32_t *sw = parse_starts(&cx, starts, &ns);
		bool show = !quiet && isatty(STDERR_FILENO);
		out = output_open(cx.out.path, &cx.out.opts);
		static const char *const rh[] = {"game", "start", "seed", "p1", "p2", "turns",
						 "p1_score", "p2_score", "winner", "reason"};
		output_row(out, rh, 10);
		size_t total = ns * (size_t)games * (both ? 2 : 1), done = 0;
		if (first_game > 1)
			total = (size_t)first_game - 1 > total ? 0 : total - (size_t)(first_game - 1);
		if (count >= 0 && (size_t)count < total)
			total = (size_t)count;
		int64_t gid = 0;
		uint64_t seed0 = cx.seed;
		for (size_t i = 0; i < ns; i++) {
			for (int64_t k = 0; k < games; k++) {
				for (int side = 0; side < (both ? 2 : 1); side++) {
					bool me_second = both ? side == 1 : second;
					cx.seed = seed0 + (uint64_t)k;
					gid++;
					if (gid < first_game || (count >= 0 && gid >= first_game + count))
						continue;
					chain_start(&g, sw[i]);
					while (g.end == CHAIN_RUNNING) {
						bool mine = (chain_mover(&g) == 2) == me_second;
						play_one(&cx, &g, mine ? &cx.me : &cx.vs, mine && cx.trace, gid, NULL);
					}
					static const char *const reason[] = {"", "score", "stuck", "lose-tail"};
					output_int(out, gid);
					output_field(out, dict_word(d, sw[i]));
					output_int(out, (int64_t)cx.seed);
					output_field(out, me_second ? vsname : myname);
					output_field(out, me_second ? myname : vsname);
					output_int(out, g.turn);
					output_int(out, g.score[0]);
					output_int(out, g.score[1]);
					output_int(out, g.winner);
					output_field(out, reason[g.end]);
					output_end_row(out);
					cli_progress(show, "game", ++done, total);
				}
			}
		}
		free(sw);
	} else {
		log_t lg = {.game = game_id};
		if (start) {
			chain_start(&g, need_word(&cx, start));
			log_add(&lg, game_id, 0, 0, "start", start, 0, g.score, "start");
		} else {
			log_read(&cx, optind < argc ? argv[optind] : "-", &lg, &g);
		}
		if (vs) {
			while (g.end == CHAIN_RUNNING) {
				bool mine = (chain_mover(&g) == 2) == second;
				play_one(&cx, &g, mine ? &cx.me : &cx.vs, mine && cx.trace, lg.game, &lg);
			}
		} else {
			for (int64_t m = 0; m < moves && g.end == CHAIN_RUNNING; m++)
				play_one(&cx, &g, &cx.me, cx.trace != NULL, lg.game, &lg);
		}
		out = output_open(cx.out.path, &cx.out.opts);
		log_write(&lg, out);
		log_free(&lg);
	}
	output_close(out);
	if (cx.trace)
		output_close(cx.trace);
	chain_free(&g);
	chain_search_free(cx.search);
	free(cx.zobrist);
	free(cx.rules.lose_tail);
	dict_free(d);
	return 0;
}
