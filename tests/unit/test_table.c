/* Table reading and writing edge cases. */
#include <dirent.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "core/output.h"
#include "core/table.h"
#include "unit.h"
#include "core/util.h"

static char dir[] = "/tmp/yomi-unit-XXXXXX";

static const char *write_file(const char *name, const char *data, size_t n)
{
	static char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	fwrite(data, 1, n, f);
	fclose(f);
	return path;
}

static char *slurp(const char *path, size_t *n)
{
	gzFile g = gzopen(path, "rb");
	size_t cap = 1 << 20;
	char *b = malloc(cap);
	int got = gzread(g, b, (unsigned)cap - 1);
	gzclose(g);
	b[got < 0 ? 0 : got] = '\0';
	if (n)
		*n = got < 0 ? 0 : (size_t)got;
	return b;
}

/* All rows as "line:f1|f2|...;" so one string comparison checks fields,
 * field boundaries and start lines together. */
static char *dump(const char *path)
{
	static char out[1 << 16];
	table *t = table_open(path, NULL);
	size_t n = 0;
	n += (size_t)snprintf(out + n, sizeof out - n, "[%c]", table_delim(t) == '\t' ? 'T' : 'C');
	for (size_t i = 0; i < table_ncols(t); i++)
		n += (size_t)snprintf(out + n, sizeof out - n, "%s%s", i ? "|" : "", table_colname(t, i));
	n += (size_t)snprintf(out + n, sizeof out - n, ";");
	while (table_read_row(t)) {
		n += (size_t)snprintf(out + n, sizeof out - n, "%ld:", table_line(t));
		for (size_t i = 0; i < table_nfields(t); i++)
			n += (size_t)snprintf(out + n, sizeof out - n, "%s%s", i ? "|" : "",
					      table_field(t, i));
		n += (size_t)snprintf(out + n, sizeof out - n, ";");
	}
	table_close(t);
	return out;
}

#define DUMP(name, lit) dump(write_file(name, lit, sizeof lit - 1))

/* Runs table reading in a child; returns "STATUS:stderr". */
static char *die_msg(const char *path)
{
	static char msg[512];
	char errpath[256];
	snprintf(errpath, sizeof errpath, "%s/stderr", dir);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		freopen(errpath, "w", stderr);
		table *t = table_open(path, NULL);
		while (table_read_row(t))
			;
		exit(0);
	}
	int status;
	waitpid(pid, &status, 0);
	char *e = slurp(errpath, NULL);
	snprintf(msg, sizeof msg, "%d:%s", WEXITSTATUS(status), e);
	free(e);
	return msg;
}

#define DIES(name, lit) die_msg(write_file(name, lit, sizeof lit - 1))

/* The output's temporaries in the test directory: NAME.tmpXXXXXX. */
static int temporaries(void)
{
	DIR *dp = opendir(dir);
	int n = 0;
	for (struct dirent *e; dp && (e = readdir(dp));)
		n += strstr(e->d_name, ".tmp") != NULL;
	if (dp)
		closedir(dp);
	return n;
}

static void test_plain_csv(void)
{
	CHECK_STR(DUMP("a.csv", "a,b\n1,2\n3,4\n"), "[C]a|b;2:1|2;3:3|4;", "plain CSV");
	CHECK_STR(DUMP("i.csv", "a,b,c\n,,\n"), "[C]a|b|c;2:||;", "empty fields");
}

static void test_line_endings_and_bom(void)
{
	CHECK_STR(DUMP("b.csv", "a,b\n1,2"), "[C]a|b;2:1|2;", "no final newline");
	CHECK_STR(DUMP("c.csv", "a,b\r\n1,2\r\n"), "[C]a|b;2:1|2;", "CRLF");
	CHECK_STR(DUMP("d.csv", "\xEF\xBB\xBF" "a,b\n1,2\n"), "[C]a|b;2:1|2;", "BOM stripped");
	CHECK_STR(DUMP("m.csv", "a,b\r1,2\r"), "[C]a|b;2:1|2;", "a lone CR ends rows and lines");
	CHECK_STR(DUMP("m2.csv", "a,b\r\r\n1,2\r\n\r3,4\n"), "[C]a|b;3:1|2;5:3|4;",
		  "lone CRs, CRLFs and LFs mixed: each ends one line");
	CHECK_STR(DUMP("m3.csv", "a,b\n\"x\ry\",1\n2,3\n"), "[C]a|b;2:x\ry|1;4:2|3;",
		  "a lone CR in a quoted field ends a line too");
}

