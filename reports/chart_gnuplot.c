/* reports/chart_gnuplot.c - draws the charts (charts.h) with gnuplot: each chart's data files and
 * script in a private folder, gnuplot run there, the SVG inlined and the chart files placed. */
#include "charts.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "atomic_write_file.h"
#include "strbuf.h"
#include "timeline_rows.h"

/* A cool pale blue behind the spikes: the warm peach it replaced sat close in hue to the orange
 * and vermillion lines (musl, jemalloc) and washed the two together. */
#define SPIKE_SHADE "#dce6f2"
#define WARMUP_SHADE "#ececec"

/* The gnuplot script holds no text from the run folder: no name, no label, no path. Series titles,
 * bar labels and crash labels go into the data files gnuplot reads (where a string is only ever
 * data), every file has a fixed name in a private folder gnuplot runs in, and the script is
 * fixed text and numbers. So a name in run.json or a folder path can never become a command. */

/* A string as a gnuplot data-file field: double-quoted; the quote, the backslash and control
 * characters, which could end the field or the line, become '?'. */
static void gp_data_text(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		fputc(c < 0x20 || c == 0x7f || c == '"' || c == '\\' ? '?' : c, f);
	}
	fputc('"', f);
}

/* gnuplot single-quoted string for the program's own constants (axis labels): a quote is doubled,
 * and anything that could end the line is dropped. */
static void append_gp_string(struct strbuf *b, const char *s)
{
	strbuf_append(b, "'");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20 || c == 0x7f)
			continue;
		strbuf_append(b, c == '\'' ? "''" : (char[2]){(char)c, 0});
	}
	strbuf_append(b, "'");
}

static void script_shading(struct strbuf *b, const json_t *phases)
{
	size_t i;
	json_t *p;
	int obj = 1;
	json_array_foreach(phases, i, p)
	{
		const char *phase = json_string_value(json_object_get(p, "phase"));
		double from = json_number_value(json_object_get(p, "from_s"));
		double to = json_number_value(json_object_get(p, "to_s"));
		bool spike = phase && strcmp(phase, "spike") == 0;
		bool warm = phase && timeline_rows_phase_is_preamble(phase);
		if (!spike && !warm)
			continue;
		strbuf_printf(b,
		              "set object %d rect from %.6g, graph 0 to %.6g, graph 1 behind "
		              "fc rgb '%s' fs solid 1.0 noborder\n",
		              obj++, from, to, spike ? SPIKE_SHADE : WARMUP_SHADE);
		if (warm)
			strbuf_printf(
			    b,
			    "set label %d '%s' at %.6g, graph 0.96 center tc rgb '#555555'"
			    " front\n",
			    obj, strcmp(phase, "warmup") == 0 ? "warm-up" : "calibration",
			    (from + to) / 2);
		else if (json_array_size(phases) <= 60)
			strbuf_printf(b,
			              "set label %d '%" PRId64
			              "' at %.6g, graph 0.96 center tc rgb '#a04000' "
			              "front\n",
			              obj, (int64_t)json_integer_value(json_object_get(p, "spike")),
			              (from + to) / 2);
	}
}

/* Every chart has the same plot area left and right (fixed margins rather than gnuplot's, which
 * follow the width of the tic labels), so charts stacked on the page line up. */
static void script_begin(struct strbuf *b, const struct chart *c, int index)
{
	int height = c->small ? 240 : 380;
	strbuf_printf(b,
	              "set terminal svg size 900,%d dynamic noenhanced font 'sans,13' "
	              "background '#ffffff'\nset output 'c%d.svg'\n",
	              height, index);
	/* room above the plot for the title, which is plotted from a data file (script_plot) */
	strbuf_printf(b, "set tmargin at screen %.3f\n", 1 - 34.0 / height);
	/* charts that share a y axis get one plot height, whatever their keys hold: below the plot
	 * its tic labels and axis title, then the key at the foot, a row for each of key_rows */
	if (c->key_rows > 0)
		strbuf_printf(b,
		              "set bmargin at screen %.3f\nset key at screen 0.5, screen 0.01 "
		              "center bottom vertical maxrows %zu reverse Left samplen 3\n",
		              fmin(0.6, (64.0 + 21.0 * (double)c->key_rows) / height), c->key_rows);
	else
		strbuf_append(b, "set key below horizontal maxrows 3 reverse Left samplen 3\n");
	strbuf_append(b, "set lmargin at screen 0.105\nset rmargin at screen 0.97\n"
	                 "set grid ytics lc rgb '#dddddd'\n"
	                 "set border 3\nset tics nomirror\nset xtics out\nset ytics out\n");
	strbuf_append(b, "set ylabel ");
	append_gp_string(b, c->ylabel);
	strbuf_append(b, "\n");
	/* the second axes run over the plot area in graph units (0 to 1), not drawn: the title
	 * and the crash labels are placed on them */
	strbuf_append(b, "set x2range [0:1]\nset y2range [0:1]\nunset x2tics\nunset y2tics\n");
}

