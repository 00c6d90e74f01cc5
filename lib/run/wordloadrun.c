#include "run/wordloadrun.h"

#include <stdio.h>

#include "core/output.h"
#include "core/util.h"

static void report(const lexicon_stats *st)
{
	const struct {
		const char *what;
		long n;
	} lines[] = {
		{"lines read", st->lines},
		{"words found", st->words},
		{"invalid text skipped", st->invalid},
		{"not kana", st->not_kana},
		{"without a letter", st->no_letter},
		{"ending in a digit", st->digit_tail},
		{"shorter than --min-len", st->too_short},
		{"longer than --max-len", st->too_long},
		{"duplicates", st->duplicates},
		{"words written", st->written},
	};
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		fprintf(stderr, "%s: %s: %ld\n", util_progname, lines[i].what, lines[i].n);
}

int wordloadrun_main(wordloadrun_opts *o)
{
	const run_opts *c = &o->common;
	lexicon *lx = lexicon_new(&o->lex);
	if (c->nfiles == 0)
		lexicon_load(lx, "-", o->source);
	for (int i = 0; i < c->nfiles; i++)
		lexicon_load(lx, c->files[i], o->source);
	if (o->verbose)
		report(lexicon_stats_of(lx));
	if (lexicon_count(lx) == 0 && !o->allow_empty) {
		long line;
		const char *file = lexicon_last_file(lx, &line);
		die_at(file, line, "no words left%s", o->verbose ? "" : " (-v tells what each rule dropped)");
	}
	output *out = output_open(c->out.path, &c->out.opts);
	lexicon_write(lx, out);
	output_close(out);
	lexicon_free(lx);
	return 0;
}
