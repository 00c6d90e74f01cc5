#include "core/strmap.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

struct strmap {
	uint32_t *slots; /* id + 1; 0 is empty */
	size_t nslots;
	size_t *off; /* key id starts at arena + off[id]; off[count] is the end */
	uint64_t *hash;
	size_t count, cap;
	char *arena;
	size_t alen, acap;
};

uint64_t strmap_hash(const char *s, size_t n)
{
	/* FNV-1a, then a splitmix finaliser so the low bits used for the slot
	 * index depend on every byte. */
	uint64_t h = 0xCBF29CE484222325u;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001B3u;
	}
	h ^= h >> 31;
	h *= 0x9E3779B97F4A7C15u;
	return h ^ (h >> 29);
}

strmap *strmap_new(void)
{
	strmap *m = xcalloc(1, sizeof *m);
	m->nslots = 64;
	m->slots = xcalloc(m->nslots, sizeof *m->slots);
	m->off = xmalloc(sizeof *m->off);
	m->off[0] = 0;
	m->cap = 0;
	return m;
}

static size_t probe(const strmap *m, const char *s, size_t n, uint64_t h)
{
	size_t mask = m->nslots - 1, i = (size_t)h & mask;
	for (;;) {
		uint32_t v = m->slots[i];
		if (!v)
			return i;
		uint32_t id = v - 1;
		if (m->hash[id] == h && m->off[id + 1] - m->off[id] - 1 == n &&
		    memcmp(m->arena + m->off[id], s, n) == 0)
			return i;
		i = (i + 1) & mask;
	}
}

int64_t strmap_find(const strmap *m, const char *s, size_t n)
{
	if (!m->count)
		return -1;
	uint32_t v = m->slots[probe(m, s, n, strmap_hash(s, n))];
	return v ? (int64_t)v - 1 : -1;
}

static void rehash(strmap *m)
{
	free(m->slots);
	m->nslots *= 2;
	m->slots = xcalloc(m->nslots, sizeof *m->slots);
	size_t mask = m->nslots - 1;
	for (size_t id = 0; id < m->count; id++) {
		size_t i = (size_t)m->hash[id] & mask;
		while (m->slots[i])
			i = (i + 1) & mask;
		m->slots[i] = (uint32_t)id + 1;
	}
}

uint32_t strmap_intern(strmap *m, const char *s, size_t n, bool *added)
{
	uint64_t h = strmap_hash(s, n);
	size_t i = probe(m, s, n, h);
	if (m->slots[i]) {
		if (added)
			*added = false;
		return m->slots[i] - 1;
	}
	if (m->count >= UINT32_MAX - 1)
		die("too many distinct strings");
	size_t id = m->count;
	size_t cap = m->cap;
	util_grow((void **)&m->hash, &m->cap, id + 1, sizeof *m->hash);
	if (m->cap != cap)
		m->off = xrealloc(m->off, (m->cap + 1) * sizeof *m->off);
	util_grow((void **)&m->arena, &m->acap, m->alen + n + 1, 1);
	memcpy(m->arena + m->alen, s, n);
	m->arena[m->alen + n] = '\0';
	m->alen += n + 1;
	m->hash[id] = h;
	m->off[id + 1] = m->alen;
	m->count++;
	m->slots[i] = (uint32_t)id + 1;
	if (m->count * 4 > m->nslots * 3) /* keep load under 3/4 */
		rehash(m);
	if (added)
		*added = true;
	return (uint32_t)id;
}

size_t strmap_count(const strmap *m)
{
	return m->count;
}

const char *strmap_key(const strmap *m, uint32_t id)
{
	return m->arena + m->off[id];
}

size_t strmap_key_len(const strmap *m, uint32_t id)
{
	return m->off[id + 1] - m->off[id] - 1;
}

void strmap_free(strmap *m)
{
	if (!m)
		return;
	free(m->slots);
	free(m->off);
	free(m->hash);
	free(m->arena);
	free(m);
}
