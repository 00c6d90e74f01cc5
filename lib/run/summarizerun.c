#include "run/summarizerun.h"

#include "core/output.h"

int summarizerun_main(summarizerun_opts *o)
{
	static char *const std_in[] = {"-"};
	char *const *files = o->common.nfiles ? o->common.files : std_in;
	int nfiles = o->common.nfiles ? o->common.nfiles : 1;
	summary *s = summary_new(&o->summary);
	for (int i = 0; i < nfiles; i++) {
		if (o->merge)
			summary_merge_table(s, files[i]);
		else
			summary_add_table(s, files[i]);
	}
	output *out = output_open(o->common.out.path, &o->common.out.opts);
	summary_write(s, out);
	output_close(out);
	summary_free(s);
	return 0;
}
