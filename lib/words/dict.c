#include "words/dict.h"

#include <stdlib.h>
#include <string.h>

#include "core/table.h"
#include "core/utf8.h"
#include "core/util.h"

static const dict *sort_dict; /* qsort has no context argument */

static int by_class_then_len(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const dict *d = sort_dict;
	if (d->cls[x] != d->cls[y])
		return d->cls[x] < d->cls[y] ? -1 : 1;
	if (d->len[x] != d->len[y])
		return d->len[x] > d->len[y] ? -1 : 1;
	return x < y ? -1 : (x > y);
}

static int by_head(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const dict *d = sort_dict;
	if (d->chead[x] != d->chead[y])
		return d->chead[x] < d->chead[y] ? -1 : 1;
	return x < y ? -1 : (x > y);
}

/* A grouped index of N items: the items sorted by CMP (which orders by
 * group first), and in *START the offset of each of the NGROUPS groups
 * (GROUP_OF[i] is item i's group), with (*START)[ngroups] = n. */
static uint32_t *group_index(uint32_t n, const uint32_t *group_of, uint32_t ngroups,
			     int (*cmp)(const void *, const void *), uint32_t **start)
{
	uint32_t *items = xmalloc((n ? n : 1) * sizeof *items);
	for (uint32_t i = 0; i < n; i++)
		items[i] = i;
	qsort(items, n, sizeof *items, cmp);
	uint32_t *st = xcalloc((size_t)ngroups + 1, sizeof *st);
	for (uint32_t i = 0; i < n; i++)
		st[group_of[i] + 1]++;
	for (uint32_t g = 0; g < ngroups; g++)
		st[g + 1] += st[g];
	*start = st;
	return items;
}

/* Positions of the words in cwords, and the groups of equal length. */
static void index_groups(dict *d)
{
	d->pos = xmalloc(d->nwords * sizeof *d->pos);
	d->grp = xmalloc(d->nwords * sizeof *d->grp);
	d->cgroup = xmalloc(((size_t)d->nclasses + 1) * sizeof *d->cgroup);
	d->gstart = xmalloc(((size_t)d->nwords + 1) * sizeof *d->gstart);
	uint32_t ng = 0;
	for (uint32_t c = 0; c < d->nclasses; c++) {
		d->cgroup[c] = ng;
		for (uint32_t i = d->cstart[c]; i < d->cstart[c + 1]; i++) {
			uint32_t w = d->cwords[i];
			if (i == d->cstart[c] || d->len[w] != d->len[d->cwords[i - 1]])
				d->gstart[ng++] = i;
			d->pos[w] = i;
			d->grp[w] = ng - 1;
		}
	}
	d->cgroup[d->nclasses] = ng;
	d->gstart[ng] = d->nwords;
	d->ngroups = ng;
}

dict *dict_load(const char *path)
{
	table *t = table_open(path, NULL);
	int cw = table_need_col(t, "word"), ch = table_need_col(t, "head");
	int ct = table_need_col(t, "tail"), cl = table_need_col(t, "len");
	dict *d = xcalloc(1, sizeof *d);
	d->words = strmap_new();
	d->keys = strmap_new();
	strmap *classes = strmap_new(); /* "head\0tail" pairs as ids */
	size_t cap = 0;
	while (table_read_row(t)) {
		long line = table_line(t);
		const char *w = table_field(t, (size_t)cw);
		size_t wn = table_field_len(t, (size_t)cw);
		if (wn == 0)
			die_at(path, line, "empty word");
		for (int c = 0; c < 3; c++) {
			size_t col = (size_t)(c == 0 ? cw : c == 1 ? ch : ct);
			table_need_utf8(t, col);
		}
		if (table_field_len(t, (size_t)ch) == 0 || table_field_len(t, (size_t)ct) == 0)
			die_at(path, line, "empty head or tail key for '%s'", w);
		int64_t len;
		if (!util_parse_i64(table_field(t, (size_t)cl), 0, DICT_MAX_LEN, &len))
			die_at(path, line, "column 'len': '%s' is not an integer from 0 to %d",
			       table_field(t, (size_t)cl), DICT_MAX_LEN);
		bool added;
		uint32_t id = strmap_intern(d->words, w, wn, &added);
		if (!added)
			die_at(path, line, "duplicate word '%s'", w);
		if (id + 1 > cap) {
			util_grow((void **)&d->len, &cap, id + 1, sizeof *d->len);
			d->head = xrealloc(d->head, cap * sizeof *d->head);
			d->tail = xrealloc(d->tail, cap * sizeof *d->tail);
			d->cls = xrealloc(d->cls, cap * sizeof *d->cls);
		}
		d->len[id] = (uint32_t)len;
		d->head[id] = strmap_intern(d->keys, table_field(t, (size_t)ch),
					    table_field_len(t, (size_t)ch), NULL);
		d->tail[id] = strmap_intern(d->keys, table_field(t, (size_t)ct),
					    table_field_len(t, (size_t)ct), NULL);
		uint32_t pair[2] = {d->head[id], d->tail[id]};
		d->cls[id] = strmap_intern(classes, (const char *)pair, sizeof pair, NULL);
	}
	long end = table_end_line(t);
	table_close(t);
	d->nwords = (uint32_t)strmap_count(d->words);
	if (d->nwords == 0)
		die_at(path, end, "the dictionary has no words");
	d->nkeys = (uint32_t)strmap_count(d->keys);
	d->nclasses = (uint32_t)strmap_count(classes);

	d->chead = xmalloc(d->nclasses * sizeof *d->chead);
	d->ctail = xmalloc(d->nclasses * sizeof *d->ctail);
	for (uint32_t c = 0; c < d->nclasses; c++) {
		const uint32_t *pair = (const uint32_t *)(const void *)strmap_key(classes, c);
		uint32_t hp[2];
		memcpy(hp, pair, sizeof hp);
		d->chead[c] = hp[0];
		d->ctail[c] = hp[1];
	}
	strmap_free(classes);

	/* Words grouped by class (longest first), classes grouped by head. */
	sort_dict = d;
	d->cwords = group_index(d->nwords, d->cls, d->nclasses, by_class_then_len, &d->cstart);
	d->hclasses = group_index(d->nclasses, d->chead, d->nkeys + 1, by_head, &d->hstart);
	index_groups(d);
	return d;
}

const char *dict_word(const dict *d, uint32_t w)
{
	return strmap_key(d->words, w);
}

int64_t dict_find(const dict *d, const char *s)
{
	return strmap_find(d->words, s, strlen(s));
}

int64_t dict_key(const dict *d, const char *s)
{
	return strmap_find(d->keys, s, strlen(s));
}

void dict_free(dict *d)
{
	if (!d)
		return;
	strmap_free(d->words);
	strmap_free(d->keys);
	free(d->len);
	free(d->head);
	free(d->tail);
	free(d->cls);
	free(d->chead);
	free(d->ctail);
	free(d->cstart);
	free(d->cwords);
	free(d->hstart);
	free(d->hclasses);
	free(d->pos);
	free(d->grp);
	free(d->gstart);
	free(d->cgroup);
	free(d);
}
