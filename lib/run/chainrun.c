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
#include "core/progress.h"
#include "core/table.h"
#include "core/utf8.h"
#include "core/util.h"
#include "words/wordkey.h"

static const char *const log_cols[] = {"game",  "turn",     "player",   "strategy", "word",
				       "points", "p1_score", "p2_score", "event"};
#define NLOG 9

/* A run: the options and what is made from them. */
typedef struct {
	chainrun_opts *o;
	const dict *d;
	chain_search *search;
	uint64_t *zobrist;
	uint64_t seed;        /* this game's tie-break seed */
	output *trace;
	chain_trace candidates; /* the last choice's, for --trace */
	char outside_tail[WORDKEY_MAX]; /* a start word's tail no word has */
} runctx;

/* One log row as written: the nine columns, then any extra ones. */
typedef struct {
	char **f;
} logrow;

typedef struct {
	logrow *rows;
	size_t n, cap;
	char **extra; /* names of extra columns */
	size_t nextra;
	int64_t game;
} gamelog;

static const char *end_event(chain_end e)
{
	return e == CHAIN_STUCK ? "stuck" : e == CHAIN_LOSE_TAIL ? "lose-tail" : "play";
}

static void log_add(gamelog *lg, int64_t game, int turn, int player, const char *strategy,
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

static void log_write(const gamelog *lg, output *o)
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

static void log_free(gamelog *lg)
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

/* The text of key K (the tail of an outside start word if no word has it). */
static const char *key_text(const runctx *cx, uint32_t k)
{
	return k < cx->d->nkeys ? strmap_key(cx->d->keys, k) : cx->outside_tail;
}

/* Starts G from WORD, in the dictionary or not: a word from outside is
 * keyed by the rules the dictionary's words were keyed by (told on
 * stderr when TELL). FILE and LINE, when FILE is set, name where it was
 * read. */
static void start_game(runctx *cx, chain_game *g, const char *word, bool tell, const char *file,
		       long line)
{
	int64_t id = dict_find(cx->d, word);
	if (id >= 0) {
		chain_start(g, (uint32_t)id);
		return;
	}
	wordkey_rules rules;
	char head[WORDKEY_MAX], tail[WORDKEY_MAX], name[80];
	bool known = wordkey_infer(cx->d, &rules);
	snprintf(name, sizeof name, "the dictionary's rules (");
	wordkey_name(&rules, name + strlen(name), sizeof name - strlen(name) - 1);
	strcat(name, ")");
	size_t n = strlen(word);
	if (!utf8_valid(word, n) || wordkey_keys(&rules, word, n, head, tail) != WORDKEY_OK) {
		if (file)
			die_at(file, line, "start word '%s' is not in the dictionary and has no keys by %s",
			       word, name);
		die("start word '%s' is not in the dictionary and has no keys by %s", word, name);
	}
	int64_t k = dict_key(cx->d, tail);
	if (k < 0) {
		snprintf(cx->outside_tail, sizeof cx->outside_tail, "%s", tail);
		k = cx->d->nkeys;
	}
	if (tell)
		warn("start word '%s' is not in the dictionary; keyed by %s: head %s, tail %s", word,
		     known ? name : "its first and last characters (no wordload rules fit the dictionary)",
		     head, tail);
	chain_start_key(g, (uint32_t)k);
}

/* One row of a log as read. */
typedef struct {
	int64_t game, turn, player, points, p1, p2;
	const char *word, *event;
} logmove;

/* Replays the move of row M (turn >= 1) into G after checking it against
 * the dictionary and the rules. */
static void replay_move(runctx *cx, const char *name, long line, const logmove *m, chain_game *g)
{
	int mover = chain_mover(g);
	if (m->player != mover)
		die_at(name, line, "turn %lld is player %d's, not player %lld's", (long long)m->turn,
		       mover, (long long)m->player);
	if (strcmp(m->event, "stuck") == 0) {
		if (*m->word || m->points != 0)
			die_at(name, line, "a stuck row has no word and no points");
		if (chain_can_move(g))
			die_at(name, line, "player %d is not stuck", mover);
		chain_stuck(g);
	} else {
		int64_t w = dict_find(cx->d, m->word);
		if (w < 0)
			die_at(name, line, "word '%s' is not in the dictionary", m->word);
		const char *why = chain_illegal(g, (uint32_t)w);
		if (why)
			die_at(name, line, "word '%s' %s", m->word, why);
		if (m->points != cx->d->len[w])
			die_at(name, line, "word '%s' scores %u points, not %lld", m->word, cx->d->len[w],
			       (long long)m->points);
		chain_play(g, (uint32_t)w);
		const char *want = g->end == CHAIN_LOSE_TAIL ? "lose-tail" : "play";
		if (strcmp(m->event, want) != 0)
			die_at(name, line, "event '%s' does not match the rules (expected %s)", m->event,
			       want);
	}
	if (m->p1 != g->score[0] || m->p2 != g->score[1])
		die_at(name, line, "scores %lld,%lld do not add up (expected %lld,%lld)",
		       (long long)m->p1, (long long)m->p2, (long long)g->score[0],
		       (long long)g->score[1]);
}

/* Checks row M of the log against the game so far and replays it. */
static void replay_row(runctx *cx, const char *name, long line, const logmove *m, gamelog *lg,
		       chain_game *g)
{
	if (lg->n == 0)
		lg->game = m->game;
	else if (m->game != lg->game)
		die_at(name, line, "the log holds more than one game (%lld after %lld)",
		       (long long)m->game, (long long)lg->game);
	if (m->turn != (int64_t)lg->n)
		die_at(name, line, "turn %lld out of order, expected %zu", (long long)m->turn, lg->n);
	if (lg->n > 0 && g->end != CHAIN_RUNNING)
		die_at(name, line, "a move after the end of the game");
	if (m->turn > 0) {
		replay_move(cx, name, line, m, g);
		return;
	}
	if (strcmp(m->event, "start") != 0 || m->player != 0)
		die_at(name, line, "turn 0 must be the start word (player 0, event start)");
	if (m->points != 0)
		die_at(name, line, "the start word scores no points (0, not %lld)", (long long)m->points);
	if (llabs(m->p1) > CHAIN_MAX_HANDICAP || llabs(m->p2) > CHAIN_MAX_HANDICAP)
		die_at(name, line, "the start row's scores are the handicaps, from %d to %d",
		       -CHAIN_MAX_HANDICAP, CHAIN_MAX_HANDICAP);
	cx->o->rules.handicap[0] = m->p1, cx->o->rules.handicap[1] = m->p2;
	start_game(cx, g, m->word, false, name, line);
}

/* Whether column I of the log is one of the nine (else it is carried). */
static bool log_column(const int col[NLOG], size_t i)
{
	for (int j = 0; j < NLOG; j++)
		if (col[j] == (int)i)
			return true;
	return false;
}

/* Reads and checks a game log, replaying it into G. */
static void log_read(runctx *cx, const char *path, gamelog *lg, chain_game *g)
{
	table *t = table_open(path, NULL);
	int col[NLOG];
	for (int i = 0; i < NLOG; i++)
		col[i] = table_need_col(t, log_cols[i]);
	for (size_t i = 0; i < table_ncols(t); i++)
		if (!log_column(col, i)) {
			lg->extra = xrealloc(lg->extra, (lg->nextra + 1) * sizeof *lg->extra);
			lg->extra[lg->nextra++] = xstrdup(table_colname(t, i));
		}
	const char *name = table_name(t);
	while (table_read_row(t)) {
		logmove m; /* field by field: the first bad one is reported */
		m.game = need_int(t, col[0], 0, INT64_MAX);
		m.turn = need_int(t, col[1], 0, 2 * CHAIN_MAX_ROUNDS);
		m.player = need_int(t, col[2], 0, 2);
		m.points = need_int(t, col[5], -1000000000, 1000000000);
		m.p1 = need_int(t, col[6], -CHAIN_MAX_SCORE, CHAIN_MAX_SCORE);
		m.p2 = need_int(t, col[7], -CHAIN_MAX_SCORE, CHAIN_MAX_SCORE);
		m.word = table_field(t, (size_t)col[4]);
		m.event = table_field(t, (size_t)col[8]);
		replay_row(cx, name, table_line(t), &m, lg, g);
		util_grow((void **)&lg->rows, &lg->cap, lg->n + 1, sizeof *lg->rows);
		char **f = xmalloc((NLOG + lg->nextra) * sizeof *f);
		for (int i = 0; i < NLOG; i++)
			f[i] = xstrdup(table_field(t, (size_t)col[i]));
		for (size_t i = 0, e = 0; i < table_ncols(t); i++)
			if (!log_column(col, i))
				f[NLOG + e++] = xstrdup(table_field(t, i));
		lg->rows[lg->n++].f = f;
	}
	if (lg->n == 0)
		die_at(name, table_end_line(t), "the log has no moves, not even a start word");
	table_close(t);
}

static void trace_write(runctx *cx, int64_t game, const chain_game *g, const chain_trace *tr)
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
static void play_one(runctx *cx, chain_game *g, const chain_strategy *st, bool traced, int64_t game,
		     gamelog *lg)
{
	chain_trace *tr = &cx->candidates;
	uint32_t w;
	char name[32];
	chain_strategy_name(st, name, sizeof name);
	int mover = chain_mover(g);
	bool moved = chain_choose(cx->search, g, st, cx->seed, traced ? tr : NULL, &w);
	if (traced && moved)
		trace_write(cx, game, g, tr);
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

static uint32_t need_word(const runctx *cx, const char *w)
{
	int64_t id = dict_find(cx->d, w);
	if (id < 0)
		die("start word '%s' is not in the dictionary", w);
	return (uint32_t)id;
}

typedef struct {
	uint32_t *w;
	size_t n, cap;
} startlist;

static void starts_add(startlist *l, uint32_t w)
{
	util_grow((void **)&l->w, &l->cap, l->n + 1, sizeof *l->w);
	l->w[l->n++] = w;
}

/* A start word read from FILE at LINE: in the dictionary, or die. */
static void starts_add_word(const runctx *cx, startlist *l, const char *w, const char *file,
			    long line)
{
	int64_t id = dict_find(cx->d, w);
	if (id < 0)
		die_at(file, line, "start word '%s' is not in the dictionary", w);
	starts_add(l, (uint32_t)id);
}

/* N words drawn without replacement from the stream (seed, 0), which no
 * move draws from, kept in dictionary order (selection sampling). */
static void starts_sample(const runctx *cx, startlist *l, const char *arg)
{
	int64_t n;
	if (!util_parse_i64(arg + 7, 1, INT64_MAX, &n))
		die_usage("invalid --starts '%s': expected sample:N with N a positive integer", arg);
	uint32_t total = cx->d->nwords;
	uint64_t need = (uint64_t)n < total ? (uint64_t)n : total;
	rng r;
	rng_stream(&r, cx->o->common.seed, 0);
	for (uint32_t w = 0; w < total && need > 0; w++)
		if (rng_below(&r, total - w) < need) {
			starts_add(l, w);
			need--;
		}
}

/* One word per line (blank lines and # comments skipped). */
static void starts_lines(const runctx *cx, startlist *l, const char *path)
{
	input_file *f = input_open(path);
	const char *line;
	size_t len;
	while ((line = input_getline(f, &len))) {
		if (input_line_has_nul(f))
			die_at(path, input_lineno(f), "NUL byte in the line");
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' '))
			len--;
		if (len == 0 || line[0] == '#')
			continue;
		char *w = xstrndup(line, len);
		starts_add_word(cx, l, w, path, input_lineno(f));
		free(w);
	}
	long end = input_lineno(f) + 1;
	input_close(f); /* before dying too, as in starts_column */
	if (l->n == 0)
		die_at(path, end, "no start words");
}

