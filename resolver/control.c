/* resolver/control.c - line-oriented control socket (like unbound-control / kresd's tty). */
#define _GNU_SOURCE /* accept4 */
#include "control.h"

#include <errno.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "resolver.h"
#include "stats.h"

struct control_conn {
	struct control_conn *next;
	struct control *ctl;
	int fd;
	struct event *ev;
	size_t have;
	char buf[512];
};

struct control {
	struct resolver *r;
	int fd;
	struct event *ev;
	char path[108];
	struct control_conn *conns;
};

static void control_conn_close(struct control_conn *c)
{
	struct control_conn **pp = &c->ctl->conns;
	while (*pp && *pp != c)
		pp = &(*pp)->next;
	if (*pp)
		*pp = c->next;
	event_free(c->ev);
	close(c->fd);
	free(c);
}

static void control_reply(struct control_conn *c, const char *text)
{
	size_t len = strlen(text), off = 0;
	/* Replies are small and the client waits for them: a short blocking write is fine. */
	while (off < len) {
		ssize_t n = write(c->fd, text + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		off += (size_t)n;
	}
}

/* Returns false when the loop was asked to stop. */
static bool control_command(struct control_conn *c, char *line)
{
	struct resolver *r = c->ctl->r;
	size_t len = strlen(line);
	while (len && (line[len - 1] == '\r' || line[len - 1] == ' '))
		line[--len] = '\0';
	if (strcmp(line, "stats") == 0) {
		char *json = stats_to_json(r);
		control_reply(c, json);
		control_reply(c, "\n");
		free(json);
	} else if (strcmp(line, "shutdown") == 0) {
		control_reply(c, "ok\n");
		event_base_loopbreak(r->base);
		return false;
	} else if (len > 0) {
		control_reply(c, "error: unknown command (try: stats, shutdown)\n");
	}
	return true;
}

static void control_on_conn(evutil_socket_t fd, short what, void *arg)
{
	struct control_conn *c = arg;
	ssize_t n = read(fd, c->buf + c->have, sizeof(c->buf) - 1 - c->have);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		control_conn_close(c);
		return;
	}
	c->have += (size_t)n;
	c->buf[c->have] = '\0';
	char *start = c->buf, *nl;
	while ((nl = strchr(start, '\n'))) {
		*nl = '\0';
		if (!control_command(c, start))
			break;
		start = nl + 1;
	}
	c->have -= (size_t)(start - c->buf);
	memmove(c->buf, start, c->have);
	if (c->have == sizeof(c->buf) - 1) {
		control_reply(c, "error: line too long\n");
		control_conn_close(c);
	}
}

static void control_on_accept(evutil_socket_t fd, short what, void *arg)
{
	struct control *ctl = arg;
	int cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (cfd < 0)
		return;
	struct control_conn *c = calloc(1, sizeof(*c));
	if (!c) {
		close(cfd);
		return;
	}
	c->ctl = ctl;
	c->fd = cfd;
	c->ev = event_new(ctl->r->base, cfd, EV_READ | EV_PERSIST, control_on_conn, c);
	if (!c->ev || event_add(c->ev, NULL) < 0) {
		if (c->ev)
			event_free(c->ev);
		close(cfd);
		free(c);
		return;
	}
	c->next = ctl->conns;
	ctl->conns = c;
}

int control_open(struct resolver *r, const char *path, char *err, size_t err_size)
{
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(sun.sun_path)) {
		snprintf(err, err_size, "--control %s: path longer than %zu bytes", path,
		         sizeof(sun.sun_path) - 1);
		return -1;
	}
	strcpy(sun.sun_path, path);
	struct control *ctl = calloc(1, sizeof(*ctl));
	if (!ctl) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	ctl->r = r;
	strcpy(ctl->path, path);
	ctl->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	unlink(path);
	if (ctl->fd < 0 || bind(ctl->fd, (struct sockaddr *)&sun, sizeof(sun)) < 0 ||
	    listen(ctl->fd, 16) < 0) {
		snprintf(err, err_size, "--control %s: %s", path, strerror(errno));
		if (ctl->fd >= 0)
			close(ctl->fd);
		free(ctl);
		return -1;
	}
	ctl->ev = event_new(r->base, ctl->fd, EV_READ | EV_PERSIST, control_on_accept, ctl);
	event_add(ctl->ev, NULL);
	r->control = ctl;
	return 0;
}

void control_close(struct resolver *r)
{
	struct control *ctl = r->control;
	if (!ctl)
		return;
	while (ctl->conns)
		control_conn_close(ctl->conns);
	event_free(ctl->ev);
	close(ctl->fd);
	unlink(ctl->path);
	free(ctl);
	r->control = NULL;
}
