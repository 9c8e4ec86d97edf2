/* tests/common/test_control_server.c - the shared control socket: mode 0600, what it replaces and
 * removes, line and connection limits, commands, the idle time counted from the last complete line,
 * the pause in accept when out of descriptors, and answers held for later. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "control_server.h"

static char dir[64], path[128];
static struct event_base *base;

static char *fake_stats(void *ctx)
{
	return strdup("{\"queries\":7}");
}

static int setup(void **state)
{
	strcpy(dir, "/tmp/allocspike-ctl.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ctl", dir);
	base = event_base_new();
	return base ? 0 : -1;
}

static int teardown(void **state)
{
	unlink(path);
	rmdir(dir);
	event_base_free(base);
	return 0;
}

/* Runs every event that is ready now, a few rounds (accept, then read). */
static void pump(void)
{
	for (int i = 0; i < 4; i++)
		event_base_loop(base, EVLOOP_NONBLOCK);
}

static int client(void)
{
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	strcpy(sun.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&sun, sizeof(sun)), 0);
	return fd;
}

/* Sends text, lets the server run, returns what came back (empty when nothing). */
static const char *ask(int fd, const char *text)
{
	static char reply[256];
	if (text)
		assert_int_equal(send(fd, text, strlen(text), 0), (ssize_t)strlen(text));
	pump();
	ssize_t n = recv(fd, reply, sizeof(reply) - 1, MSG_DONTWAIT);
	reply[n > 0 ? n : 0] = '\0';
	return reply;
}

static struct control_server *open_server(void)
{
	char err[256] = "";
	struct control_server *srv =
	    control_server_open(base, path, fake_stats, NULL, err, sizeof(err));
	if (!srv)
		fail_msg("open: %s", err);
	return srv;
}

static void test_mode_and_path(void **state)
{
	mode_t old = umask(0);
	struct control_server *srv = open_server();
	umask(old);
	struct stat st;
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0600);
	/* a second server replaces the (now stale) socket; the first then leaves it alone */
	struct control_server *second = open_server();
	control_server_close(srv);
	assert_int_equal(lstat(path, &st), 0);
	int fd = client();
	assert_string_equal(ask(fd, "stats\n"), "{\"queries\":7}\n");
	close(fd);
	control_server_close(second);
	assert_int_equal(lstat(path, &st), -1);

	/* anything but a socket at the path is refused and kept */
	FILE *f = fopen(path, "w");
	fputs("keep", f);
	fclose(f);
	char err[256] = "";
	assert_null(control_server_open(base, path, fake_stats, NULL, err, sizeof(err)));
	assert_non_null(strstr(err, "exists and is not a socket"));
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode) && st.st_size == 4);
	unlink(path);
	assert_int_equal(symlink("/tmp", path), 0);
	assert_null(control_server_open(base, path, fake_stats, NULL, err, sizeof(err)));
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	unlink(path);
	char longpath[200];
	memset(longpath, 'a', sizeof(longpath) - 1);
	longpath[sizeof(longpath) - 1] = '\0';
	assert_null(control_server_open(base, longpath, fake_stats, NULL, err, sizeof(err)));
	assert_non_null(strstr(err, "path longer than"));
}

static void test_commands_and_limits(void **state)
{
	struct control_server *srv = open_server();
	int fd = client();
	assert_string_equal(ask(fd, "stats\r\n"), "{\"queries\":7}\n");
	assert_string_equal(ask(fd, "\n"), "");
	assert_string_equal(ask(fd, "nope\n"), "error: unknown command (try: stats, shutdown)\n");
	/* two commands in one packet, one split over two */
	assert_string_equal(ask(fd, "stats\nsta"), "{\"queries\":7}\n");
	assert_string_equal(ask(fd, "ts\n"), "{\"queries\":7}\n");
	close(fd);

	fd = client();
	char line[CONTROL_LINE_MAX + 10];
	memset(line, 'x', sizeof(line));
	assert_string_equal(ask(fd, NULL), "");
	send(fd, line, sizeof(line), 0);
	assert_string_equal(ask(fd, NULL), "error: line too long\n");
	assert_true(recv(fd, line, 1, 0) <= 0); /* closed (reset: its tail was never read) */
	close(fd);

	fd = client();
	assert_int_equal(send(fd, "stats\0shutdown\n", 15, 0), 15);
	assert_string_equal(ask(fd, NULL), "error: NUL byte in command line\n");
	close(fd);

	int held[CONTROL_MAX_CONNS];
	for (int i = 0; i < CONTROL_MAX_CONNS; i++) {
		held[i] = client();
		pump();
	}
	int extra = client();
	assert_string_equal(ask(extra, NULL), "error: too many control connections\n");
	close(extra);
	close(held[0]);
	pump();
	extra = client();
	assert_string_equal(ask(extra, "stats\n"), "{\"queries\":7}\n");
	close(extra);
	for (int i = 1; i < CONTROL_MAX_CONNS; i++)
		close(held[i]);
	pump();

	fd = client();
	pump(); /* accepted */
	assert_int_equal(send(fd, "shutdown\n", 9, 0), 9);
	event_base_loop(base, EVLOOP_NONBLOCK);
	assert_true(event_base_got_break(base)); /* the loop was asked to stop */
	assert_string_equal(ask(fd, NULL), "ok\n");
	close(fd);
	control_server_close(srv);
}

static void on_timer(evutil_socket_t fd, short what, void *arg)
{
	*(int *)arg = 1;
}

/* Runs the loop for about ms milliseconds. */
static void run_for_ms(int ms)
{
	int fired = 0;
	struct event *timer = evtimer_new(base, on_timer, &fired);
	struct timeval t = {ms / 1000, (ms % 1000) * 1000};
	evtimer_add(timer, &t);
	for (int rounds = 0; !fired && rounds < 10000; rounds++)
		event_base_loop(base, EVLOOP_ONCE);
	event_free(timer);
}

