/* controller/steps_client.c - a conducted run's own client (steps_client.h). */
#include "steps_client.h"

#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "request_words.h"
#include "serve.h"

struct steps_client {
	struct event_base *base;
	struct sockaddr_un addr;
	steps_answer_fn *answer;
	void *ctx;
	struct bufferevent *conn; /* the outstanding request's; NULL: none */
};

struct steps_client *steps_client_new(struct event_base *base, const char *socket_path,
                                      steps_answer_fn *answer, void *ctx)
{
	struct steps_client *c = calloc(1, sizeof(*c));
	if (!c || strlen(socket_path) >= sizeof(c->addr.sun_path)) {
		free(c);
		return NULL;
	}
	c->base = base;
	c->addr.sun_family = AF_UNIX;
	strcpy(c->addr.sun_path, socket_path);
	c->answer = answer;
	c->ctx = ctx;
	return c;
}

void steps_client_drop(struct steps_client *c)
{
	if (c && c->conn) {
		bufferevent_free(c->conn);
		c->conn = NULL;
	}
}

void steps_client_free(struct steps_client *c)
{
	steps_client_drop(c);
	free(c);
}

/* The connection done with: closed before the callback, which may ask the next request. */
static void steps_client_answer(struct steps_client *c, char *line)
{
	steps_client_drop(c);
	c->answer(c->ctx, line);
}

static void steps_client_read(struct bufferevent *bev, void *ctx)
{
	struct steps_client *c = ctx;
	size_t len;
	char *line = evbuffer_readln(bufferevent_get_input(bev), &len, EVBUFFER_EOL_LF);
	if (!line)
		return;
	steps_client_answer(c, line);
	free(line);
}

static void steps_client_event(struct bufferevent *bev, short what, void *ctx)
{
	(void)bev;
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		steps_client_answer(ctx, NULL);
}

bool steps_client_ask(struct steps_client *c, char *const *words, size_t count, char *err,
                      size_t err_size)
{
	static char line[SERVE_LINE_MAX + 2];
	if (c->conn) {
		snprintf(err, err_size, "a request is outstanding");
		return false;
	}
	if (!request_words_encode(words, count, line, SERVE_LINE_MAX)) {
		snprintf(err, err_size, "%s: the request is longer than %d bytes", words[0],
		         SERVE_LINE_MAX);
		return false;
	}
	/* our own socket listens already: the connection is queued until the loop accepts it */
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&c->addr, sizeof(c->addr)) != 0) {
		snprintf(err, err_size, "%s: %s", c->addr.sun_path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	evutil_make_socket_nonblocking(fd);
	c->conn = bufferevent_socket_new(c->base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (!c->conn) {
		close(fd);
		snprintf(err, err_size, "out of memory");
		return false;
	}
	bufferevent_setcb(c->conn, steps_client_read, NULL, steps_client_event, c);
	strcat(line, "\n");
	if (bufferevent_write(c->conn, line, strlen(line)) != 0 ||
	    bufferevent_enable(c->conn, EV_READ) != 0) {
		steps_client_drop(c);
		snprintf(err, err_size, "out of memory");
		return false;
	}
	return true;
}
