/* tests/common/test_atomic_write_file.c - common/atomic_write_file: the whole content or the old one,
 * no temporary file left, failures named; and sockaddr_from_bytes (common/sockaddr_parse.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_write_file.h"
#include "sockaddr_parse.h"

static char dir[] = "/tmp/allocspike-atomic-XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int entries(void)
{
	int n = 0;
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static void test_write_replaces_whole(void **state)
{
	(void)state;
	char path[256], err[256];
	snprintf(path, sizeof(path), "%s/f.json", dir);
	assert_true(atomic_write_file(path, "old\n", 4, err, sizeof(err)));
	assert_true(atomic_write_file(path, "new content\n", 12, err, sizeof(err)));
	assert_string_equal(slurp(path), "new content\n");
	assert_int_equal(entries(), 1); /* no temporary file left */
}

static void test_abandoned_write_keeps_old(void **state)
{
	(void)state;
	char path[256], err[256] = "";
	snprintf(path, sizeof(path), "%s/g.txt", dir);
	assert_true(atomic_write_file(path, "kept\n", 5, err, sizeof(err)));
	struct atomic_file af;
	assert_true(atomic_file_open(&af, path, err, sizeof(err)));
	fputs("half", af.f);
	assert_string_equal(slurp(path), "kept\n"); /* a reader meanwhile sees the old content */
	assert_false(atomic_file_commit(&af, false, err, sizeof(err)));
	assert_string_equal(slurp(path), "kept\n");
	assert_int_equal(entries(), 2); /* f.json and g.txt, no temporary file */
}

static void test_unwritable_named(void **state)
{
	(void)state;
	char err[256] = "";
	assert_false(atomic_write_file("/nonexistent-dir/x", "a", 1, err, sizeof(err)));
	assert_non_null(strstr(err, "/nonexistent-dir/x.tmp."));
}

static void test_sockaddr_from_bytes(void **state)
{
	(void)state;
	struct sockaddr_storage ss;
	const uint8_t v4[4] = {192, 0, 2, 7};
	char text[64];
	assert_int_equal(sockaddr_from_bytes(v4, 4, 53, &ss), sizeof(struct sockaddr_in));
	assert_string_equal(sockaddr_format((struct sockaddr *)&ss, text, sizeof(text)), "192.0.2.7:53");
	uint8_t v6[16] = {0x20, 0x01, 0x0d, 0xb8};
	v6[15] = 1;
	assert_int_equal(sockaddr_from_bytes(v6, 16, 5300, &ss), sizeof(struct sockaddr_in6));
	assert_string_equal(sockaddr_format((struct sockaddr *)&ss, text, sizeof(text)),
	                    "[2001:db8::1]:5300");
	assert_int_equal(sockaddr_from_bytes(v4, 3, 53, &ss), 0);
	/* The parser builds its addresses the same way. */
	struct sockaddr_storage parsed;
	socklen_t len;
	assert_true(sockaddr_parse("[2001:db8::1]:5300", -1, &parsed, &len, NULL, 0));
	assert_int_equal(len, sizeof(struct sockaddr_in6));
	assert_memory_equal(&parsed, &ss, len);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_write_replaces_whole),
	    cmocka_unit_test(test_abandoned_write_keeps_old),
	    cmocka_unit_test(test_unwritable_named),
	    cmocka_unit_test(test_sockaddr_from_bytes),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