/* True once the server has closed fd's connection (end of file or reset). */
static bool closed_by_server(int fd)
{
	char byte;
	ssize_t n = recv(fd, &byte, 1, MSG_DONTWAIT);
	return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

/* Idle time counts from the last complete line: clients trickling a byte well within the idle
 * time, never a line, are dropped once it passes, so a real client gets a slot and its answer;
 * a client sending a command as often keeps its connection. */
static void test_idle_counts_lines(void **state)
{
	struct control_server *srv = open_server();
	control_server_set_idle_ms(srv, 1000);
	enum { TRICKLERS = CONTROL_MAX_CONNS - 1 };
	int trickler[TRICKLERS];
	for (int i = 0; i < TRICKLERS; i++) {
		trickler[i] = client();
		pump();
	}
	int monitor = client();
	pump();
	int open = TRICKLERS;
	char reply[256];
	/* 200 ms rounds: a byte from every trickler, a command from the monitor; bounded at 8 s */
	for (int round = 0; round < 40 && open > 0; round++) {
		open = 0;
		for (int i = 0; i < TRICKLERS; i++) {
			if (trickler[i] < 0)
				continue;
			if (closed_by_server(trickler[i])) {
				close(trickler[i]);
				trickler[i] = -1;
				continue;
			}
			send(trickler[i], "s", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
			open++;
		}
		assert_int_equal(send(monitor, "stats\n", 6, MSG_NOSIGNAL), 6);
		run_for_ms(200);
		assert_true(recv(monitor, reply, sizeof(reply), MSG_DONTWAIT) > 0);
	}
	assert_int_equal(open, 0);
	int fd = client();
	assert_string_equal(ask(fd, "stats\n"), "{\"queries\":7}\n");
	assert_string_equal(ask(monitor, "stats\n"), "{\"queries\":7}\n");
	close(fd);
	close(monitor);
	control_server_close(srv);
}

/* Out of descriptors, a pending connection must not spin the loop: accept pauses for a second,
 * and serves the connection once descriptors are free again. */
static void test_emfile_backs_off(void **state)
{
	struct control_server *srv = open_server();
	int fd = client();
	struct rlimit saved, low;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &saved), 0);
	low = saved;
	low.rlim_cur = (rlim_t)fd + 8;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	int spare[64], n_spare = 0;
	while (n_spare < 64 && (spare[n_spare] = dup(0)) >= 0)
		n_spare++;
	assert_int_equal(errno, EMFILE);

	int fired = 0;
	struct event *timer = evtimer_new(base, on_timer, &fired);
	struct timeval t = {0, 300000};
	evtimer_add(timer, &t);
	int rounds = 0;
	while (!fired && rounds < 1000) {
		event_base_loop(base, EVLOOP_ONCE);
		rounds++;
	}
	/* a spinning accept would make every round return at once: hundreds of rounds */
	assert_true(rounds <= 3);

	for (int i = 0; i < n_spare; i++)
		close(spare[i]);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &saved), 0);
	assert_int_equal(send(fd, "stats\n", 6, 0), 6);
	struct timeval two = {2, 0};
	fired = 0;
	evtimer_add(timer, &two);
	char reply[64] = "";
	while (!fired) {
		event_base_loop(base, EVLOOP_ONCE);
		ssize_t n = recv(fd, reply, sizeof(reply) - 1, MSG_DONTWAIT);
		if (n > 0) {
			reply[n] = '\0';
			break;
		}
	}
	assert_string_equal(reply, "{\"queries\":7}\n");
	event_free(timer);
	close(fd);
	control_server_close(srv);
}

/* More commands (the controller's served run): a long line, an answer at once, one held and given
 * later (no further line read meanwhile, no idle close), and a client gone while held told. */
static struct control_conn *held_conn;
static int closed_count;

static void more_command(void *ctx, struct control_conn *conn, char *line)
{
	if (strcmp(line, "later") == 0) {
		held_conn = conn;
		control_conn_hold(conn);
		return;
	}
	char reply[64];
	snprintf(reply, sizeof(reply), "len %zu", strlen(line));
	control_conn_reply(conn, reply);
}

static void more_closed(void *ctx, struct control_conn *conn)
{
	if (conn == held_conn)
		held_conn = NULL;
	closed_count++;
}

static void test_held_answers(void **state)
{
	struct control_server *srv = open_server();
	control_server_set_commands(srv, 4096, more_command, more_closed, NULL);
	control_server_set_idle_ms(srv, 100);
	int fd = client();
	char line[2001];
	memset(line, 'x', 2000);
	line[2000] = '\n';
	assert_int_equal(send(fd, line, sizeof(line), 0), (ssize_t)sizeof(line));
	assert_string_equal(ask(fd, NULL), "len 2000\n");
	assert_string_equal(ask(fd, "stats\n"), "{\"queries\":7}\n");
	assert_string_equal(ask(fd, "later\n"), "");
	assert_non_null(held_conn);
	usleep(200 * 1000); /* past the idle time: a held connection stays */
	assert_string_equal(ask(fd, "stats\n"), "");
	control_conn_reply(held_conn, "done");
	held_conn = NULL;
	assert_string_equal(ask(fd, NULL), "done\n");
	close(fd);

	fd = client();
	assert_string_equal(ask(fd, "later\n"), "");
	assert_non_null(held_conn);
	close(fd);
	pump();
	assert_null(held_conn);
	assert_int_equal(closed_count, 1);
	control_server_close(srv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_mode_and_path, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_commands_and_limits, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_idle_counts_lines, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_emfile_backs_off, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_held_answers, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
