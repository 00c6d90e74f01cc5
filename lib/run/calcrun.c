#include "run/calcrun.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calc/calcbatch.h"
#include "core/carry.h"
#include "core/output.h"
#include "core/progress.h"
#include "core/table.h"
#include "core/util.h"

typedef struct {
	uint8_t (*deck)[52];
	size_t n, cap;
	carry cols; /* the tables' other columns */
	table *reading; /* kept reachable, so a die() while reading leaks nothing */
} deals;

static void read_decks(deals *ds, const char *path, int variant)
{
	table *t = ds->reading = table_open(path, NULL);
	int cd = table_need_col(t, "deck");
	carry_table(&ds->cols, t, &cd, 1);
	while (table_read_row(t)) {
		util_grow((void **)&ds->deck, &ds->cap, ds->n + 1, sizeof *ds->deck);
		const char *err = calc_parse_deck(table_field(t, (size_t)cd), variant, ds->deck[ds->n++]);
		if (err)
			die_at(table_name(t), table_line(t), "%s", err);
		carry_row(&ds->cols, t);
	}
	table_close(t);
	ds->reading = NULL;
}

static void deals_free(deals *ds)
{
	carry_free(&ds->cols);
	free(ds->deck);
}

/* Plays one game from S with the player; fills MOVES (names joined by
 * spaces) when asked. */
static void play(calcrun_opts *o, calc_state *s, rng *r, char *moves, size_t *mlen)
{
	*mlen = 0;
	while (!calc_over(s)) {
		int m = calcplay_move(&o->player, s, r);
		if (m < 0 || !calc_legal(s, m))
			die("internal error: the %s player chose an illegal move", o->policy_name);
		if (moves) {
			if (*mlen)
				moves[(*mlen)++] = ' ';
			calc_move_name(s, m, moves + *mlen);
			*mlen += strlen(moves + *mlen);
		}
		calc_play(s, m);
	}
}

/* The rows' writer. Random games without their moves are played a batch
 * at a time by calcbatch (the same draws as the player's, without the
 * move checks), so the games wait here until the batch is full. */
enum { BATCH = 64 };
typedef struct {
	calcrun_opts *o;
	const deals *ds;
	output *out;
	size_t n, deal[BATCH];
	int64_t id[BATCH];
	uint8_t deck[BATCH][52];
	rng gen[BATCH];
	calcbatch_outcome res[BATCH];
} rows;

static void write_row(rows *w, size_t deal, int64_t id, const uint8_t *deck, calcbatch_outcome res,
		      const char *moves, size_t mlen)
{
	calcrun_opts *o = w->o;
	if (o->common.nfiles)
		carry_write(&w->ds->cols, deal, w->out);
	output_int(w->out, id);
	output_uint(w->out, o->common.seed);
	output_field(w->out, calc_variant_name(o->variant));
	output_field(w->out, o->policy_name);
	output_int(w->out, res.success);
	output_int(w->out, res.rest);
	output_int(w->out, res.steps);
	if (o->deals) {
		char text[53];
		calc_format_deck(deck, calc_stock_size(o->variant), text);
		output_field(w->out, text);
	}
	if (moves)
		output_field_n(w->out, moves, mlen);
	output_end_row(w->out);
}

static void rows_flush(rows *w)
{
	if (!w->o->common.nfiles) /* the decks: each game's first draws */
		calcbatch_shuffle(w->o->variant, w->gen, w->n, w->deck);
	calcbatch_random(w->o->variant, w->deck, w->gen, w->n, w->res);
	for (size_t i = 0; i < w->n; i++)
		write_row(w, w->deal[i], w->id[i], w->deck[i], w->res[i], NULL, 0);
	w->n = 0;
}

/* Game ID of deal P (an input row's, else dealt by the game's own
 * generator R when the batch is played). */
static void rows_add(rows *w, size_t p, int64_t id, const rng *r)
{
	w->deal[w->n] = p;
	w->id[w->n] = id;
	if (w->o->common.nfiles)
		memcpy(w->deck[w->n], w->ds->deck[p], 52);
	w->gen[w->n] = *r;
	if (++w->n == BATCH)
		rows_flush(w);
}