/* A y range shared with the charts beside it (charts.h), or gnuplot's own from 0 (or, on a
 * logarithmic axis, from the data). */
static void script_y_range(struct strbuf *b, const struct chart *c)
{
	if (c->logy)
		strbuf_append(b, "set logscale y\n");
	if (!isnan(c->ymin) && !isnan(c->ymax) && c->ymax > c->ymin)
		strbuf_printf(b, "set yrange [%.6g:%.6g]\n", c->ymin, c->ymax);
	else if (!c->logy)
		strbuf_append(b, "set yrange [0:*]\n");
}

/* The time axis's extent: the schedule's first interval to the last sample or mark, so no shading
 * or crash is cut off and no empty stretch is added up to a round tic. NAN where unknown. Found
 * once per chart: the axis and every crash label's side follow from it. */
struct x_extent {
	double min, max;
};

static struct x_extent chart_x_extent(const struct chart *c)
{
	struct x_extent x = {NAN, NAN};
	if (json_array_size(c->phases) > 0)
		x.min = json_number_value(json_object_get(json_array_get(c->phases, 0), "from_s"));
	for (size_t s = 0; s < c->n_series; s++)
		for (size_t k = 0; k < c->series[s].n; k++) {
			double t = c->series[s].t[k];
			if (isnan(x.min) || t < x.min)
				x.min = t;
			if (isnan(x.max) || t > x.max)
				x.max = t;
		}
	size_t i;
	json_t *m;
	json_array_foreach(c->marks, i, m)
	{
		double t = json_number_value(json_object_get(m, "t_s"));
		if (isnan(x.max) || t > x.max)
			x.max = t;
	}
	return x;
}

/* A crash label near the right edge goes to the left of its line, so it stays visible. */
static bool mark_on_right(const struct chart *c, size_t i, const struct x_extent *x)
{
	double t = json_number_value(json_object_get(json_array_get(c->marks, i), "t_s"));
	return !isnan(x->min) && t > x->min + 0.6 * (x->max - x->min);
}

/* The time axis: shading of the phases, harness bands, crash lines (their labels are plotted from
 * a data file, script_plot). */
static void script_time_axis(struct strbuf *b, const struct chart *c, const struct x_extent *x)
{
	strbuf_append(b, "set xlabel ");
	append_gp_string(b, CHART_TIME_XLABEL);
	strbuf_append(b, "\n");
	script_y_range(b, c);
	/* Headroom above the highest line for the spike numbers (a shared range has its own). */
	strbuf_append(b, "set offsets graph 0, graph 0, graph 0.1, graph 0\n");
	if (!isnan(x->min) && !isnan(x->max) && x->max > x->min)
		strbuf_printf(b, "set xrange [%.6g:%.6g]\n", x->min, x->max);
	script_shading(b, c->phases);
	size_t i;
	json_t *band;
	json_array_foreach(c->bands, i, band)
	{
		strbuf_printf(b,
		              "set object %zu rect from %.6g, graph 0 to %.6g, graph 0.03 front "
		              "fc rgb '#d00000' fs solid 0.7 noborder\n",
		              500 + i, json_number_value(json_object_get(band, "from_s")),
		              json_number_value(json_object_get(band, "to_s")));
	}
	json_t *m;
	json_array_foreach(c->marks, i, m)
	{
		double t = json_number_value(json_object_get(m, "t_s"));
		strbuf_printf(
		    b,
		    "set arrow from %.6g, graph 0 to %.6g, graph 1 nohead lc rgb '#d00000'"
		    " dt 2 lw 1.5 front\n",
		    t, t);
	}
}

/* Bars: series s is drawn at x = s + 1, its title under it (from its data file), its value
 * above it. */
