/* tests/common/test_queryfile.c - the query-file parser: format, malformed lines, xz/gz, wire form.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "queryfile.h"

struct reports {
	unsigned long lines[32];
	char reasons[32][128];
	size_t count;
};

static void test_report(void *ctx, const char *path, unsigned long line, const char *reason)
{
	struct reports *r = ctx;
	if (r->count < 32) {
		r->lines[r->count] = line;
		snprintf(r->reasons[r->count], sizeof(r->reasons[0]), "%s", reason);
	}
	r->count++;
}

static char *test_write_file(const char *suffix, const void *data, size_t len)
{
	char *path = malloc(256);
	snprintf(path, 256, "%s/test_queryfile.%ld.XXXXXX%s",
	         getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (long)getpid(), suffix);
	int fd = mkstemps(path, (int)strlen(suffix));
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
	return path;
}

static const char sample[] = "# a comment\n"
                             "www.example.com.\tA\n"
                             "\n"
                             "  ; another comment\n"
                             "mail.example.org   MX\n"
                             "1.2.0.192.in-addr.arpa.\tptr # trailing comment\n"
                             "_ldap._tcp.example.com.\tSRV\r\n"
                             "odd\\(none\\).\tTYPE65\n"
                             "esc\\046dot\\032space.\tAAAA\n"
                             ".\tA\n"
                             "last.example.\tTXT"; /* no final newline */

static size_t test_read_all(const char *path, char names[][64], uint16_t *types,
                            unsigned long *lines, size_t max)
{
	char err[256];
	struct queryfile *qf = queryfile_open(path, true, NULL, NULL, err, sizeof(err));
	assert_non_null(qf);
	struct queryfile_entry e;
	size_t n = 0;
	int rc;
	while ((rc = queryfile_next(qf, &e)) == 1) {
		assert_true(n < max);
		snprintf(names[n], 64, "%s", e.name);
		types[n] = e.qtype;
		lines[n] = e.line;
		n++;
	}
	assert_int_equal(rc, 0);
	assert_int_equal(queryfile_skipped(qf), 0);
	queryfile_close(qf);
	return n;
}

static void test_plain_format(void **state)
{
	char *path = test_write_file(".txt", sample, strlen(sample));
	char names[16][64];
	uint16_t types[16];
	unsigned long lines[16];
	size_t n = test_read_all(path, names, types, lines, 16);
	assert_int_equal(n, 8);
	assert_string_equal(names[0], "www.example.com.");
	assert_int_equal(types[0], 1);
	assert_int_equal(lines[0], 2);
	assert_string_equal(names[1], "mail.example.org");
	assert_int_equal(types[1], 15);
	assert_int_equal(lines[1], 5);
	assert_int_equal(types[2], 12);
	assert_string_equal(names[3], "_ldap._tcp.example.com.");
	assert_int_equal(types[3], 33);
	assert_string_equal(names[4], "odd\\(none\\).");
	assert_int_equal(types[4], 65);
	assert_string_equal(names[5], "esc\\046dot\\032space.");
	assert_int_equal(types[5], 28);
	assert_string_equal(names[6], ".");
	assert_string_equal(names[7], "last.example.");
	assert_int_equal(types[7], 16);
	assert_int_equal(lines[7], 11);
	unlink(path);
	free(path);
}

