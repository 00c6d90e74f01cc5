#include "run/summarizerun.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/input.h"
#include "core/output.h"
#include "core/table.h"
#include "core/util.h"

/* Without -j, a file is split only when each thread gets this much: below
 * it the threads cost more than they save. */
#define MIN_SPLIT ((int64_t)8 << 20)

int summarizerun_cores(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

/* One thread's part of a file: the rows in bytes [start, end). */
typedef struct {
	const summary_opts *opts;
	const char *path;
	int64_t start, end;
	bool last;
	bool died, clean, exact; /* what became of it */
	summary *s;
} part;

static void *add_part(void *arg)
{
	part *p = arg;
	jmp_buf trap;
	p->died = true;
	p->s = summary_new(p->opts);
	/* An error in a part (bad data, a cut inside a record) ends only the
	 * part: the file is then read again on one thread, which reports it
	 * exactly as a plain run would. */
	if (setjmp(trap) == 0) {
		util_die_trap = &trap;
		p->clean = summary_add_range(p->s, p->path, p->start, p->end, p->last);
		p->exact = summary_exact(p->s);
		p->died = false;
	}
	util_die_trap = NULL;
	return NULL;
}

/* The first record start at or after AT: past the next line end (LF, or a
 * CR not followed by LF), or the end of the file. Quoted line ends are
 * not known here; a cut inside a quoted field shows as a part that does
 * not end cleanly (table_range_clean). With PARITY >= 0, the quotes
 * before AT are known to be even (0) or odd (1) in number, and only line
 * ends outside quotes count. */
static int64_t record_start(int fd, int64_t at, int64_t size, int parity)
{
	char buf[4096];
	int in_quotes = parity > 0;
	while (at < size) {
		ssize_t n = pread(fd, buf, sizeof buf, (off_t)at);
		if (n <= 0)
			return size;
		for (ssize_t i = 0; i < n; i++) {
			char c = buf[i];
			if (c == '"' && parity >= 0)
				in_quotes = !in_quotes;
			else if (!in_quotes && c == '\n')
				return at + i + 1;
			else if (!in_quotes && c == '\r') {
				char next;
				if (i + 1 < n)
					next = buf[i + 1];
				else if (pread(fd, &next, 1, (off_t)(at + i + 1)) != 1)
					return at + i + 1;
				if (next != '\n')
					return at + i + 1;
			}
		}
		at += n;
	}
	return size;
}

/* Quotes in bytes [FROM, TO), modulo 2. */
static int quote_parity(int fd, int64_t from, int64_t to)
{
	static char buf[1 << 16];
	int parity = 0;
	while (from < to) {
		size_t want = (size_t)(to - from < (int64_t)sizeof buf ? to - from : (int64_t)sizeof buf);
		ssize_t n = pread(fd, buf, want, (off_t)from);
		if (n <= 0)
			break;
		for (const char *p = buf, *e = buf + n; (p = memchr(p, '"', (size_t)(e - p))); p++)
			parity ^= 1;
		from += n;
	}
	return parity;
}

/* Cuts [DATA, SIZE) into N parts at record starts into CUT[0..N]; with
 * EXACT, by the parity of the quotes before each cut. */
static void plan(int fd, int64_t data, int64_t size, int n, bool exact, int64_t *cut)
{
	cut[0] = data;
	cut[n] = size;
	int parity = 0;
	int64_t counted = data;
	for (int k = 1; k < n; k++) {
		int64_t at = data + (size - data) / n * k;
		if (at < cut[k - 1])
			at = cut[k - 1];
		if (exact) {
			parity ^= quote_parity(fd, counted, at);
			counted = at;
		}
		cut[k] = record_start(fd, at, size, exact ? parity : -1);
	}
}

enum { SPLIT_DONE, SPLIT_RECUT, SPLIT_NOT };

/* Adds PATH on N threads if it is a plain file that can be cut: returns
 * SPLIT_DONE; SPLIT_RECUT (nothing added) if a part was cut inside a
 * record, SPLIT_NOT (nothing added) if the file cannot be split or a part
 * found an error or an inexact sum. */
static int add_split(summary *s, const summarizerun_opts *o, const char *path, int n, bool exact)
{
	int64_t data = -1, size = 0;
	struct stat st;
	/* Only a plain file can be read twice: a FIFO's rows are read once. */
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return SPLIT_NOT;
	table *t = table_open(path, &(table_opts){.delim = o->summary.delim});
	data = table_data_offset(t);
	table_close(t);
	int fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) != 0 || data < 0) {
		if (fd >= 0)
			close(fd);
		return SPLIT_NOT;
	}
	size = (int64_t)st.st_size;
	if (!o->jobs && (size - data) / n < MIN_SPLIT) {
		close(fd);
		return SPLIT_NOT;
	}
	int64_t *cut = xmalloc((size_t)(n + 1) * sizeof *cut);
	plan(fd, data, size, n, exact, cut);
	close(fd);
	part *parts = xcalloc((size_t)n, sizeof *parts);
	summary_opts quiet = o->summary; /* progress is not for threads */
	quiet.quiet = true;
	pthread_t *tid = xcalloc((size_t)n, sizeof *tid);
	for (int k = 0; k < n; k++) {
		parts[k] = (part){&quiet, path, cut[k], cut[k + 1], k == n - 1, true, false, false, NULL};
		if (k > 0 && pthread_create(&tid[k], NULL, add_part, &parts[k]) != 0)
			die("cannot start a thread: %s", strerror(errno));
	}
	add_part(&parts[0]);
	int how = SPLIT_DONE;
	for (int k = 0; k < n; k++) {
		if (k > 0)
			pthread_join(tid[k], NULL);
		if (parts[k].died || !parts[k].exact)
			how = SPLIT_NOT;
		else if (!parts[k].clean && how == SPLIT_DONE)
			how = SPLIT_RECUT;
	}
	/* The parts into the first, then into S, only while every sum stays
	 * exact: otherwise one thread's output is not what the merge gives. */
	for (int k = 1; k < n && how == SPLIT_DONE; k++) {
		if (summary_absorbs_exactly(parts[0].s, parts[k].s))
			summary_absorb(parts[0].s, parts[k].s);
		else
			how = SPLIT_NOT;
	}
	if (how == SPLIT_DONE && !summary_absorbs_exactly(s, parts[0].s))
		how = SPLIT_NOT;
	if (how == SPLIT_DONE)
		summary_absorb(s, parts[0].s);
	for (int k = 0; k < n; k++)
		summary_free(parts[k].s);
	free(parts);
	free(tid);
	free(cut);
	return how;
}

