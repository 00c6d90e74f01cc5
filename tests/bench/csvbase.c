/* Bench baseline: libcsv alone, fed 1 MiB blocks by fread, counting fields
 * and rows in its callbacks; the upper bound for lib/table's speed. */
#include <csv.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long rows, bytes;

static void on_field(void *s, size_t len, void *data)
{
	(void)s, (void)data;
	bytes += len;
}

static void on_row(int c, void *data)
{
	(void)c, (void)data;
	rows++;
}

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return 1;
	struct csv_parser p;
	csv_init(&p, CSV_STRICT | CSV_APPEND_NULL);
	static char buf[1 << 20];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		if (csv_parse(&p, buf, n, on_field, on_row, NULL) != n)
			return 1;
	csv_fini(&p, on_field, on_row, NULL);
	csv_free(&p);
	fclose(f);
	printf("%lu rows, %lu field bytes\n", rows, bytes);
	return 0;
}