/* The column COL of the table PATH (CSV or TSV, gzip or not); empty
 * fields are skipped. */
static void starts_column(const runctx *cx, startlist *l, const char *path, const char *col)
{
	table *t = table_open(path, NULL);
	size_t c = (size_t)table_need_col(t, col);
	while (table_read_row(t))
		if (table_field_len(t, c) > 0)
			starts_add_word(cx, l, table_field(t, c), table_name(t), table_line(t));
	long end = table_end_line(t);
	table_close(t); /* before dying too: LeakSanitizer sees no local table */
	if (l->n == 0)
		die_at(path, end, "no start words in column '%s'", col);
}

/* Start words for a tournament: all, sample:N, a file of words (or a
 * table's column), or W1,W2,... */
static uint32_t *parse_starts(const runctx *cx, const char *arg, size_t *n)
{
	startlist l = {0};
	struct stat st;
	if (cx->o->starts_column) {
		starts_column(cx, &l, arg, cx->o->starts_column);
	} else if (strcmp(arg, "all") == 0) {
		for (uint32_t w = 0; w < cx->d->nwords; w++)
			starts_add(&l, w);
	} else if (strncmp(arg, "sample:", 7) == 0) {
		starts_sample(cx, &l, arg);
	} else if (stat(arg, &st) == 0 && !S_ISDIR(st.st_mode)) {
		starts_lines(cx, &l, arg); /* a file, a pipe or a device */
	} else {
		/* A path mistyped would read as a word missing from the list. */
		if (strchr(arg, '/') && !strchr(arg, ',') && dict_find(cx->d, arg) < 0)
			die("--starts '%s': neither a file of start words nor a word of the dictionary",
			    arg);
		char *copy = xstrdup(arg), *save = NULL;
		for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save))
			starts_add(&l, need_word(cx, w));
		free(copy);
	}
	if (l.n == 0)
		die_usage("no start words in '%s'", arg);
	*n = l.n;
	return l.w;
}

