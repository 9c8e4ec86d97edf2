/* common/control_server.c - line-command Unix socket on libevent: bounded connections, lines and
 * idle time (since the last complete line), and an accept loop that backs off when out of file
 * descriptors. */
#ifndef _GNU_SOURCE /* the controller's build defines it for all its files */
#define _GNU_SOURCE /* accept4 */
#endif
#include "control_server.h"

#include <errno.h>
#include <event2/event.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

struct control_conn {
	struct control_conn *next;
	struct control_server *srv;
	int fd;
	struct event *ev;
	/* Fires when no complete line came within the idle time. A separate timer, not ev's own
	 * timeout: that one restarts on every byte, so a client trickling a byte now and then would
	 * hold its slot for ever. */
	struct event *idle_ev;
	bool held;   /* a request waits for its answer (control_conn_hold): no idle close */
	bool broken; /* an answer could not be written: closed once the command returns */
	size_t have;
	char buf[]; /* line_max + 1 */
};

struct control_server {
	struct event_base *base;
	int fd;
	struct event *accept_ev, *backoff_ev;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	dev_t dev;
	ino_t ino; /* the socket file created, so close never removes another one */
	struct control_conn *conns;
	int n_conns;
	struct timeval idle;
	control_stats_fn stats;
	void *ctx;
	size_t line_max;
	control_command_fn command; /* lines other than stats and shutdown; NULL: unknown */
	control_closed_fn closed;
	void *command_ctx;
};

static void control_conn_close(struct control_conn *c)
{
	struct control_conn **pp = &c->srv->conns;
	while (*pp && *pp != c)
		pp = &(*pp)->next;
	if (*pp)
		*pp = c->next;
	c->srv->n_conns--;
	if (c->held && c->srv->closed)
		c->srv->closed(c->srv->command_ctx, c);
	event_free(c->ev);
	event_free(c->idle_ev);
	close(c->fd);
	free(c);
}

/* Replies are a line or two and the client waits for them; a client that does not read them
 * (the socket buffer is full) is not worth waiting for: false, and it is dropped. */
static bool control_write(int fd, const char *text)
{
	size_t len = strlen(text), off = 0;
	while (off < len) {
		ssize_t n = send(fd, text + off, len - off, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		off += (size_t)n;
	}
	return true;
}

/* Runs one command line; false when the connection must close (or the loop stops). */
static bool control_command(struct control_conn *c, char *line)
{
	struct control_server *srv = c->srv;
	size_t len = strlen(line);
	while (len && (line[len - 1] == '\r' || line[len - 1] == ' '))
		line[--len] = '\0';
	if (strcmp(line, "stats") == 0) {
		char *json = srv->stats(srv->ctx);
		bool ok = control_write(c->fd, json ? json : "error: no stats") &&
		          control_write(c->fd, "\n");
		free(json);
		return ok;
	}
	if (strcmp(line, "shutdown") == 0) {
		control_write(c->fd, "ok\n");
		event_base_loopbreak(srv->base);
		return true;
	}
	if (len == 0)
		return true;
	if (srv->command) {
		srv->command(srv->command_ctx, c, line);
		return true;
	}
	return control_write(c->fd, "error: unknown command (try: stats, shutdown)\n");
}

static void control_on_idle(evutil_socket_t fd, short what, void *arg)
{
	control_conn_close(arg);
}

static void control_on_conn(evutil_socket_t fd, short what, void *arg)
{
	struct control_conn *c = arg;
	size_t max = c->srv->line_max;
	ssize_t n = recv(fd, c->buf + c->have, max - c->have, 0);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return;
	/* a client gone while its request waits is told to the server (closed) */
	if (n <= 0 || (c->held && c->have + (size_t)n == max)) {
		control_conn_close(c);
		return;
	}
	if (c->held) { /* one request at a time: what follows waits (unread) for the answer */
		c->have += (size_t)n;
		return;
	}
	c->have += (size_t)n;
	c->buf[c->have] = '\0';
	char *start = c->buf, *nl;
	while ((nl = memchr(start, '\n', c->have - (size_t)(start - c->buf)))) {
		*nl = '\0';
		/* A NUL inside a line would hide its tail from the command: not a command. */
		if (strlen(start) != (size_t)(nl - start)) {
			control_write(c->fd, "error: NUL byte in command line\n");
			control_conn_close(c);
			return;
		}
		if (!control_command(c, start) || c->broken) {
			control_conn_close(c);
			return;
		}
		start = nl + 1;
		if (c->held)
			break;
	}
	/* a complete line came: the idle time starts over */
	if (start != c->buf && !c->held)
		event_add(c->idle_ev, &c->srv->idle);
	c->have -= (size_t)(start - c->buf);
	memmove(c->buf, start, c->have);
	if (c->have == max) {
		control_write(c->fd, "error: line too long\n");
		control_conn_close(c);
	}
}

static void control_on_backoff(evutil_socket_t fd, short what, void *arg)
{
	struct control_server *srv = arg;
	event_add(srv->accept_ev, NULL);
}

static void control_on_accept(evutil_socket_t fd, short what, void *arg)
{
	struct control_server *srv = arg;
	int cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (cfd < 0) {
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
			/* The pending connection stays readable: without a pause the loop would
			 * spin on it. Try again in a second. */
			struct timeval one_second = {1, 0};
			event_del(srv->accept_ev);
			event_add(srv->backoff_ev, &one_second);
		}
		return;
	}
	if (srv->n_conns >= CONTROL_MAX_CONNS) {
		control_write(cfd, "error: too many control connections\n");
		close(cfd);
		return;
	}
	struct control_conn *c = calloc(1, sizeof(*c) + srv->line_max + 1);
	if (!c) {
		close(cfd);
		return;
	}
	c->srv = srv;
	c->fd = cfd;
	c->ev = event_new(srv->base, cfd, EV_READ | EV_PERSIST, control_on_conn, c);
	c->idle_ev = evtimer_new(srv->base, control_on_idle, c);
	if (!c->ev || !c->idle_ev || event_add(c->ev, NULL) < 0 ||
	    event_add(c->idle_ev, &srv->idle) < 0) {
		if (c->ev)
			event_free(c->ev);
		if (c->idle_ev)
			event_free(c->idle_ev);
		close(cfd);
		free(c);
		return;
	}
	c->next = srv->conns;
	srv->conns = c;
	srv->n_conns++;
}

