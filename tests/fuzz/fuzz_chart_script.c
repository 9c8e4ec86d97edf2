/* tests/fuzz/fuzz_chart_script.c - libFuzzer target over the gnuplot script writer
 * (reports/chart_gnuplot.c): whatever a run folder names its variants, crash events and phases,
 * the script holds none of it. The script of a chart built from the input must be byte for byte
 * the script of the same chart with every such text replaced by "x", and be printable lines only.
 *
 * Input: [u16 len][chunk]...: chunk 0 byte 0 the chart kind, byte 1 bit 0 logarithmic; then per
 * series a title chunk and a values chunk (pairs of bytes: time, value; 0xff a gap); a chunk
 * starting with 'M' is a crash mark (byte 1 its time, the rest its label); one starting with 'P' a
 * phase (byte 1 from, byte 2 to, the rest its name). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charts.h"
#include "fuzz_util.h"
#include "strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_SERIES 8
#define MAX_POINTS 64

static char *chunk_text(const uint8_t *p, size_t len)
{
	char *s = malloc(len + 1);
	if (!s)
		abort();
	memcpy(s, p, len);
	s[len] = 0;
	return s;
}

static void series_values(struct chart_series *s, const uint8_t *p, size_t len)
{
	s->t = calloc(MAX_POINTS, sizeof(double));
	s->v = calloc(MAX_POINTS, sizeof(double));
	if (!s->t || !s->v)
		abort();
	for (size_t i = 0; i + 1 < len && s->n < MAX_POINTS; i += 2, s->n++) {
		s->t[s->n] = p[i] / 4.0;
		s->v[s->n] = p[i + 1] == 0xff ? NAN : p[i + 1] * 1.5;
	}
}

/* Every text the run folder could have put in the chart, replaced by "x". */
static void chart_texts_neutral(struct chart *c)
{
	for (size_t s = 0; s < c->n_series; s++) {
		free(c->series[s].title);
		c->series[s].title = strdup("x");
	}
	free(c->title); /* drawn in the chart files: run text too (a variant's name) */
	c->title = strdup("x");
	size_t i;
	json_t *m;
	json_array_foreach(c->marks, i, m) json_object_set_new(m, "label", json_string("x"));
	json_t *p;
	json_array_foreach(c->phases, i, p)
	{
		const char *name = json_string_value(json_object_get(p, "phase"));
		/* the phase names the writer knows stay: they choose what is drawn */
		if (!name ||
		    (strcmp(name, "spike") && strcmp(name, "warmup") && strcmp(name, "calibrate")))
			json_object_set_new(p, "phase", json_string("x"));
	}
}

static char *script_of(const struct chart *c)
{
	struct strbuf b = {0};
	chart_script(c, 3, true, &b);
	return strbuf_take(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *chunk;
	size_t len;
	if (!fuzz_next_chunk(&data, &size, &chunk, &len) || len < 2)
		return 0;
	struct chart c;
	memset(&c, 0, sizeof(c));
	c.kind = (enum chart_kind)(chunk[0] % 4);
	c.logy = chunk[1] & 1;
	snprintf(c.ylabel, sizeof(c.ylabel), "MB");
	c.series = calloc(MAX_SERIES, sizeof(*c.series));
	c.marks = json_array();
	c.phases = json_array();
	if (!c.series || !c.marks || !c.phases)
		abort();
	while (fuzz_next_chunk(&data, &size, &chunk, &len)) {
		if (len >= 2 && chunk[0] == 'M') {
			json_array_append_new(c.marks,
			                      json_pack("{s:f,s:s%}", "t_s", chunk[1] / 4.0,
			                                "label", (const char *)chunk + 2, len - 2));
		} else if (len >= 3 && chunk[0] == 'P') {
			char *name = chunk_text(chunk + 3, len - 3);
			json_array_append_new(c.phases,
			                      json_pack("{s:s,s:f,s:f,s:i}", "phase", name,
			                                "from_s", chunk[1] / 4.0, "to_s",
			                                chunk[2] / 4.0, "spike", (int)chunk[1]));
			free(name);
		} else if (c.n_series < MAX_SERIES) {
			struct chart_series *s = &c.series[c.n_series++];
			s->title = chunk_text(chunk, len);
			snprintf(s->color, sizeof(s->color), "#123456");
			const uint8_t *values = NULL;
			size_t n_values = 0;
			fuzz_next_chunk(&data, &size, &values, &n_values);
			series_values(s, values, n_values);
			if (len > 0 && chunk[0] & 1)
				s->fill = "#abcdef";
		}
	}
	/* the chart's title from the run, as a variant name would reach it */
	c.title = strdup(c.n_series ? c.series[0].title : "t");
	char *script = script_of(&c);
	for (const char *p = script; *p; p++)
		if (*p != '\n' && ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)) {
			fprintf(stderr, "the script holds byte 0x%02x\n", (unsigned char)*p);
			abort();
		}
	chart_texts_neutral(&c);
	char *neutral = script_of(&c);
	if (strcmp(script, neutral) != 0) {
		fprintf(stderr, "a text from the input reached the script:\n%s\n---\n%s\n", script,
		        neutral);
		abort();
	}
	free(script);
	free(neutral);
	json_decref(c.phases);
	charts_free(&c, 1);
	return 0;
}