static void script_bars_axis(struct strbuf *b, const struct chart *c)
{
	/* a bar may be below zero (the spikes left less than there was before them) */
	bool negative = false;
	for (size_t s = 0; s < c->n_series; s++)
		for (size_t k = 0; k < c->series[s].n; k++)
			negative = negative || c->series[s].v[k] < 0;
	strbuf_printf(
	    b,
	    "set xlabel 'variant'\nset xrange [0.4:%.1f]\n%s\nset offsets 0, 0, graph 0.12, %s\n"
	    "set boxwidth 0.6\nset style fill solid 1.0 noborder\nunset key\n"
	    "set xtics scale 0 rotate by -20\n",
	    (double)c->n_series + 0.6,
	    negative ? "set yrange [*:*]\nset xzeroaxis lt -1" : "set yrange [0:*]",
	    negative ? "graph 0.12" : "0");
}

static void script_spikes_axis(struct strbuf *b)
{
	strbuf_append(b, "set xlabel 'spike (number)'\nset xtics 1\nset yrange [0:*]\n"
	                 "set offsets 0.3, 0.3, graph 0.1, 0\n");
}

static void script_cdf_axis(struct strbuf *b)
{
	strbuf_append(b, "set xlabel 'latency (ms), logarithmic'\nset logscale x\n"
	                 "set yrange [0:1.02]\nset ytics 0.1\nset grid xtics ytics lc rgb "
	                 "'#dddddd'\nset format y '%.1f'\n");
}

/* Whether the chart has crash labels on the right (or the left) of their lines. */
static bool chart_has_marks(const struct chart *c, bool right, const struct x_extent *x)
{
	for (size_t i = 0; i < json_array_size(c->marks); i++)
		if (mark_on_right(c, i, x) == right)
			return true;
	return false;
}

static void script_plot(struct strbuf *b, const struct chart *c, int index,
                        const struct x_extent *x)
{
	strbuf_append(b, "plot ");
	bool first = true;
	for (size_t s = 0; s < c->n_series; s++) {
		const struct chart_series *cs = &c->series[s];
		if (!chart_series_has_data(cs))
			continue;
		strbuf_printf(b, "%s'c%ds%zu.dat' ", first ? "" : ", \\\n  ", index, s);
		if (c->kind == CHART_BARS)
			strbuf_printf(b,
			              "using 1:2:xticlabels(3) with boxes fc rgb '%s' notitle, '' "
			              "using 1:2:(sprintf('%%.1f', $2)) with labels offset 0,0.8 "
			              "notitle",
			              cs->color);
		else if (cs->fill)
			strbuf_printf(b,
			              "using 1:2:3 with filledcurves fc rgb '%s' fs solid 1.0 "
			              "noborder title columnheader(3)",
			              cs->fill);
		else
			strbuf_printf(b,
			              "using 1:2 with %s lw %s lc rgb '%s' dt %d title "
			              "columnheader(2)",
			              c->kind == CHART_SPIKES ? "linespoints pt 7"
			              : cs->steps             ? "fsteps"
			                                      : "lines",
			              cs->dashed ? "1.6" : "2.2", cs->color, cs->dashed ? 2 : 1);
		first = false;
	}
	/* the title, from its data file: centred above the plot */
	strbuf_printf(b,
	              ", \\\n  'c%dt.dat' using 1:2:3 axes x2y2 with labels center offset 0,1.4 "
	              "font ',14' notitle",
	              index);
	if (c->kind == CHART_TIME)
		for (int right = 0; right < 2; right++)
			if (chart_has_marks(c, right, x))
				strbuf_printf(
				    b,
				    ", \\\n  'c%dm%d.dat' using 1:2:3 axes x1y2 with labels "
				    "%s tc rgb '#d00000' notitle",
				    index, right,
				    right ? "right offset -0.5,0" : "left offset 0.5,0");
	strbuf_append(b, "\nunset output\n");
}

/* The same chart again as a PNG (gnuplot's pngcairo terminal), from the same run of gnuplot. */
static void script_png(struct strbuf *b, const struct chart *c, int index)
{
	strbuf_printf(b,
	              "set terminal pngcairo size 900,%d noenhanced font 'sans,10' "
	              "background '#ffffff'\nset output 'c%d.png'\nreplot\nunset output\n",
	              c->small ? 240 : 380, index);
}

void chart_script(const struct chart *c, int index, bool png, struct strbuf *b)
{
	struct x_extent x = chart_x_extent(c);
	script_begin(b, c, index);
	if (c->kind == CHART_BARS)
		script_bars_axis(b, c);
	else if (c->kind == CHART_CDF)
		script_cdf_axis(b);
	else if (c->kind == CHART_SPIKES)
		script_spikes_axis(b);
	else
		script_time_axis(b, c, &x);
	script_plot(b, c, index, &x);
	if (png)
		script_png(b, c, index);
}