/* The key ids of the characters of TEXT, marked in the rules' lose_tail. */
static void set_lose_tail(runctx *cx, const char *text)
{
	const dict *d = cx->d;
	uint8_t *lose = xcalloc(d->nkeys ? d->nkeys : 1, 1);
	size_t i = 0, n = strlen(text);
	while (i < n) {
		uint32_t cp;
		int len = utf8_decode(text + i, n - i, &cp);
		if (!len)
			die_usage("invalid --lose-tail: not UTF-8");
		char key[8];
		memcpy(key, text + i, (size_t)len);
		key[len] = '\0';
		int64_t k = dict_key(d, key);
		if (k >= 0)
			lose[k] = 1;
		i += (size_t)len;
	}
	cx->o->rules.lose_tail = lose;
}

static void write_result(runctx *cx, output *out, int64_t gid, uint32_t start, bool me_second,
			 const chain_game *g)
{
	static const char *const reason[] = {"", "score", "stuck", "lose-tail"};
	char myname[32], vsname[32];
	chain_strategy_name(&cx->o->me, myname, sizeof myname);
	chain_strategy_name(&cx->o->vs, vsname, sizeof vsname);
	output_int(out, gid);
	output_field(out, dict_word(cx->d, start));
	output_uint(out, cx->seed);
	output_field(out, me_second ? vsname : myname);
	output_field(out, me_second ? myname : vsname);
	output_int(out, g->turn);
	output_int(out, g->score[0]);
	output_int(out, g->score[1]);
	output_int(out, g->winner);
	output_field(out, reason[g->end]);
	output_end_row(out);
}