static void test_malformed_lines(void **state)
{
	char long_label[80], long_name[400], text[2048];
	memset(long_label, 'a', 64);
	long_label[64] = '\0';
	long_name[0] = '\0';
	for (int i = 0; i < 5; i++)
		strcat(long_name, "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghij1234567890.");
	snprintf(text, sizeof(text),
	         "ok.example.\tA\n"           /* 1 */
	         "bad.example.\tNOSUCHTYPE\n" /* 2 bad type */
	         "%s.example.\tA\n"           /* 3 label > 63 */
	         "%s\tA\n"                    /* 4 name > 255 */
	         "lonely.example.\n"          /* 5 missing type */
	         "a..b.\tA\n"                 /* 6 empty label */
	         "bad\\99x.\tA\n"             /* 7 unparseable escape */
	         "big\\300.\tA\n"             /* 8 escape > 255 */
	         "x.example.\tA\textra\n"     /* 9 extra field */
	         "y.example.\tTYPE70000\n"    /* 10 type out of range */
	         "tail\\\tA\n"                /* 11 escaped blank, then missing type */
	         "fine.example.\tAAAA\n",     /* 12 */
	         long_label, long_name);
	char *path = test_write_file(".txt", text, strlen(text));
	struct reports r = {0};
	char err[256];
	struct queryfile *qf = queryfile_open(path, false, test_report, &r, err, sizeof(err));
	assert_non_null(qf);
	struct queryfile_entry e;
	assert_int_equal(queryfile_next(qf, &e), 1);
	assert_int_equal(e.line, 1);
	assert_int_equal(queryfile_next(qf, &e), 1);
	assert_int_equal(e.line, 12);
	assert_string_equal(e.name, "fine.example.");
	assert_int_equal(queryfile_next(qf, &e), 0);
	assert_int_equal(queryfile_skipped(qf), 10);
	queryfile_close(qf);

	assert_int_equal(r.count, 10);
	unsigned long want_lines[] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
	const char *want_words[] = {"type",   "63",  "too long",       "missing", "empty",
	                            "escape", "255", "after the type", "type",    "missing"};
	for (size_t i = 0; i < 10; i++) {
		assert_int_equal(r.lines[i], want_lines[i]);
		if (!strstr(r.reasons[i], want_words[i]))
			fail_msg("line %lu: reason '%s' lacks '%s'", r.lines[i], r.reasons[i],
			         want_words[i]);
	}

	/* strict: the first malformed line is fatal, with file:line in the error */
	memset(&r, 0, sizeof(r));
	qf = queryfile_open(path, true, test_report, &r, err, sizeof(err));
	assert_non_null(qf);
	assert_int_equal(queryfile_next(qf, &e), 1);
	assert_int_equal(queryfile_next(qf, &e), -1);
	char want[512];
	snprintf(want, sizeof(want), "%s:2: unknown query type", path);
	assert_string_equal(queryfile_error(qf), want);
	assert_int_equal(r.count, 1);
	queryfile_close(qf);
	unlink(path);
	free(path);
}

static void test_compressed_same_as_plain(void **state)
{
	size_t len = strlen(sample);
	/* xz */
	uint8_t xz[4096];
	size_t xz_len = 0;
	assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, (const uint8_t *)sample,
	                                         len, xz, &xz_len, sizeof(xz)),
	                 LZMA_OK);
	/* gzip */
	uint8_t gz[4096];
	z_stream zs = {0};
	assert_int_equal(deflateInit2(&zs, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY),
	                 Z_OK);
	zs.next_in = (Bytef *)sample;
	zs.avail_in = (uInt)len;
	zs.next_out = gz;
	zs.avail_out = sizeof(gz);
	assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
	size_t gz_len = sizeof(gz) - zs.avail_out;
	deflateEnd(&zs);

	/* names end in .txt on purpose: the format is told by content, not by name */
	char *paths[3] = {test_write_file(".txt", sample, len), test_write_file(".xz", xz, xz_len),
	                  test_write_file(".txt", gz, gz_len)};
	char names[3][16][64];
	uint16_t types[3][16];
	unsigned long lines[3][16];
	size_t n[3];
	for (int i = 0; i < 3; i++)
		n[i] = test_read_all(paths[i], names[i], types[i], lines[i], 16);
	for (int i = 1; i < 3; i++) {
		assert_int_equal(n[i], n[0]);
		for (size_t j = 0; j < n[0]; j++) {
			assert_string_equal(names[i][j], names[0][j]);
			assert_int_equal(types[i][j], types[0][j]);
			assert_int_equal(lines[i][j], lines[0][j]);
		}
	}
	/* a truncated xz file is an error, not a silent short read */
	char *trunc = test_write_file(".xz", xz, xz_len - 8);
	char err[256];
	struct queryfile *qf = queryfile_open(trunc, false, NULL, NULL, err, sizeof(err));
	assert_non_null(qf);
	struct queryfile_entry e;
	int rc;
	while ((rc = queryfile_next(qf, &e)) == 1)
		;
	assert_int_equal(rc, -1);
	assert_non_null(strstr(queryfile_error(qf), "xz"));
	queryfile_close(qf);
	unlink(trunc);
	free(trunc);
	for (int i = 0; i < 3; i++) {
		unlink(paths[i]);
		free(paths[i]);
	}
}

