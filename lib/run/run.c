#include "run/run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/output.h"
#include "core/util.h"

FILE *run_drawing_open(run_drawing *d, const run_opts *o)
{
	*d = (run_drawing){.f = stdout};
	if (o->out.path && (d->f = open_memstream(&d->buf, &d->len)) == NULL)
		die("cannot draw: %s", strerror(errno));
	return d->f;
}

void run_drawing_close(run_drawing *d, const run_opts *o)
{
	if (d->f == stdout) {
		util_flush_stdout();
		return;
	}
	if (fclose(d->f) != 0)
		die("cannot draw: %s", strerror(errno));
	output *out = output_open(o->out.path, &o->out.opts);
	output_text(out, d->buf, d->len);
	output_close(out);
	free(d->buf);
}