static void test_blank_lines_skipped_and_counted(void)
{
	CHECK_STR(DUMP("g.csv", "a,b\n\n1,2\n\n\n3,4\n"), "[C]a|b;3:1|2;6:3|4;",
		  "blank lines skipped, counted");
	CHECK_STR(DUMP("k.csv", "\n\na,b\n1,2\n"), "[C]a|b;4:1|2;", "leading blank lines");
}

static void test_quoted_fields(void)
{
	CHECK_STR(DUMP("e.csv", "a,b\n\"x,y\",\"say \"\"hi\"\"\"\n"), "[C]a|b;2:x,y|say \"hi\";",
		  "quoted comma and doubled quotes");
	CHECK_STR(DUMP("f.csv", "a,b\n\"two\nlines\",1\n\"x\",2\n"), "[C]a|b;2:two\nlines|1;4:x|2;",
		  "embedded newline keeps later line numbers");
	CHECK_STR(DUMP("l.csv", "a\n\"\"\n"), "[C]a;2:;", "quoted empty field");
}

static void test_blanks_around_fields_are_data(void)
{
	CHECK_STR(DUMP("h.csv", "a,b\n , x \n"), "[C]a|b;2: | x ;", "spaces are data");
	CHECK_STR(DUMP("i2.csv", "a,b\n\tx,y\t\n"), "[C]a|b;2:\tx|y\t;", "tabs around CSV fields are data");
	CHECK_STR(DUMP("i3.tsv", "a\tb\n x \t y\n"), "[T]a|b;2: x | y;", "spaces around TSV fields are data");
}

static void test_tsv_detected(void)
{
	CHECK_STR(DUMP("j.tsv", "a\tb\n1,5\t2\n"), "[T]a|b;2:1,5|2;", "TSV detected");
}

static void test_long_field_read_whole(void)
{
	/* A 3 MB field crosses every internal buffer boundary. */
	size_t big = 3u << 20;
	char *data = malloc(big + 32);
	memcpy(data, "w,n\n\"", 5);
	for (size_t i = 0; i < big; i++)
		data[5 + i] = (char)('a' + i % 26);
	memcpy(data + 5 + big, "\",7\nx,8\n", 8);
	table *t = table_open(write_file("big.csv", data, big + 13), NULL);
	CHECK(table_read_row(t) && table_field_len(t, 0) == big && table_field(t, 0)[big - 1] ==
		      (char)('a' + (big - 1) % 26) && strcmp(table_field(t, 1), "7") == 0,
	      "3 MB field read whole");
	CHECK(table_read_row(t) && table_line(t) == 3 && strcmp(table_field(t, 0), "x") == 0,
	      "row after the long field");
	table_close(t);
	free(data);
}

static void test_start_lines_across_pieces(void)
{
	/* Line numbers across input pieces: rows of varying length, some
	 * with quoted newlines, some CRLF, some blank lines between. */
	size_t cap = 4u << 20, n = 0;
	char *buf = malloc(cap);
	long *want_line = malloc(40000 * sizeof *want_line);
	long line = 1;
	n += (size_t)sprintf(buf + n, "id,text\n");
	line++;
	for (int i = 0; i < 40000; i++) {
		want_line[i] = line;
		if (i % 97 == 0) { /* a quoted field over 1-3 lines */
			int k = i % 3;
			n += (size_t)sprintf(buf + n, "%d,\"a", i);
			for (int j = 0; j < k; j++)
				n += (size_t)sprintf(buf + n, "\n\"\"x%d", j);
			n += (size_t)sprintf(buf + n, "\"\n");
			line += k + 1;
		} else if (i % 13 == 0) {
			n += (size_t)sprintf(buf + n, "%d,crlf\r\n", i);
			line++;
		} else {
			n += (size_t)sprintf(buf + n, "%d,%.*s\n", i, i % 50, "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz");
			line++;
		}
		if (i % 101 == 0) {
			n += (size_t)sprintf(buf + n, "\n");
			line++;
		}
	}
	table *t = table_open(write_file("lines.csv", buf, n), NULL);
	int i = 0, bad = 0;
	while (table_read_row(t)) {
		if (i < 40000 && (table_line(t) != want_line[i] || atoi(table_field(t, 0)) != i))
			bad++;
		i++;
	}
	table_close(t);
	CHECK(i == 40000 && bad == 0, "40000 rows over many pieces keep exact start lines (%d wrong)", bad);
	free(buf);
	free(want_line);
}