static void test_load_and_missing_file(void **state)
{
	char *path = test_write_file(".txt", sample, strlen(sample));
	struct queryfile_set set;
	char err[256];
	assert_true(queryfile_load(path, false, NULL, NULL, &set, err, sizeof(err)));
	assert_int_equal(set.count, 8);
	assert_string_equal(set.queries[7].name, "last.example.");
	assert_int_equal(set.queries[2].qtype, 12);
	queryfile_set_free(&set);
	unlink(path);
	free(path);
	assert_null(queryfile_open("/nonexistent/q.txt", false, NULL, NULL, err, sizeof(err)));
	assert_non_null(strstr(err, "/nonexistent/q.txt: cannot open"));
}

static void test_types(void **state)
{
	uint16_t t;
	assert_true(queryfile_type_parse("aaaa", 4, &t));
	assert_int_equal(t, 28);
	assert_true(queryfile_type_parse("TYPE0", 5, &t));
	assert_int_equal(t, 0);
	assert_true(queryfile_type_parse("type65535", 9, &t));
	assert_int_equal(t, 65535);
	assert_false(queryfile_type_parse("TYPE", 4, &t));
	assert_false(queryfile_type_parse("TYPE65536", 9, &t));
	assert_false(queryfile_type_parse("AAAAA", 5, &t));
	char buf[16];
	queryfile_type_format(65, buf, sizeof(buf));
	assert_string_equal(buf, "HTTPS");
	queryfile_type_format(4242, buf, sizeof(buf));
	assert_string_equal(buf, "TYPE4242");
}

static void test_wire(void **state)
{
	uint8_t buf[512];
	size_t n = queryfile_wire_query("a.B\\.c.", 7, 28, 0x1234, 0, buf, sizeof(buf));
	const uint8_t want[] = {0x12, 0x34, 0x01, 0,   0,   1,   0, 0, 0,  0, 0, 0,
	                        1,    'a',  3,    'B', '.', 'c', 0, 0, 28, 0, 1};
	assert_int_equal(n, sizeof(want));
	assert_memory_equal(buf, want, sizeof(want));
	n = queryfile_wire_query(".", 1, 2, 7, 1232, buf, sizeof(buf));
	assert_int_equal(n, 12 + 1 + 4 + 11);
	assert_int_equal(buf[11], 1);          /* ARCOUNT */
	assert_int_equal(buf[12 + 5 + 2], 41); /* OPT */
	assert_int_equal(buf[12 + 5 + 3], 1232 >> 8);
	/* 255 octets is the limit in wire form: 127 labels of 1 octet plus root = 255 */
	char name[300] = "";
	for (int i = 0; i < 127; i++)
		strcat(name, "x.");
	uint8_t wire[256];
	const char *reason;
	assert_int_equal(queryfile_name_to_wire(name, strlen(name), wire, &reason), 255);
	strcat(name, "x.");
	assert_int_equal(queryfile_name_to_wire(name, strlen(name), wire, &reason), 0);
	assert_non_null(strstr(reason, "too long"));
	assert_int_equal(queryfile_wire_query("", 0, 1, 1, 0, buf, sizeof(buf)), 0);
}

/* Random lines from an alphabet of the characters that matter: never a crash, and every
 * line is a query, a blank or comment line, or a reported malformed line. */