/* Past this many points a line is thinned (a chart is ~800 pixels wide; more only swells the page).
 */
#define CHART_MAX_POINTS 2400

static void write_point(FILE *f, const struct chart_series *s, size_t i)
{
	if (s->lo) {
		/* a band: an empty line ends one filled stretch (gnuplot starts a new one) */
		if (isnan(s->v[i]) || isnan(s->lo[i]))
			fputs("\n", f);
		else
			fprintf(f, "%.6f %.9g %.9g\n", s->t[i], s->lo[i], s->v[i]);
		return;
	}
	if (isnan(s->v[i]))
		fprintf(f, "%.6f NaN\n", s->t[i]);
	else
		fprintf(f, "%.6f %.9g\n", s->t[i], s->v[i]);
}

/* Writes a series; a long one keeps, of each run of consecutive points, the lowest and the
 * highest (so no peak is lost) and a break if the run holds one, in their original order. */
static void write_series(FILE *f, const struct chart_series *s)
{
	if (s->n <= CHART_MAX_POINTS) {
		for (size_t i = 0; i < s->n; i++)
			write_point(f, s, i);
		return;
	}
	size_t step = (s->n + CHART_MAX_POINTS / 2 - 1) / (CHART_MAX_POINTS / 2);
	for (size_t from = 0; from < s->n; from += step) {
		size_t to = from + step < s->n ? from + step : s->n;
		size_t lo = to, hi = to, gap = to;
		for (size_t i = from; i < to; i++) {
			if (isnan(s->v[i])) {
				if (gap == to)
					gap = i;
				continue;
			}
			if (lo == to || s->v[i] < s->v[lo])
				lo = i;
			if (hi == to || s->v[i] > s->v[hi])
				hi = i;
		}
		size_t keep[3] = {lo, hi, gap};
		for (int a = 0; a < 3; a++) /* three indexes into order */
			for (int b = a + 1; b < 3; b++)
				if (keep[b] < keep[a]) {
					size_t x = keep[a];
					keep[a] = keep[b];
					keep[b] = x;
				}
		for (int k = 0; k < 3; k++)
			if (keep[k] < to && (k == 0 || keep[k] != keep[k - 1]))
				write_point(f, s, keep[k]);
	}
}

/* A series' data file: a bar is one line "x value label"; a line or band starts with a header
 * line whose last field is its title (the script's "title columnheader"). */
static void chart_series_data(FILE *f, const struct chart *c, const struct chart_series *s)
{
	if (c->kind == CHART_BARS) {
		for (size_t i = 0; i < s->n; i++) {
			fprintf(f, "%.6f %.9g ", s->t[i], s->v[i]);
			gp_data_text(f, s->title);
			fputc('\n', f);
		}
		return;
	}
	fputs(s->lo ? "\"t\" \"lo\" " : "\"t\" ", f);
	gp_data_text(f, s->title);
	fputc('\n', f);
	write_series(f, s);
}

/* The crash labels on one side of their lines: "t height label", height in graph units. */
static void chart_marks_data(FILE *f, const struct chart *c, bool right, const struct x_extent *x)
{
	for (size_t i = 0; i < json_array_size(c->marks); i++) {
		if (mark_on_right(c, i, x) != right)
			continue;
		const json_t *m = json_array_get(c->marks, i);
		fprintf(f, "%.6g %.2f ", json_number_value(json_object_get(m, "t_s")),
		        0.88 - 0.07 * (double)(i % 8));
		gp_data_text(f, json_string_value(json_object_get(m, "label")));
		fputc('\n', f);
	}
}

/* Creates NAME in the private folder dirfd (never an existing file) for writing. */
static FILE *work_file(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, "w");
	if (!f)
		close(fd);
	return f;
}

static bool work_file_close(FILE *f)
{
	bool ok = !ferror(f);
	return fclose(f) == 0 && ok;
}