int summarizerun_main(summarizerun_opts *o)
{
	static char *const std_in[] = {"-"};
	char *const *files = o->common.nfiles ? o->common.files : std_in;
	int nfiles = o->common.nfiles ? o->common.nfiles : 1;
	/* Reading a pipe, it leaves progress to the program that writes it:
	 * two lines on one terminal would fight. */
	struct stat st;
	bool piped = fstat(STDIN_FILENO, &st) == 0 && S_ISFIFO(st.st_mode);
	for (int i = 0; i < nfiles; i++)
		o->summary.quiet |= piped && strcmp(files[i], "-") == 0;
	o->summary.quiet |= o->common.out.quiet;
	int jobs = o->jobs ? o->jobs : summarizerun_cores();
	summary *s = summary_new(&o->summary);
	/* gzip and pipes: one thread inflates (or reads) while one parses. */
	input_set_prefetch(jobs > 1);
	for (int i = 0; i < nfiles; i++) {
		if (o->merge) {
			summary_merge_table(s, files[i]);
			continue;
		}
		/* Parts merge exactly into a summary whose sums are exact; cut
		 * at line ends first, then by quote parity, else one thread. */
		int how = SPLIT_NOT;
		if (jobs > 1 && strcmp(files[i], "-") != 0 && summary_exact(s))
			how = add_split(s, o, files[i], jobs, false);
		if (how == SPLIT_RECUT)
			how = add_split(s, o, files[i], jobs, true);
		if (how != SPLIT_DONE)
			summary_add_table(s, files[i]);
	}
	output *out = output_open(o->common.out.path, &o->common.out.opts);
	output_set_decimals(out, o->summary.round);
	summary_write(s, out);
	output_close(out);
	summary_free(s);
	return 0;
}