static void test_random_lines(void **state)
{
	static const char alphabet[] = "ab.\\\t 0129#;A\x01-:";
	size_t n_lines = 3000;
	char *text = malloc(n_lines * 80);
	size_t len = 0, blank_or_comment = 0;
	uint64_t x = 88172645463325252ULL;
	for (size_t i = 0; i < n_lines; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		size_t l = (size_t)(x % 60);
		size_t start = len;
		for (size_t j = 0; j < l; j++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			text[len++] = alphabet[x % (sizeof(alphabet) - 1)];
		}
		/* what the parser must treat as nothing: only blanks, or a comment first */
		size_t k = start;
		while (k < len && (text[k] == ' ' || text[k] == '\t'))
			k++;
		if (k == len || text[k] == '#' || text[k] == ';')
			blank_or_comment++;
		text[len++] = '\n';
	}
	char *path = test_write_file(".txt", text, len);
	struct reports r = {0};
	char err[256];
	struct queryfile *qf = queryfile_open(path, false, test_report, &r, err, sizeof(err));
	assert_non_null(qf);
	struct queryfile_entry e;
	size_t entries = 0;
	while (queryfile_next(qf, &e) == 1) {
		uint8_t wire[512];
		assert_true(queryfile_wire_query(e.name, e.name_len, e.qtype, 1, 0, wire,
		                                 sizeof(wire)) > 0);
		entries++;
	}
	assert_int_equal(entries + r.count + blank_or_comment, n_lines);
	assert_int_equal(queryfile_skipped(qf), r.count);
	queryfile_close(qf);
	unlink(path);
	free(path);
	free(text);
}

/* The real DNS-OARC sample (when ../shared is beside the checkout) parses with no line lost. */
static void test_real_sample(void **state)
{
	const char *src = getenv("ALLOCSPIKE_SOURCE_DIR");
	char path[4096];
	snprintf(path, sizeof(path),
	         "%s/../shared/querydata/queryfile-example-10million-201202_head100k.xz",
	         src ? src : ".");
	if (access(path, R_OK) != 0) {
		printf("SKIP real sample absent: %s\n", path);
		skip();
	}
	struct queryfile_set set;
	char err[512];
	struct reports r = {0};
	assert_true(queryfile_load(path, false, test_report, &r, &set, err, sizeof(err)));
	assert_int_equal(set.count, 100000);
	assert_int_equal(set.skipped, 0);
	assert_string_equal(set.queries[0].name, "thumbs2.ebaystatic.com.");
	assert_int_equal(set.queries[0].qtype, 28);
	assert_int_equal(set.queries[99999].line, 100000);
	queryfile_set_free(&set);
}

/* Meta and transfer types are refused line by line (with their line numbers) unless allowed. */
static void test_meta_types(void **state)
{
	static const char text[] = "a.example. A\n"
	                           "b.example. AXFR\n"
	                           "c.example. ixfr\n"
	                           "d.example. OPT\n"
	                           "e.example. TYPE0\n"
	                           "f.example. TSIG\n"
	                           "g.example. TKEY\n"
	                           "h.example. TYPE252\n"
	                           "i.example. ANY\n";
	char *path = test_write_file(".txt", text, strlen(text));
	char err[256];
	struct reports r = {0};
	struct queryfile *qf = queryfile_open(path, false, test_report, &r, err, sizeof(err));
	assert_non_null(qf);
	struct queryfile_entry e;
	unsigned long kept[4];
	size_t n = 0;
	while (queryfile_next(qf, &e) == 1)
		kept[n++] = e.line;
	assert_int_equal(n, 2); /* A and ANY */
	assert_int_equal(kept[0], 1);
	assert_int_equal(kept[1], 9);
	assert_int_equal(r.count, 7);
	for (size_t i = 0; i < 7; i++) {
		assert_int_equal(r.lines[i], i + 2);
		assert_non_null(strstr(r.reasons[i], "meta or transfer type"));
	}
	queryfile_close(qf);

	/* strict: the first one is fatal, with its line */
	qf = queryfile_open(path, true, NULL, NULL, err, sizeof(err));
	assert_int_equal(queryfile_next(qf, &e), 1);
	assert_int_equal(queryfile_next(qf, &e), -1);
	assert_non_null(strstr(queryfile_error(qf), ":2: meta or transfer type"));
	queryfile_close(qf);

	/* allowed: every line is a query */
	qf = queryfile_open(path, true, NULL, NULL, err, sizeof(err));
	queryfile_allow_meta(qf, true);
	n = 0;
	while (queryfile_next(qf, &e) == 1)
		n++;
	assert_int_equal(n, 9);
	assert_int_equal(queryfile_skipped(qf), 0);
	queryfile_close(qf);
	assert_true(queryfile_type_is_meta(41) && queryfile_type_is_meta(0) &&
	            !queryfile_type_is_meta(255) && !queryfile_type_is_meta(1));
	unlink(path);
	free(path);
}