/* Every start word x --games seeds x (with --both-sides) two sides, game
 * numbers counted over all of them so that a shard (--first-game, -n)
 * plays exactly its part of the whole run. */
static void tournament(runctx *cx, chain_game *g)
{
	chainrun_opts *o = cx->o;
	const run_opts *c = &o->common;
	size_t ns;
	uint32_t *sw = parse_starts(cx, o->starts, &ns);
	output *out = output_open(c->out.path, &c->out.opts);
	static const char *const rh[] = {"game", "start", "seed", "p1", "p2", "turns",
					 "p1_score", "p2_score", "winner", "reason"};
	output_row(out, rh, 10);
	int sides = o->both_sides ? 2 : 1;
	size_t total = ns * (size_t)o->games * (size_t)sides, done = 0;
	if (c->first > 1)
		total = (size_t)c->first - 1 > total ? 0 : total - (size_t)(c->first - 1);
	if (c->count >= 0 && (size_t)c->count < total)
		total = (size_t)c->count;
	progress pr;
	progress_start(&pr, c->out.quiet, "games", total);
	int64_t gid = 0;
	for (size_t i = 0; i < ns; i++) {
		for (int64_t k = 0; k < o->games; k++) {
			for (int side = 0; side < sides; side++) {
				bool me_second = o->both_sides ? side == 1 : o->second;
				cx->seed = c->seed + (uint64_t)k;
				gid++;
				/* gid - first, not first + count: both may be
				 * near INT64_MAX. */
				if (gid < c->first || (c->count >= 0 && gid - c->first >= c->count))
					continue;
				chain_start(g, sw[i]);
				while (g->end == CHAIN_RUNNING) {
					bool mine = (chain_mover(g) == 2) == me_second;
					play_one(cx, g, mine ? &o->me : &o->vs, mine && cx->trace, gid, NULL);
				}
				write_result(cx, out, gid, sw[i], me_second, g);
				progress_tick(&pr, ++done);
			}
		}
	}
	progress_end(&pr, done);
	free(sw);
	output_close(out);
}