static void show_state(FILE *f, const calc_state *s)
{
	fprintf(f, "hand %c  stock %d\n", s->hand ? calc_rank_char(s->hand) : '-',
		s->ncards - s->next);
	for (int k = 0; k < 4; k++) {
		fprintf(f, "F%d ", k + 1);
		for (int n = 0; n < s->found[k]; n++)
			fputc(calc_rank_char(calc_need(k, n)), f);
		if (s->found[k] < 13)
			fprintf(f, " (next %c)", calc_rank_char(calc_need(k, s->found[k])));
		fputc('\n', f);
	}
	for (int w = 0; w < s->npiles; w++) {
		fprintf(f, "W%d%s", w + 1, s->len[w] ? " " : "");
		for (int i = 0; i < s->len[w]; i++)
			fputc(calc_rank_char(s->pile[w][i]), f);
		fputc('\n', f);
	}
}

static void run_show(calcrun_opts *o, const deals *ds)
{
	rng r;
	uint8_t deck[52];
	rng_stream(&r, o->common.seed, rng_key(ds->n ? 1 : 0, 0, (uint64_t)o->common.first));
	if (ds->n)
		memcpy(deck, ds->deck[0], 52);
	else
		calc_shuffle(o->variant, &r, deck);
	calc_state s;
	calc_deal(&s, o->variant, deck);
	char text[53];
	calc_format_deck(deck, calc_stock_size(o->variant), text);
	run_drawing dr;
	FILE *f = run_drawing_open(&dr, &o->common);
	fprintf(f, "game %lld, seed %llu, %s, %s\ndeck %s\n\n", (long long)o->common.first,
		(unsigned long long)o->common.seed, calc_variant_name(o->variant), o->policy_name, text);
	show_state(f, &s);
	while (!calc_over(&s)) {
		int m = calcplay_move(&o->player, &s, &r);
		char name[8];
		calc_move_name(&s, m, name);
		calc_play(&s, m);
		fprintf(f, "\n%d. %s\n", s.steps, name);
		show_state(f, &s);
	}
	fprintf(f, "\n%s, %d cards left\n", calc_success(&s) ? "success" : "failure", calc_rest(&s));
	run_drawing_close(&dr, &o->common);
}

static void write_header(const calcrun_opts *o, const deals *ds, output *out)
{
	const char *cols[10] = {"game", "seed", "variant", "policy", "success", "rest", "steps"};
	size_t n = 7;
	if (o->deals)
		cols[n++] = "deck";
	if (o->common.moves)
		cols[n++] = "moves";
	carry_header(o->common.nfiles ? &ds->cols : NULL, out, cols);
}

static void run_games(calcrun_opts *o, const deals *ds, output *out)
{
	size_t ndeals = o->common.nfiles ? ds->n : 1;
	bool batch = o->player.kind == CALCPLAY_RANDOM && !o->common.moves;
	size_t total = ndeals * (size_t)o->common.count, done = 0;
	progress pr;
	progress_start(&pr, o->common.out.quiet, "games", total);
	char moves[52 * 8 * 2];
	rows *w = xcalloc(1, sizeof *w);
	w->o = o;
	w->ds = ds;
	w->out = out;
	for (size_t p = 0; p < ndeals; p++) {
		for (int64_t k = 0; k < o->common.count; k++) {
			int64_t id = o->common.first + k;
			rng r;
			rng_stream(&r, o->common.seed, rng_key(o->common.nfiles ? p + 1 : 0, 0, (uint64_t)id));
			if (batch) {
				rows_add(w, p, id, &r);
			} else {
				uint8_t deck[52];
				if (o->common.nfiles)
					memcpy(deck, ds->deck[p], 52);
				else
					calc_shuffle(o->variant, &r, deck);
				calc_state s;
				calc_deal(&s, o->variant, deck);
				size_t mlen;
				play(o, &s, &r, o->common.moves ? moves : NULL, &mlen);
				write_row(w, p, id, deck, calcbatch_outcome_of(&s),
					  o->common.moves ? moves : NULL, mlen);
			}
			progress_tick(&pr, ++done);
		}
	}
	rows_flush(w);
	free(w);
	progress_end(&pr, total);
}

