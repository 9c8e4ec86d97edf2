/* tests/common/test_atomic_write_file.c - common/atomic_write_file: the whole content or the old
 * one, no temporary file left, failures named; and sockaddr_from_bytes (common/sockaddr_parse.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
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
	assert_non_null(strstr(err, "/nonexistent-dir/x: "));
}

/* A link planted where the file goes, or under every name the old writer's temporary file had
 * (PATH.tmp.PID), writes nothing through: the victim keeps its content. */
static void test_no_write_through_links(void **state)
{
	(void)state;
	char path[256], victim[256], link[300], err[512] = "";
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	assert_true(atomic_write_file(victim, "precious\n", 9, err, sizeof(err)));
	snprintf(path, sizeof(path), "%s/summary.md", dir);
	for (long pid = getpid() - 50; pid < getpid() + 50; pid++) {
		snprintf(link, sizeof(link), "%s.tmp.%ld", path, pid);
		assert_int_equal(symlink(victim, link), 0);
	}
	assert_true(atomic_write_file(path, "report\n", 7, err, sizeof(err)));
	assert_string_equal(slurp(victim), "precious\n");
	assert_string_equal(slurp(path), "report\n");
	struct stat st;
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));

	/* a link at the path itself is refused, naming what was found */
	snprintf(link, sizeof(link), "%s/report.html", dir);
	assert_int_equal(symlink(victim, link), 0);
	assert_false(atomic_write_file(link, "x", 1, err, sizeof(err)));
	assert_non_null(strstr(err, "is a symbolic link"));
	assert_string_equal(slurp(victim), "precious\n");
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));

	/* the same within a folder's descriptor */
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	struct atomic_file af;
	assert_false(
	    atomic_file_open_at(&af, fd, "report.html", "RUN/report.html", err, sizeof(err)));
	assert_non_null(strstr(err, "RUN/report.html: is a symbolic link"));
	assert_true(atomic_file_open_at(&af, fd, "chart.svg", "RUN/chart.svg", err, sizeof(err)));
	fputs("<svg/>", af.f);
	assert_true(atomic_file_commit(&af, true, err, sizeof(err)));
	close(fd);
	snprintf(path, sizeof(path), "%s/chart.svg", dir);
	assert_string_equal(slurp(path), "<svg/>");
}

/* A device or FIFO is written in place, never replaced by a regular file; a folder is refused. */
static void test_devices_written_in_place(void **state)
{
	(void)state;
	char err[512] = "", path[256];
	struct stat st;
	assert_false(atomic_write_file("/dev/full", "x", 1, err, sizeof(err)));
	assert_non_null(strstr(err, "/dev/full: cannot write"));
	assert_int_equal(stat("/dev/full", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_true(atomic_write_file("/dev/null", "x", 1, err, sizeof(err)));
	assert_int_equal(lstat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));

	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	pid_t reader = fork();
	assert_true(reader >= 0);
	if (reader == 0) {
		char buf[64] = "";
		FILE *f = fopen(path, "r");
		size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
		_exit(n == 8 && memcmp(buf, "through\n", 8) == 0 ? 0 : 1);
	}
	assert_true(atomic_write_file(path, "through\n", 8, err, sizeof(err)));
	int status = 0;
	assert_int_equal(waitpid(reader, &status, 0), reader);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	unlink(path);

	snprintf(path, sizeof(path), "%s/folder", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_false(atomic_write_file(path, "x", 1, err, sizeof(err)));
	assert_non_null(strstr(err, "is a folder"));
	rmdir(path);
}

static void test_sockaddr_from_bytes(void **state)
{
	(void)state;
	struct sockaddr_storage ss;
	const uint8_t v4[4] = {192, 0, 2, 7};
	char text[64];
	assert_int_equal(sockaddr_from_bytes(v4, 4, 53, &ss), sizeof(struct sockaddr_in));
	assert_string_equal(sockaddr_format((struct sockaddr *)&ss, text, sizeof(text)),
	                    "192.0.2.7:53");
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
	    cmocka_unit_test(test_no_write_through_links),
	    cmocka_unit_test(test_devices_written_in_place),
	    cmocka_unit_test(test_sockaddr_from_bytes),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
