/* loadgen/progress.c - the one-line live display on a terminal (nothing when stderr is not one). */
#include "progress.h"

#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

static bool progress_drawn;

bool progress_enabled(void)
{
	return isatty(STDERR_FILENO);
}

static unsigned progress_width(void)
{
	struct winsize ws;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20)
		return ws.ws_col - 1;
	return 79;
}

void progress_show(const struct progress_view *v)
{
	char line[1024];
	double left = v->duration_s - v->t_s;
	size_t n = (size_t)snprintf(
	    line, sizeof(line), "%.1fs, %.1fs left, %s#%u offered %.0f/s sent %.0f/s |", v->t_s,
	    left > 0 ? left : 0, v->phase, v->spike, v->offered_qps, v->sent_qps);
	for (unsigned i = 0; i < v->count && n < sizeof(line); i++) {
		const struct progress_target *t = &v->targets[i];
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %s", t->name);
		if (n < sizeof(line) && t->answered_qps >= 0)
			n += (size_t)snprintf(line + n, sizeof(line) - n, " %.0f/s",
			                      t->answered_qps);
		if (n < sizeof(line) && t->rss_kb >= 0)
			n += (size_t)snprintf(line + n, sizeof(line) - n, " %.1fM",
			                      (double)t->rss_kb / 1024);
	}
	unsigned width = progress_width();
	if (n > width)
		n = width;
	/* \033[K clears what a longer previous line left */
	fprintf(stderr, "\r%.*s\033[K", (int)n, line);
	fflush(stderr);
	progress_drawn = true;
}

void progress_end(void)
{
	if (progress_drawn)
		fputc('\n', stderr);
	progress_drawn = false;
}