static run_opts *create(void)
{
	calcrun_opts *o = xcalloc(1, sizeof *o);
	o->player = (calcplay){.bad = -1, .level = 3, .width = 5, .endgame = 20, .samples = 32,
			       .exact = 8, .exact_all = 6, .hold = 12, .playouts = 10000,
			       .ucb = 0.5, .threshold = 5};
	return &o->common;
}

/* Adds the variants of ARG, separated by commas or by '+' as the variant
 * column writes them, to *V. */
static void parse_variant(const char *arg, int *v)
{
	static const char *const names[] = {"standard", "no-foundations", "three-piles", NULL};
	static const int flags[] = {0, CALC_NOFOUND, CALC_THREE};
	char *copy = xstrdup(arg), *save = NULL;
	int n = 0;
	for (char *t = strtok_r(copy, ",+", &save); t; t = strtok_r(NULL, ",+", &save), n++)
		*v |= flags[cli_choice("--variant", t, names)];
	if (!n)
		cli_choice("--variant", arg, names); /* a list naming none: refused whole */
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

/* The options that set a number of the player: name, field, bounds. */
static int *int_option(calcplay *p, const char *name, int64_t *lo, int64_t *hi)
{
	static const struct {
		const char *name;
		size_t at;
		int64_t lo, hi;
	} ints[] = {
		{"level", offsetof(calcplay, level), 0, 30},
		{"width", offsetof(calcplay, width), 1, 1000000},
		{"endgame", offsetof(calcplay, endgame), 0, 52},
		{"exact", offsetof(calcplay, exact), 0, 52},
		{"exact-all", offsetof(calcplay, exact_all), 0, 52},
		{"hold", offsetof(calcplay, hold), 0, 52},
		{"rounds", offsetof(calcplay, rounds), 0, 63},
		{"solve-from", offsetof(calcplay, solve_from), 0, 52},
	};
	for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
		if (!strcmp(name, ints[i].name)) {
			*lo = ints[i].lo, *hi = ints[i].hi;
			return (int *)((char *)p + ints[i].at);
		}
	return NULL;
}

/* The policies each player option applies to (bits 1 << calcplay_kind):
 * any other refuses it, rather than ignore what the user asked for. */
#define POLICY(k) (1u << CALCPLAY_##k)
static const struct {
	const char *name;
	unsigned policies;
} policy_options[] = {
	{"playouts", POLICY(MCTS) | POLICY(BEST)},
	{"reward", POLICY(MCTS) | POLICY(SIMPLE)},
	{"level", POLICY(SIMPLE) | POLICY(CLAIRVOYANT)},
	{"width", POLICY(SIMPLE)},
	{"endgame", POLICY(BEST)},
	{"samples", POLICY(BEST)},
	{"exact", POLICY(BEST)},
	{"exact-all", POLICY(BEST)},
	{"hold", POLICY(BEST)},
	{"rounds", POLICY(BEST)},
	{"solve-from", POLICY(BEST)},
	{"ucb", POLICY(MCTS)},
	{"threshold", POLICY(MCTS)},
	{"peek", POLICY(MCTS) | POLICY(SIMPLE)},
	{"eager", POLICY(MCTS) | POLICY(SIMPLE)},
	{"up-first", POLICY(MCTS) | POLICY(SIMPLE)},
	{"binary-ends", POLICY(SIMPLE)},
	{"per-card", POLICY(SIMPLE)},
	{"cascade", POLICY(GREEDY) | POLICY(WEIGHTED) | POLICY(BEST)},
	{"no-cascade", POLICY(GREEDY) | POLICY(WEIGHTED) | POLICY(BEST)},
	{"waits", POLICY(BEST)},
	{"no-waits", POLICY(BEST)},
};
#undef POLICY
#define NPOLICY_OPTIONS (sizeof policy_options / sizeof *policy_options)

/* Whether the policy option NAME was given. */
static bool given(const calcrun_opts *o, const char *name)
{
	for (size_t i = 0; i < NPOLICY_OPTIONS; i++)
		if (!strcmp(name, policy_options[i].name))
			return o->set & (1u << i);
	return false;
}

/* Dies if an option given does not apply to the policy chosen. */
static void check_policy_options(const calcrun_opts *o)
{
	unsigned kind = 1u << o->player.kind;
	for (size_t i = 0; i < NPOLICY_OPTIONS; i++) {
		if (!(o->set & (1u << i)) || (policy_options[i].policies & kind))
			continue;
		char list[128] = "";
		size_t len = 0;
		int n = __builtin_popcount(policy_options[i].policies), k = 0;
		for (int p = 0; calcplay_policies[p]; p++)
			if (policy_options[i].policies & (1u << p))
				len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
							k++ == 0 ? "" : k == n ? " and " : ", ",
							calcplay_policies[p]);
		die_usage("--%s is for --policy %s, not %s", policy_options[i].name, list,
			  calcplay_policies[o->player.kind]);
	}
}