/* The person's move WORD (--play) for whoever is to move, checked
 * against the rules; an empty WORD says the mover is stuck. */
static void play_person(runctx *cx, chain_game *g, gamelog *lg, const char *word)
{
	const dict *d = cx->d;
	int mover = chain_mover(g);
	if (g->end != CHAIN_RUNNING)
		die("--play: the game is over");
	const char *prev = lg->rows[lg->n - 1].f[4], *need = key_text(cx, g->tail);
	if (!*word) {
		if (chain_can_move(g))
			die("--play: player %d is not stuck: words starting with '%s' are left", mover, need);
		chain_stuck(g);
		log_add(lg, lg->game, g->turn + 1, mover, "person", "", 0, g->score, "stuck");
		return;
	}
	int64_t w = dict_find(d, word);
	if (w < 0)
		die("--play: '%s' is not in the dictionary", word);
	if (g->used[w])
		die("--play: '%s' has been played already", word);
	if (d->head[w] != g->tail)
		die("--play: '%s' starts with '%s', not with '%s' (the end of '%s')", word,
		    key_text(cx, d->head[w]), need, prev);
	chain_play(g, (uint32_t)w);
	log_add(lg, lg->game, g->turn, mover, "person", word, d->len[w], g->score, end_event(g->end));
}

/* A new game from --start, or the log read back; then --vs plays the
 * match out, or the person's --play and the program's --moves moves are
 * appended. */
static void one_game(runctx *cx, chain_game *g)
{
	chainrun_opts *o = cx->o;
	const run_opts *c = &o->common;
	gamelog lg = {.game = o->game_id};
	if (o->start) {
		start_game(cx, g, o->start, true, NULL, 0);
		log_add(&lg, o->game_id, 0, 0, "start", o->start, 0, g->score, "start");
	} else {
		log_read(cx, c->nfiles ? c->files[0] : "-", &lg, g);
	}
	if (o->play)
		play_person(cx, g, &lg, o->play);
	if (o->has_vs) {
		while (g->end == CHAIN_RUNNING) {
			bool mine = (chain_mover(g) == 2) == o->second;
			play_one(cx, g, mine ? &o->me : &o->vs, mine && cx->trace, lg.game, &lg);
		}
	} else {
		for (int64_t m = 0; m < o->moves && g->end == CHAIN_RUNNING; m++)
			play_one(cx, g, &o->me, cx->trace != NULL, lg.game, &lg);
	}
	output *out = output_open(c->out.path, &c->out.opts);
	log_write(&lg, out);
	log_free(&lg);
	output_close(out);
}

int chainrun_main(chainrun_opts *o)
{
	runctx cx = {.o = o, .seed = o->common.seed};
	dict *d = dict_load(o->dict_path);
	cx.d = d;
	if (o->lose_tail)
		set_lose_tail(&cx, o->lose_tail);
	cx.zobrist = chain_zobrist(d);
	cx.search = chain_search_new(d, &o->rules);
	if (o->trace_path) {
		cx.trace = output_open(o->trace_path, &o->common.out.opts);
		static const char *const th[] = {"game", "turn", "player", "word", "points", "value", "chosen"};
		output_row(cx.trace, th, 7);
	}
	chain_game g;
	chain_init(&g, d, &o->rules, cx.zobrist);
	if (o->starts)
		tournament(&cx, &g);
	else
		one_game(&cx, &g);
	if (cx.trace)
		output_close(cx.trace);
	chain_free(&g);
	chain_search_free(cx.search);
	free(cx.candidates.c);
	free(cx.zobrist);
	free(o->rules.lose_tail);
	dict_free(d);
	return 0;
}