/* Writes chart index's data files and script (cI.gp) into the private folder dirfd. */
static bool chart_write_files(const struct chart *c, int dirfd, int index, bool png)
{
	char name[64];
	for (size_t s = 0; s < c->n_series; s++) {
		snprintf(name, sizeof(name), "c%ds%zu.dat", index, s);
		FILE *f = work_file(dirfd, name);
		if (!f)
			return false;
		chart_series_data(f, c, &c->series[s]);
		if (!work_file_close(f))
			return false;
	}
	snprintf(name, sizeof(name), "c%dt.dat", index);
	FILE *title = work_file(dirfd, name);
	if (!title)
		return false;
	fputs("0.5 1 ", title);
	gp_data_text(title, c->title);
	fputc('\n', title);
	if (!work_file_close(title))
		return false;
	struct x_extent x = chart_x_extent(c);
	for (int right = 0; c->kind == CHART_TIME && right < 2; right++) {
		if (!chart_has_marks(c, right, &x))
			continue;
		snprintf(name, sizeof(name), "c%dm%d.dat", index, right);
		FILE *f = work_file(dirfd, name);
		if (!f)
			return false;
		chart_marks_data(f, c, right, &x);
		if (!work_file_close(f))
			return false;
	}
	struct strbuf b = {0};
	chart_script(c, index, png, &b);
	snprintf(name, sizeof(name), "c%d.gp", index);
	FILE *f = work_file(dirfd, name);
	bool ok = f && fputs(b.s, f) >= 0;
	if (f && !work_file_close(f))
		ok = false;
	strbuf_free(&b);
	return ok;
}

/* The whole of NAME in dirfd, or NULL. */
static char *work_file_slurp(int dirfd, const char *name, size_t *len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct strbuf b = {0};
	char buf[65536];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		strbuf_append_n(&b, buf, (size_t)n);
	close(fd);
	if (n < 0) {
		strbuf_free(&b);
		return NULL;
	}
	*len = b.len;
	return strbuf_take(&b);
}

/* Makes gnuplot's SVG fit inline among others: drops the XML prolog, and prefixes its ids (every
 * gnuplot SVG defines the same ones) and the in-page references to them with the chart's id. */
static char *svg_inline(const char *svg, const char *prefix)
{
	const char *p = strstr(svg, "<svg");
	if (!p)
		return NULL;
	struct strbuf b = {0};
	strbuf_printf(&b, "<svg class=\"chart\" role=\"img\" aria-labelledby=\"%s-title\"", prefix);
	p += 4;
	static const char *const refs[] = {"id='", "id=\"", "href='#", "href=\"#", "url(#"};
	while (*p) {
		/* Inline SVG in HTML needs no namespace declarations (the HTML parser supplies
		 * them), so the page holds no outside address at all; gnuplot's generic <title>
		 * would only shadow the heading that labels the chart. */
		if (strncmp(p, "xmlns", 5) == 0 && isspace((unsigned char)p[-1])) {
			const char *q = strchr(p, '"');
			q = q ? strchr(q + 1, '"') : NULL;
			if (q) {
				p = q + 1;
				continue;
			}
		}
		if (strncmp(p, "<title>Gnuplot</title>", 22) == 0) {
			p += 22;
			continue;
		}
		bool matched = false;
		for (size_t r = 0; r < sizeof(refs) / sizeof(*refs) && !matched; r++) {
			size_t len = strlen(refs[r]);
			if (strncmp(p, refs[r], len) == 0 &&
			    (p == svg || p[-1] == ' ' || p[-1] == ':' || p[-1] == '\t' ||
			     refs[r][0] == 'u')) {
				strbuf_append(&b, refs[r]);
				strbuf_printf(&b, "%s-", prefix);
				p += len;
				matched = true;
			}
		}
		if (!matched)
			strbuf_append_n(&b, p++, 1);
	}
	return strbuf_take(&b);
}

/* Empties and removes the private folder (only files are made in it). */
static void work_dir_remove(const char *dir, int dirfd)
{
	DIR *d = fdopendir(dup(dirfd));
	for (struct dirent *e; d && (e = readdir(d));)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlinkat(dirfd, e->d_name, 0);
	if (d)
		closedir(d);
	close(dirfd);
	rmdir(dir);
}

static const char *gnuplot_binary(void)
{
	const char *gnuplot = getenv("ALLOCSPIKE_GNUPLOT");
	return gnuplot && *gnuplot ? gnuplot : "gnuplot";
}

/* A fresh private folder for gnuplot's scripts and data, in dir (PATH_MAX-ish buffer); its
 * descriptor, or -1 (err says why). */
static int work_dir(char *dir, size_t size, char *err, size_t err_size)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, size, "%s/allocspike-report.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	int fd = mkdtemp(dir) ? open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
	if (fd < 0)
		snprintf(err, err_size, "%s: cannot create: %s", dir, strerror(errno));
	return fd;
}