static void option(run_opts *c, const char *name, const char *arg)
{
	calcrun_opts *o = (calcrun_opts *)c;
	calcplay *p = &o->player;
	char flag[32];
	int64_t lo, hi;
	int *field = int_option(p, name, &lo, &hi);
	snprintf(flag, sizeof flag, "--%s", name);
	for (size_t i = 0; i < NPOLICY_OPTIONS; i++)
		if (!strcmp(name, policy_options[i].name))
			o->set |= 1u << i;
	if (field) {
		*field = (int)cli_i64(flag, arg, lo, hi);
	} else if (!strcmp(name, "policy")) {
		p->kind = (calcplay_kind)cli_choice("--policy", arg, calcplay_policies);
	} else if (!strcmp(name, "variant")) {
		parse_variant(arg, &o->variant);
	} else if (!strcmp(name, "playouts")) {
		p->playouts = (uint32_t)cli_i64("--playouts", arg, 1, 100000000);
	} else if (!strcmp(name, "reward")) {
		p->bad = parse_reward(arg);
	} else if (!strcmp(name, "samples")) {
		p->samples = (uint32_t)cli_i64("--samples", arg, 1, 1000000);
	} else if (!strcmp(name, "ucb")) {
		p->ucb = cli_double("--ucb", arg, 0, 100);
	} else if (!strcmp(name, "threshold")) {
		p->threshold = (uint32_t)cli_i64("--threshold", arg, 1, 1000000);
	} else if (!strcmp(name, "peek")) {
		p->peek = true;
	} else if (!strcmp(name, "eager")) {
		p->eager = true;
	} else if (!strcmp(name, "up-first")) {
		p->up_first = true;
	} else if (!strcmp(name, "binary-ends")) {
		p->binary_ends = true;
	} else if (!strcmp(name, "per-card")) {
		p->per_card = true;
	} else if (!strcmp(name, "cascade") || !strcmp(name, "no-cascade")) {
		p->cascade = name[0] == 'c'; /* the last given counts */
	} else if (!strcmp(name, "waits") || !strcmp(name, "no-waits")) {
		p->waits = name[0] == 'w';
	} else if (!strcmp(name, "deals")) {
		o->deals = true;
	}
}