/* Reads path to its end; the error, or NULL. */
static const char *test_read_error(const char *path, uint64_t memlimit, char *buf, size_t size)
{
	char err[256];
	struct queryfile *qf = queryfile_open(path, false, NULL, NULL, err, sizeof(err));
	assert_non_null(qf);
	if (memlimit)
		queryfile_set_xz_memlimit(qf, memlimit);
	struct queryfile_entry e;
	int rc;
	while ((rc = queryfile_next(qf, &e)) == 1)
		;
	snprintf(buf, size, "%s", rc < 0 ? queryfile_error(qf) : "");
	queryfile_close(qf);
	return rc < 0 ? buf : NULL;
}

/* An xz file whose header asks for a 4 GiB dictionary (an xz bomb: tiny on disk, the decoder
 * would allocate gigabytes) fails with what it asked for, under the default limit; a normal one
 * fails the same way under a limit set lower than it needs. */
static void test_xz_memory_limit(void **state)
{
	uint8_t xz[4096];
	size_t xz_len = 0;
	assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, (const uint8_t *)sample,
	                                         strlen(sample), xz, &xz_len, sizeof(xz)),
	                 LZMA_OK);
	char *path = test_write_file(".xz", xz, xz_len);
	char why[512];
	assert_null(test_read_error(path, 0, why, sizeof(why)));
	assert_non_null(test_read_error(path, 1 << 20, why, sizeof(why)));
	assert_non_null(strstr(why, "MiB of memory, more than the 1 MiB allowed"));
	unlink(path);
	free(path);

	/* The block header follows the 12-byte stream header: its size, its flags, then the LZMA2
	 * filter (ID 0x21, one property byte: the dictionary size) and a CRC32 over the rest. */
	uint8_t *block = xz + 12;
	size_t header_size = ((size_t)block[0] + 1) * 4;
	uint8_t *filter = memchr(block + 2, 0x21, header_size - 6);
	assert_non_null(filter);
	assert_int_equal(filter[1], 1);
	filter[2] = 40; /* 4 GiB - 1 */
	uint32_t crc = lzma_crc32(block, header_size - 4, 0);
	for (int i = 0; i < 4; i++)
		block[header_size - 4 + i] = (uint8_t)(crc >> (8 * i));
	path = test_write_file(".xz", xz, xz_len);
	assert_non_null(test_read_error(path, 0, why, sizeof(why)));
	assert_non_null(strstr(why, "the xz decoder would need 4097 MiB of memory, more than the "
	                            "128 MiB allowed"));
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_meta_types),
	    cmocka_unit_test(test_xz_memory_limit),
	    cmocka_unit_test(test_plain_format),
	    cmocka_unit_test(test_malformed_lines),
	    cmocka_unit_test(test_compressed_same_as_plain),
	    cmocka_unit_test(test_load_and_missing_file),
	    cmocka_unit_test(test_types),
	    cmocka_unit_test(test_wire),
	    cmocka_unit_test(test_random_lines),
	    cmocka_unit_test(test_real_sample),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
