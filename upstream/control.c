/* upstream/control.c - control socket: one command a line, one reply a line. */
#include "control.h"

#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/listener.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

struct control {
	struct event_base *base;
	struct evconnlistener *listener;
	char *path;
	control_stats_fn stats;
	void *ctx;
};

static void control_conn_event(struct bufferevent *bev, short what, void *arg)
{
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR | BEV_EVENT_TIMEOUT))
		bufferevent_free(bev);
}

static void control_conn_read(struct bufferevent *bev, void *arg)
{
	struct control *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	char *line;
	while ((line = evbuffer_readln(in, NULL, EVBUFFER_EOL_CRLF)) != NULL) {
		if (strcmp(line, "stats") == 0) {
			char *json = c->stats(c->ctx);
			if (json) {
				bufferevent_write(bev, json, strlen(json));
				bufferevent_write(bev, "\n", 1);
			}
			free(json);
		} else if (strcmp(line, "shutdown") == 0) {
			/* written straight away: the loop stops before the buffer would drain */
			int fd = bufferevent_getfd(bev);
			ssize_t w = write(fd, "ok\n", 3);
			(void)w;
			event_base_loopbreak(c->base);
		} else {
			const char *msg = "error unknown command (stats, shutdown)\n";
			bufferevent_write(bev, msg, strlen(msg));
		}
		free(line);
	}
}

static void control_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
                           int salen, void *arg)
{
	struct control *c = arg;
	struct bufferevent *bev = bufferevent_socket_new(c->base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (!bev) {
		close(fd);
		return;
	}
	bufferevent_setcb(bev, control_conn_read, NULL, control_conn_event, c);
	bufferevent_enable(bev, EV_READ | EV_WRITE);
}

struct control *control_open(struct event_base *base, const char *path, control_stats_fn stats,
                             void *ctx, char *err, size_t err_size)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(a.sun_path)) {
		snprintf(err, err_size, "--control %s: path longer than %zu bytes", path,
		         sizeof(a.sun_path) - 1);
		return NULL;
	}
	strcpy(a.sun_path, path);
	unlink(path);
	struct control *c = calloc(1, sizeof(*c));
	if (!c) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	c->base = base;
	c->stats = stats;
	c->ctx = ctx;
	c->path = strdup(path);
	c->listener = evconnlistener_new_bind(base, control_accept, c, LEV_OPT_CLOSE_ON_FREE, 16,
	                                      (struct sockaddr *)&a, sizeof(a));
	if (!c->listener) {
		snprintf(err, err_size, "--control %s: cannot listen: %s", path, strerror(errno));
		free(c->path);
		free(c);
		return NULL;
	}
	return c;
}

void control_close(struct control *c)
{
	if (!c)
		return;
	evconnlistener_free(c->listener);
	unlink(c->path);
	free(c->path);
	free(c);
}