static int run(run_opts *c)
{
	calcrun_opts *o = (calcrun_opts *)c;
	/* Best's rollouts per leaf and round, not playouts per move, and up
	 * to fifteen rounds more for the close choices; with three piles 64
	 * rollouts that play the cascade, which win more there within the
	 * same second. The sampled orders race on up to 256 orders, which
	 * fits the second; without foundations, whose games take longest,
	 * up to 32 (tests/bench/NOTES.md). */
	if (o->player.kind == CALCPLAY_BEST) {
		bool three = o->variant & CALC_THREE;
		if (!given(o, "playouts"))
			o->player.playouts = three ? 64 : 128;
		if (!given(o, "samples"))
			o->player.samples = o->variant & CALC_NOFOUND ? 32 : 256;
		if (!given(o, "rounds"))
			o->player.rounds = 15;
		if (three && !given(o, "cascade") && !given(o, "no-cascade"))
			o->player.cascade = true;
		if (!given(o, "waits") && !given(o, "no-waits"))
			o->player.waits = true;
	}
	check_policy_options(o);
	/* Level 0 is clairvoyant's greedy line; a tree of no plies has no
	 * move to choose. */
	if (o->player.kind == CALCPLAY_SIMPLE && o->player.level < 1)
		die_usage("--level 0: simple expands at least one ply (1 to 30)");
	/* A peeking tree turns the true next card: it has no chance nodes. */
	if (o->player.per_card && o->player.peek)
		die_usage("--per-card is for chance nodes, and --peek has none");
	if (o->player.kind == CALCPLAY_BEST &&
	    (uint64_t)o->player.playouts * (uint64_t)(1 + o->player.rounds) > CALCPLAY_MAX_ROLLOUTS)
		die_usage("--playouts %u over %d rounds: best keeps at most %d rollouts a leaf",
			  o->player.playouts, 1 + o->player.rounds, CALCPLAY_MAX_ROLLOUTS);
	calcplay_name(&o->player, o->policy_name, sizeof o->policy_name);
	deals ds = {.cols.label = "deal"};
	for (int i = 0; i < c->nfiles; i++)
		read_decks(&ds, c->files[i], o->variant);
	if (c->show) {
		if (ds.n > 1)
			die("--show draws one game: give one deck, not %zu", ds.n);
		run_show(o, &ds);
	} else {
		output *out = output_open(c->out.path, &c->out.opts);
		write_header(o, &ds, out);
		run_games(o, &ds, out);
		output_close(out);
	}
	deals_free(&ds);
	calcplay_free(&o->player);
	free(o);
	return 0;
}

static const struct option options[] = {
	{"policy", required_argument, NULL, 0},
	{"variant", required_argument, NULL, 0},
	{"playouts", required_argument, NULL, 0},
	{"reward", required_argument, NULL, 0},
	{"level", required_argument, NULL, 0},
	{"width", required_argument, NULL, 0},
	{"endgame", required_argument, NULL, 0},
	{"samples", required_argument, NULL, 0},
	{"exact", required_argument, NULL, 0},
	{"exact-all", required_argument, NULL, 0},
	{"hold", required_argument, NULL, 0},
	{"rounds", required_argument, NULL, 0},
	{"solve-from", required_argument, NULL, 0},
	{"ucb", required_argument, NULL, 0},
	{"threshold", required_argument, NULL, 0},
	{"peek", no_argument, NULL, 0},
	{"eager", no_argument, NULL, 0},
	{"up-first", no_argument, NULL, 0},
	{"binary-ends", no_argument, NULL, 0},
	{"per-card", no_argument, NULL, 0},
	{"cascade", no_argument, NULL, 0},
	{"no-cascade", no_argument, NULL, 0},
	{"waits", no_argument, NULL, 0},
	{"no-waits", no_argument, NULL, 0},
	{"deals", no_argument, NULL, 0},
	{NULL, 0, NULL, 0},
};