/* Runs gnuplot on cI.gp inside the private folder (no shell: nothing is parsed but by gnuplot),
 * its errors to cI.err. 0 drawn, 1 gnuplot failed on this chart, -1 gnuplot cannot be run. */
static int gnuplot_run(const char *dir, int index)
{
	char script[32], errors[32];
	snprintf(script, sizeof(script), "c%d.gp", index);
	snprintf(errors, sizeof(errors), "c%d.err", index);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = chdir(dir) == 0
		             ? open(errors, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600)
		             : -1;
		if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
			_exit(127);
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
		}
		execlp(gnuplot_binary(), gnuplot_binary(), script, (char *)NULL);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) == 127)
		return -1;
	return WEXITSTATUS(status) == 0 ? 0 : 1;
}

/* Copies the private folder's FROM into the chart files' folder as TO, never through a link. */
static bool chart_file_place(int workfd, const char *from, int files_fd, const char *files_dir,
                             const char *to)
{
	size_t len = 0;
	char *data = work_file_slurp(workfd, from, &len);
	if (!data)
		return false;
	char shown[4200], err[4400];
	snprintf(shown, sizeof(shown), "%s/%s", files_dir, to);
	struct atomic_file af;
	bool ok = atomic_file_open_at(&af, files_fd, to, shown, err, sizeof(err));
	if (ok) {
		bool written = fwrite(data, 1, len, af.f) == len;
		ok = atomic_file_commit(&af, written, err, sizeof(err)) && written;
	}
	if (!ok)
		fprintf(stderr, "allocspike-report: warning: %s\n", err);
	free(data);
	return ok;
}

int charts_files_dir_open(const char *path, char *err, size_t err_size)
{
	if (mkdir(path, 0777) != 0 && errno != EEXIST) {
		snprintf(err, err_size, "%s: cannot create: %s", path, strerror(errno));
		return -1;
	}
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && (errno == ENOTDIR || errno == ELOOP))
		snprintf(err, err_size,
		         "%s: is not a folder (a file or a symbolic link is there); remove it, the "
		         "chart files are written into a folder of that name",
		         path);
	else if (fd < 0)
		snprintf(err, err_size, "%s: cannot open: %s", path, strerror(errno));
	return fd;
}

bool charts_render(struct chart *charts, size_t n, char *err, size_t err_size)
{
	return charts_render_files(charts, n, -1, NULL, NULL, err, err_size);
}

bool charts_render_files(struct chart *charts, size_t n, int files_fd, const char *files_dir,
                         bool *files_ok, char *err, size_t err_size)
{
	if (files_ok)
		*files_ok = true;
	char dir[1024];
	int workfd = work_dir(dir, sizeof(dir), err, err_size);
	if (workfd < 0)
		return false;
	bool ok = true;
	for (size_t i = 0; i < n && ok; i++) {
		if (!chart_has_data(&charts[i]))
			continue; /* nothing recorded: the page says "no data" */
		if (!chart_write_files(&charts[i], workfd, (int)i, files_fd >= 0)) {
			snprintf(err, err_size, "%s: cannot write chart data: %s", dir,
			         strerror(errno));
			ok = false;
			break;
		}
		int r = gnuplot_run(dir, (int)i);
		if (r < 0) {
			snprintf(err, err_size, "cannot run %s (install gnuplot-nox)",
			         gnuplot_binary());
			ok = false;
			break;
		}
		if (r > 0)
			continue; /* this chart failed: the page says so */
		char svg_name[32], png_name[32], target[64];
		snprintf(svg_name, sizeof(svg_name), "c%zu.svg", i);
		snprintf(png_name, sizeof(png_name), "c%zu.png", i);
		size_t len;
		char *svg = work_file_slurp(workfd, svg_name, &len);
		if (svg)
			charts[i].svg = svg_inline(svg, charts[i].id);
		free(svg);
		if (files_fd < 0)
			continue;
		snprintf(target, sizeof(target), "%s.svg", charts[i].id);
		bool placed = chart_file_place(workfd, svg_name, files_fd, files_dir, target);
		snprintf(target, sizeof(target), "%s.png", charts[i].id);
		placed = chart_file_place(workfd, png_name, files_fd, files_dir, target) && placed;
		if (!placed && files_ok)
			*files_ok = false;
	}
	work_dir_remove(dir, workfd);
	return ok;
}
