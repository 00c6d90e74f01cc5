#include "calc/calcrows.h"

#include "core/util.h"

void calcrows_open(calcrows *r, const char *path)
{
	r->t = table_open(path, NULL);
	r->game = table_need_col(r->t, "game");
	r->deck = table_need_col(r->t, "deck");
	r->moves = table_need_col(r->t, "moves");
	r->variant = table_col(r->t, "variant");
}

bool calcrows_read(calcrows *r)
{
	return table_read_row(r->t);
}

const char *calcrows_field(const calcrows *r, int col)
{
	return table_field(r->t, (size_t)col);
}

int calcrows_replay(const calcrows *r, calc_state *hist, int *played, int max)
{
	const table *t = r->t;
	calc_state s;
	const char *err = calc_deal_text(&s, r->variant >= 0 ? calcrows_field(r, r->variant) : NULL,
					 calcrows_field(r, r->deck));
	if (err)
		die_at(table_name(t), table_line(t), "%s", err);
	int n = calc_replay(&s, calcrows_field(r, r->moves), max, hist, played);
	if (n == -(max + 1))
		die_at(table_name(t), table_line(t), "more than %d moves", max);
	if (n < 0)
		die_at(table_name(t), table_line(t), "move %d is not legal there", -n);
	return n;
}

void calcrows_close(calcrows *r)
{
	table_close(r->t);
	r->t = NULL;
}