const playoutgame calcrun_game = {
	.name = "calc",
	.usage = "Calculation (--game calc): one row per game,\n"
		 "  game,seed,variant,policy,success,rest,steps[,deck][,moves]\n"
		 "from seeded shuffles, or from the decks of the FILEs (column deck: rank\n"
		 "letters A23456789TJQK, top of the stock first; other columns are carried\n"
		 "after a deal column). An option for other policies than --policy's is\n"
		 "refused.\n"
		 "      --policy P        random (default), greedy, weighted, mcts, simple,\n"
		 "                        best, or clairvoyant (sees the stock's order: a\n"
		 "                        bound on any player, not a player)\n"
		 "      --variant V       no-foundations, three-piles (joined by ',' or '+',\n"
		 "                        or repeated; default standard)\n"
		 "      --deals           add each game's deck (column deck, top first), which\n"
		 "                        playout -g calc reads back to replay the deal\n"
		 "      --playouts N      mcts: playouts per move (default 10000); best:\n"
		 "                        rollouts per leaf of its two-ply search in each\n"
		 "                        round of its race (default 128; 64 with three piles)\n"
		 "      --rounds R        best: up to R more rounds for the moves not yet\n"
		 "                        surely behind or surely equal (0-63, default 15)\n"
		 "      --cascade         greedy and weighted: where two or more moves up are\n"
		 "                        open, play the one that lets the most moves up\n"
		 "                        follow (label :cascade); best: rollouts by that\n"
		 "                        greedy rule (label ends /c; the default with\n"
		 "                        three piles)\n"
		 "      --no-cascade      the plain rules' moves up (the default but with\n"
		 "                        best and three piles)\n"
		 "      --solve-from S    best: each rollout hands over to the eager solver,\n"
		 "                        its own order in view, at S cards unseen (default\n"
		 "                        0: the greedy rule plays it to the end)\n"
		 "      --endgame E       best: from E cards unseen on (default 20; 0: never),\n"
		 "                        choose among the moves by solving sampled orders\n"
		 "      --samples K       best: orders sampled per move there, at most\n"
		 "                        (default 256; 32 with no-foundations)\n"
		 "      --exact U         best: from U cards unseen on (default 8; 0: never),\n"
		 "                        choose by exact search over the unseen cards'\n"
		 "                        orders, as a player who cannot see them\n"
		 "      --exact-all A     best: from A cards unseen on (default 6; 0: never),\n"
		 "                        the exact search weighs every move: a card may\n"
		 "                        wait on a pile while a foundation wants it\n"
		 "      --hold H          best: from H cards unseen on (default 12; 0:\n"
		 "                        never), a card that fits a foundation may also\n"
		 "                        wait on a pile: every move is a candidate\n"
		 "      --waits           best: the exact search's eager lines let a card\n"
		 "                        that fits a foundation wait while a copy of its\n"
		 "                        rank lies buried in another pile (the default;\n"
		 "                        label ends /w)\n"
		 "      --no-waits        best: eager lines send every such card up at once\n"
		 "      --reward R        mcts and simple: binary (default) or rest:B (B, 0\n"
		 "                        to 1, for two cards left, falling to 0 at 27)\n"
		 "      --level L         simple: plies expanded (1-30); clairvoyant: levels\n"
		 "                        of nested search over greedy lines (0-30; default 3)\n"
		 "      --width W         simple: playouts per leaf (default 5)\n"
		 "      --ucb C           mcts exploration constant (default 0.5)\n"
		 "      --threshold T     mcts: visits before a leaf grows children\n"
		 "                        (default 5)\n"
		 "      --eager           mcts and simple: random playouts move a card to a\n"
		 "                        foundation whenever one can go (label :eager)\n"
		 "      --up-first        mcts and simple: the tree lists moves that put a\n"
		 "                        card on a foundation first, so ties go to them\n"
		 "                        (label :upfirst)\n"
		 "      --binary-ends     simple: a game that ends inside the tree scores 1\n"
		 "                        or 0, as the seed's tree, not by --reward (label\n"
		 "                        :binends)\n"
		 "      --per-card        simple: a chance node has a subtree for each\n"
		 "                        card unseen, as the seed's tree, not one for each\n"
		 "                        rank weighed by its copies (label :percard)\n"
		 "      --peek            mcts and simple: the tree and the playouts turn\n"
		 "                        the stock in its true order (label :peek): a bound\n"
		 "                        that sees the stock, not a player; the seed's\n"
		 "                        players drew each card at random and did not peek\n",
	.options = options,
	.create = create,
	.option = option,
	.run = run,
};