/* Removes a stale socket file at path; anything else there (a regular file, a link, a folder)
 * is refused rather than deleted. */
static int control_clear_path(const char *path, char *err, size_t err_size)
{
	struct stat st;
	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, err_size, "--control %s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISSOCK(st.st_mode)) {
		snprintf(err, err_size,
		         "--control %s: exists and is not a socket; not replacing it", path);
		return -1;
	}
	if (unlink(path) < 0 && errno != ENOENT) {
		snprintf(err, err_size, "--control %s: cannot remove the old socket: %s", path,
		         strerror(errno));
		return -1;
	}
	return 0;
}

static int control_listen(struct control_server *srv, char *err, size_t err_size)
{
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	strcpy(sun.sun_path, srv->path);
	srv->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (srv->fd < 0) {
		snprintf(err, err_size, "--control %s: socket: %s", srv->path, strerror(errno));
		return -1;
	}
	/* The file is created by bind with 0777 & ~umask: 0600 whatever the process umask. */
	mode_t old = umask(0177);
	int rc = bind(srv->fd, (struct sockaddr *)&sun, sizeof(sun));
	int bind_errno = errno;
	umask(old);
	struct stat st;
	if (rc < 0 || listen(srv->fd, 16) < 0 || lstat(srv->path, &st) < 0) {
		snprintf(err, err_size, "--control %s: cannot listen: %s", srv->path,
		         strerror(rc < 0 ? bind_errno : errno));
		return -1;
	}
	srv->dev = st.st_dev;
	srv->ino = st.st_ino;
	return 0;
}

struct control_server *control_server_open(struct event_base *base, const char *path,
                                           control_stats_fn stats, void *ctx, char *err,
                                           size_t err_size)
{
	struct control_server *srv = calloc(1, sizeof(*srv));
	if (!srv) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	srv->fd = -1;
	if (strlen(path) >= sizeof(srv->path)) {
		snprintf(err, err_size, "--control %s: path longer than %zu bytes", path,
		         sizeof(srv->path) - 1);
		free(srv);
		return NULL;
	}
	strcpy(srv->path, path);
	srv->base = base;
	srv->stats = stats;
	srv->ctx = ctx;
	srv->idle.tv_sec = CONTROL_IDLE_SECONDS;
	srv->line_max = CONTROL_LINE_MAX;
	if (control_clear_path(path, err, err_size) < 0 || control_listen(srv, err, err_size) < 0)
		goto fail;
	srv->accept_ev = event_new(base, srv->fd, EV_READ | EV_PERSIST, control_on_accept, srv);
	srv->backoff_ev = evtimer_new(base, control_on_backoff, srv);
	if (!srv->accept_ev || !srv->backoff_ev || event_add(srv->accept_ev, NULL) < 0) {
		snprintf(err, err_size, "--control %s: out of memory", path);
		goto fail;
	}
	return srv;
fail:
	if (srv->accept_ev)
		event_free(srv->accept_ev);
	if (srv->backoff_ev)
		event_free(srv->backoff_ev);
	if (srv->fd >= 0) {
		close(srv->fd);
		if (srv->ino)
			unlink(path);
	}
	free(srv);
	return NULL;
}

void control_server_set_idle_ms(struct control_server *srv, unsigned idle_ms)
{
	srv->idle.tv_sec = idle_ms / 1000;
	srv->idle.tv_usec = (suseconds_t)(idle_ms % 1000) * 1000;
}

void control_server_set_commands(struct control_server *srv, size_t line_max,
                                 control_command_fn command, control_closed_fn closed, void *ctx)
{
	srv->line_max = line_max;
	srv->command = command;
	srv->closed = closed;
	srv->command_ctx = ctx;
}

void control_conn_hold(struct control_conn *c)
{
	c->held = true;
	event_del(c->idle_ev);
}

void control_conn_reply(struct control_conn *c, const char *line)
{
	bool ok = control_write(c->fd, line) && control_write(c->fd, "\n");
	bool was_held = c->held;
	c->held = false;
	if (!ok && was_held) {
		control_conn_close(c);
		return;
	}
	c->broken = !ok;
	if (was_held)
		event_add(c->idle_ev, &c->srv->idle);
}

void control_server_close(struct control_server *srv)
{
	if (!srv)
		return;
	while (srv->conns)
		control_conn_close(srv->conns);
	event_free(srv->accept_ev);
	event_free(srv->backoff_ev);
	close(srv->fd);
	struct stat st;
	if (lstat(srv->path, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_dev == srv->dev &&
	    st.st_ino == srv->ino)
		unlink(srv->path);
	free(srv);
}