/* Row I of the plain rows test: its fields joined by '|', and whether it
 * is written quoted or with CRLF, which sends its piece through libcsv. */
static int plain_row(int i, char *fields, char *line)
{
	static const char text[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	int k = i % 45; /* fields of 0 to 44 bytes: copied short and long */
	const char *end = i % 1500 == 7 ? "\r\n" : "\n";
	if (i % 2000 == 3) {
		sprintf(fields, "%d|%.*s|q,x|", i, k, text);
		return sprintf(line, "%d,%.*s,\"q,x\",%s", i, k, text, end);
	}
	sprintf(fields, "%d|%.*s|%s|%s", i, k, text, i % 7 ? "z" : "", i % 5 ? "" : " s ");
	return sprintf(line, "%d,%.*s,%s,%s%s", i, k, text, i % 7 ? "z" : "", i % 5 ? "" : " s ", end);
}

static void test_plain_rows_across_pieces(void)
{
	/* Rows without quotes or CRs are split without libcsv: fields of any
	 * length, empty ones (last too), blanks as data, blank lines, rows
	 * cut by piece ends, and now and then a quoted row or a CRLF that
	 * sends a piece back to libcsv; fields and start lines exact. */
	enum { NR = 60000 };
	size_t cap = 8u << 20, n = 0;
	char *buf = malloc(cap), fields[256];
	long *want_line = malloc(NR * sizeof *want_line), line = 2;
	n += (size_t)sprintf(buf + n, "id,text,q,last\n");
	for (int i = 0; i < NR; i++) {
		want_line[i] = line++;
		n += (size_t)plain_row(i, fields, buf + n);
		for (int b = 0; b < (i % 301 == 0) + (i % 3001 == 0); b++, line++)
			buf[n++] = '\n';
	}
	table *t = table_open(write_file("plain.csv", buf, n), NULL);
	int i = 0, bad = 0;
	char got[256];
	while (table_read_row(t)) {
		size_t g = 0;
		for (size_t f = 0; f < table_nfields(t); f++)
			g += (size_t)snprintf(got + g, sizeof got - g, "%s%s", f ? "|" : "", table_field(t, f));
		plain_row(i, fields, buf);
		if (i >= NR || table_line(t) != want_line[i] || strcmp(got, fields) || table_nfields(t) != 4)
			bad++;
		i++;
	}
	table_close(t);
	CHECK(i == NR && bad == 0, "%d plain rows over many pieces, fields and start lines exact (%d wrong)",
	      i, bad);
	free(buf);
	free(want_line);
}

static void test_gzip_input_by_content(void)
{
	/* gzip input is recognised by content, whatever the name. */
	char gzpath[256];
	snprintf(gzpath, sizeof gzpath, "%s/plain-name.csv", dir);
	gzFile g = gzopen(gzpath, "wb");
	gzputs(g, "a,b\n1,2\n");
	gzclose(g);
	CHECK_STR(dump(gzpath), "[C]a|b;2:1|2;", "gzip input");
}

/* The status and message a table error gives, in a local buffer WANT. */
#define WANT(name, line, text) \
	(snprintf(want, sizeof want, "1:unit: %s/%s:%d: %s\n", dir, name, line, text), want)

static void test_errors_name_file_and_line(void)
{
	/* Errors: exit 1 and FILE:LINE: message. */
	char want[512];
	CHECK_STR(DIES("e1.csv", "a,b\n1,2\n1,2,3\n"), WANT("e1.csv", 3, "expected 2 fields, found 3"),
		  "too many fields");
	CHECK_STR(DIES("e2.csv", "a,b\n1\n"), WANT("e2.csv", 2, "expected 2 fields, found 1"),
		  "too few fields");
	CHECK_STR(DIES("e3.csv", "a,b\n1,2\n\"open,3\n4,5\n"),
		  WANT("e3.csv", 3, "unterminated quoted field"), "unterminated quote");
	CHECK_STR(DIES("e4.csv", "a,b\n1,x\"y\n"),
		  WANT("e4.csv", 2, "malformed quoting: a quote inside an unquoted field or text after a closing quote"),
		  "quote inside unquoted field");
	CHECK_STR(DIES("e5.csv", "a,b\n\"x\"y,2\n"),
		  WANT("e5.csv", 2, "malformed quoting: a quote inside an unquoted field or text after a closing quote"),
		  "text after closing quote");
	CHECK_STR(DIES("e6.csv", "a,b\n1,x\0y\n"), WANT("e6.csv", 2, "NUL byte in a field"), "NUL byte");
	CHECK_STR(DIES("e7.csv", ""), WANT("e7.csv", 1, "empty input, expected a header line"),
		  "empty input");
	CHECK_STR(DIES("e8.csv", "\n\r\n"), WANT("e8.csv", 3, "empty input, expected a header line"),
		  "only blank lines: the line where the input ends");
	/* Deep in plain rows, split without libcsv. */
	size_t cap = 1u << 20, n = 0;
	char *buf = malloc(cap);
	n += (size_t)sprintf(buf + n, "a,b\n");
	for (int i = 0; i < 20000; i++)
		n += (size_t)sprintf(buf + n, i == 15000 ? "%d\n\n" : "%d,x\n", i);
	CHECK_STR(die_msg(write_file("e9.csv", buf, n)), WANT("e9.csv", 15002, "expected 2 fields, found 1"),
		  "too few fields on line 15002 of plain rows");
	free(buf);
}

static void test_header_names(void)
{
	char want[512];
	CHECK_STR(DIES("e9.csv", "a,b,a\n1,2,3\n"), WANT("e9.csv", 1, "column 'a' appears twice (columns 1 and 3)"),
		  "a column named twice");
	CHECK_STR(DUMP("e10.csv", "a,,\n1,2,3\n"), "[C]a||;2:1|2|3;", "empty names may repeat");
	CHECK_STR(DIES("e11.csv", "\xEF\xBB\xBF\xEF\xBB\xBF" "a\n1\n"),
		  WANT("e11.csv", 1, "a second byte order mark after the first"), "two byte order marks");
}

static void test_output_csv_quoting_and_numbers(void)
{
	/* Writing: minimal quoting, numbers. */
	char opath[256];
	snprintf(opath, sizeof opath, "%s/out.csv", dir);
	output *o = output_open(opath, NULL);
	const char *row[] = {"plain", "with,comma", "say \"hi\"", "two\nlines", "", "tab\there"};
	output_row(o, row, 6);
	output_int(o, -42);
	output_double(o, 0.1);
	output_double(o, 1e20);
	output_double(o, 123456.5);
	output_double(o, 2.0 / 3);
	output_double(o, -0.0);
	output_end_row(o);
	const int64_t ints[] = {0, 9, 10, 99, 100, -1234567, INT64_MIN};
	for (size_t k = 0; k < sizeof ints / sizeof *ints; k++)
		output_int(o, ints[k]);
	output_uint(o, UINT64_MAX);
	const char *more[] = {"abcdefghijklmnop", "abcde", "a\rb", "abcdefghijklmnopq\""};
	for (size_t k = 0; k < 4; k++)
		output_field(o, more[k]);
	output_end_row(o);
	output_close(o);
	char *got = slurp(opath, NULL);
	CHECK_STR(got,
		  "plain,\"with,comma\",\"say \"\"hi\"\"\",\"two\nlines\",,tab\there\n"
		  "-42,0.1,1e+20,123456.5,0.6666666666666666,0\n"
		  "0,9,10,99,100,-1234567,-9223372036854775808,18446744073709551615,"
		  "abcdefghijklmnop,abcde,\"a\rb\",\"abcdefghijklmnopq\"\"\"\n",
		  "CSV quoting and numbers");
	free(got);
}

static void test_output_numbers_across_flushes(void)
{
	/* Rows of numbers and short fields past the 64 KB buffer, again and
	 * again, read back as snprintf writes them. */
	char opath[256];
	snprintf(opath, sizeof opath, "%s/many.csv", dir);
	output *o = output_open(opath, NULL);
	size_t cap = 40000 * 48, len = 0;
	char *want = xmalloc(cap);
	for (int64_t i = 0; i < 40000; i++) {
		int64_t v = (i % 7 ? i : -i) * (i % 3 ? 1 : 1000003);
		output_int(o, v);
		output_field(o, i % 2 ? "standard" : "ok");
		output_uint(o, (uint64_t)i * i);
		output_end_row(o);
		len += (size_t)snprintf(want + len, cap - len, "%lld,%s,%llu\n", (long long)v,
					i % 2 ? "standard" : "ok", (unsigned long long)i * (unsigned long long)i);
	}
	output_close(o);
	size_t n;
	char *got = slurp(opath, &n);
	CHECK(n == len && !memcmp(got, want, len), "40,000 rows of numbers across flushes (%zu bytes, want %zu)",
	      n, len);
	free(got);
	free(want);
}

static void test_output_written_to_temporary(void)
{
	/* -o writes to a temporary (unnamed where the system allows, else
	 * NAME.tmpXXXXXX beside the file) that becomes the file at close:
	 * until then the file does not exist, afterwards no temporary does. */
	char opath[256];
	snprintf(opath, sizeof opath, "%s/atomic.csv", dir);
	output *o = output_open(opath, NULL);
	const char *row[] = {"a", "b"};
	output_row(o, row, 2);
	CHECK(access(opath, F_OK) != 0, "nothing visible before close (written to a temporary)");
	output_close(o);
	int tmps = temporaries();
	char *got = slurp(opath, NULL);
	CHECK(tmps == 0 && strcmp(got, "a,b\n") == 0, "no temporary left behind (%d found)", tmps);
	free(got);
}

static void test_output_tsv_gzip(void)
{
	/* TSV and gzip. */
	char opath[256];
	snprintf(opath, sizeof opath, "%s/out.tsv.gz", dir);
	output_opts oo = {.tsv = true};
	output *o = output_open(opath, &oo);
	const char *trow[] = {"a,b", "c\td", "e"};
	output_row(o, trow, 3);
	output_close(o);
	FILE *f = fopen(opath, "rb");
	unsigned char magic[2] = {0, 0};
	if (f) {
		if (fread(magic, 1, 2, f) != 2)
			magic[0] = 0;
		fclose(f);
	}
	CHECK(magic[0] == 0x1F && magic[1] == 0x8B, "a .gz output is gzip");
	char *got = slurp(opath, NULL);
	CHECK_STR(got, "a,b\t\"c\td\"\te\n", "TSV quotes only tabs, quotes and newlines");
	free(got);
}

static void test_written_reads_back_unchanged(void)
{
	/* What the writer writes, the reader reads back unchanged. */
	char opath[256];
	snprintf(opath, sizeof opath, "%s/round.csv", dir);
	output *o = output_open(opath, NULL);
	const char *hdr[] = {"x", "y"};
	output_row(o, hdr, 2);
	const char *r2[] = {"\"quoted\"", "multi\r\nline, with comma"};
	output_row(o, r2, 2);
	output_close(o);
	CHECK_STR(dump(opath), "[C]x|y;2:\"quoted\"|multi\r\nline, with comma;", "round trip");
}

static const unit_test tests[] = {
	UNIT_TEST(plain_csv),
	UNIT_TEST(line_endings_and_bom),
	UNIT_TEST(blank_lines_skipped_and_counted),
	UNIT_TEST(quoted_fields),
	UNIT_TEST(blanks_around_fields_are_data),
	UNIT_TEST(tsv_detected),
	UNIT_TEST(long_field_read_whole),
	UNIT_TEST(start_lines_across_pieces),
	UNIT_TEST(plain_rows_across_pieces),
	UNIT_TEST(gzip_input_by_content),
	UNIT_TEST(errors_name_file_and_line),
	UNIT_TEST(header_names),
	UNIT_TEST(output_csv_quoting_and_numbers),
	UNIT_TEST(output_numbers_across_flushes),
	UNIT_TEST(output_written_to_temporary),
	UNIT_TEST(output_tsv_gzip),
	UNIT_TEST(written_reads_back_unchanged),
};

int main(int argc, char **argv)
{
	util_init("unit");
	if (!mkdtemp(dir))
		return 1;
	int status = UNIT_MAIN(tests, argc, argv);
	char rm[256];
	snprintf(rm, sizeof rm, "rm -rf %s", dir);
	if (system(rm) != 0)
		fprintf(stderr, "%s: cannot remove %s\n", argv[0], dir);
	return status;
}
