#include "core/progress.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"

/* The first line after FIRST seconds, then one every EVERY. */
static const double FIRST = 0.5, EVERY = 0.25;

void progress_format_rate(double x, char *buf, int n)
{
	static const char *const suffix[] = {"", "k", "M", "G"};
	int k = 0;
	/* 999.5 would print as 1e+03 with %.3g: it is 1.00k. */
	while (k < 3 && x >= 999.5) {
		x /= 1000;
		k++;
	}
	snprintf(buf, (size_t)n, "%.3g%s", x, suffix[k]);
}

void progress_format_time(double s, char *buf, int n)
{
	long t = s < 0 ? 0 : s > 359999999 ? 359999999 : (long)(s + 0.5);
	if (t >= 3600)
		snprintf(buf, (size_t)n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, (size_t)n, "%ld:%02ld", t / 60, t % 60);
}

void progress_start(progress *p, bool quiet, const char *what, uint64_t total)
{
	*p = (progress){.what = what, .total = total, .fd = -1};
	p->tty = !quiet && isatty(STDERR_FILENO);
	const char *file = getenv("YOMI_PROGRESS");
	if (file && *file) {
		p->fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (p->fd < 0)
			warn("YOMI_PROGRESS: cannot write %s: %s", file, strerror(errno));
	}
	p->on = p->tty || p->fd >= 0;
	p->start = util_seconds(true);
	p->next = p->start + FIRST;
}

/* The counts for a pipeline: one line of fixed width, rewritten in place. */
static void write_file(progress *p, uint64_t done, double t)
{
	char line[80];
	int n = snprintf(line, sizeof line, "%20llu %20llu %14.3f\n", (unsigned long long)done,
			 (unsigned long long)p->total, t - p->start);
	if (pwrite(p->fd, line, (size_t)n, 0) != n) {
		close(p->fd);
		p->fd = -1;
		p->on = p->tty;
	}
}

void progress_update(progress *p, uint64_t done)
{
	double t = util_seconds(true);
	if (t < p->next)
		return;
	p->next = t + EVERY;
	if (p->fd >= 0)
		write_file(p, done, t);
	if (!p->tty)
		return;
	double secs = t - p->start, rate = secs > 0 ? (double)done / secs : 0;
	char r[16], left[24];
	progress_format_rate(rate, r, sizeof r);
	if (p->total) {
		uint64_t todo = done < p->total ? p->total - done : 0;
		if (rate > 0)
			progress_format_time((double)todo / rate, left, sizeof left);
		else
			strcpy(left, "?");
		fprintf(stderr, "\r%s: %llu of %llu %s (%d%%), %s/s, %s left\033[K", util_progname,
			(unsigned long long)done, (unsigned long long)p->total, p->what,
			(int)(100.0 * (double)done / (double)p->total), r, left);
	} else {
		fprintf(stderr, "\r%s: %llu %s, %s/s\033[K", util_progname, (unsigned long long)done,
			p->what, r);
	}
	p->shown = util_line_open = true;
}

void progress_end(progress *p, uint64_t done)
{
	if (!p->on)
		return;
	double t = util_seconds(true);
	if (p->fd >= 0) {
		write_file(p, done, t);
		close(p->fd);
		p->fd = -1;
	}
	if (p->shown) {
		double secs = t - p->start;
		char r[16], took[24];
		progress_format_rate(secs > 0 ? (double)done / secs : 0, r, sizeof r);
		if (secs < 60)
			snprintf(took, sizeof took, "%.2f s", secs);
		else
			progress_format_time(secs, took, sizeof took);
		fprintf(stderr, "\r%s: %llu %s in %s, %s/s\033[K\n", util_progname,
			(unsigned long long)done, p->what, took, r);
		util_line_open = false;
	}
	p->on = false;
}
