/* tests/daemons/test_size_classes.c - the live sampler's allocation size histogram.
 *
 * Runs with liballocspike-live-sampler.so preloaded and $ALLOCSPIKE_SAMPLER_SOCKET set (see
 * CMakeLists.txt), allocates blocks of known sizes and asks the sampler's socket for `stats`
 * before, while they live and after they are freed: the `size_classes` object must count exactly
 * them, in the class their usable size falls in. Nothing else allocates between two asks (the
 * pointers live in static arrays, the lines in static buffers, and the sampler's thread allocates
 * nothing). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <errno.h>
#include <jansson.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

enum { SMALL = 1000, MEDIUM = 50, LARGE = 5 };
static void *small[SMALL], *medium[MEDIUM], *large[LARGE];
static char line_before[16384], line_live[16384], line_after[16384];

/* One `stats` line from the sampler's socket into out (NUL-terminated, newline dropped). */
static void ask_stats(char *out, size_t size)
{
	const char *path = getenv("ALLOCSPIKE_SAMPLER_SOCKET");
	assert_non_null(path);
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	assert_true(strlen(path) < sizeof(sa.sun_path));
	strcpy(sa.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(write(fd, "stats\n", 6), 6);
	size_t len = 0;
	while (len == 0 || out[len - 1] != '\n') {
		ssize_t n = read(fd, out + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		assert_true(n > 0);
		len += (size_t)n;
		assert_true(len < size - 1);
	}
	out[len - 1] = '\0';
	close(fd);
}

/* The class index of a usable size, from the line's own "le" limits. */
static size_t class_of(json_t *classes, size_t usable)
{
	json_t *le = json_object_get(classes, "le");
	for (size_t i = 0; i < json_array_size(le); i++) {
		json_t *limit = json_array_get(le, i);
		if (json_is_null(limit) || usable <= (size_t)json_integer_value(limit))
			return i;
	}
	fail_msg("no class for %zu bytes", usable);
	return 0;
}

static long long field(json_t *classes, const char *key, size_t i)
{
	json_t *v = json_array_get(json_object_get(classes, key), i);
	assert_true(json_is_integer(v));
	return json_integer_value(v);
}

static json_t *classes_of(const char *line, json_t **root)
{
	json_error_t err;
	*root = json_loads(line, 0, &err);
	assert_non_null(*root);
	json_t *classes = json_object_get(*root, "size_classes");
	assert_true(json_is_object(classes));
	assert_int_equal(json_array_size(json_object_get(classes, "le")), 24);
	assert_true(json_is_integer(json_object_get(*root, "live_bytes"))); /* existing keys stay */
	return classes;
}

static void test_known_sizes_show_in_their_classes(void **state)
{
	(void)state;
	ask_stats(line_before, sizeof(line_before));
	for (int i = 0; i < SMALL; i++)
		small[i] = malloc(100);
	for (int i = 0; i < MEDIUM; i++)
		medium[i] = malloc(3000);
	for (int i = 0; i < LARGE; i++)
		large[i] = malloc(100000);
	ask_stats(line_live, sizeof(line_live));
	for (int i = 0; i < SMALL; i++)
		free(small[i]);
	for (int i = 0; i < MEDIUM; i++)
		free(medium[i]);
	for (int i = 0; i < LARGE; i++)
		free(large[i]);
	ask_stats(line_after, sizeof(line_after));

	json_t *rb, *rl, *ra;
	json_t *before = classes_of(line_before, &rb), *live = classes_of(line_live, &rl),
	       *after = classes_of(line_after, &ra);
	struct {
		size_t size;
		long long count;
	} kinds[] = {{100, SMALL}, {3000, MEDIUM}, {100000, LARGE}};
	/* Usable sizes as the allocator gives them (glibc: 104, 3000 or 3016, 100000 or more). */
	void *probe[3] = {malloc(100), malloc(3000), malloc(100000)};
	size_t cls[3];
	for (int k = 0; k < 3; k++) {
		cls[k] = class_of(live, malloc_usable_size(probe[k]));
		free(probe[k]);
	}
	assert_true(cls[0] < cls[1] && cls[1] < cls[2]);
	for (int k = 0; k < 3; k++) {
		size_t c = cls[k];
		assert_int_equal(field(live, "live_blocks", c) - field(before, "live_blocks", c),
		                 kinds[k].count);
		assert_int_equal(field(live, "allocs", c) - field(before, "allocs", c),
		                 kinds[k].count);
		long long grew = field(live, "live_bytes", c) - field(before, "live_bytes", c);
		assert_true(grew >= kinds[k].count * (long long)kinds[k].size);
		assert_true(grew <= kinds[k].count * (long long)(kinds[k].size + 64));
		/* freed: the live counts come back, the cumulative count stays */
		assert_int_equal(field(after, "live_blocks", c), field(before, "live_blocks", c));
		assert_int_equal(field(after, "live_bytes", c), field(before, "live_bytes", c));
		assert_int_equal(field(after, "allocs", c) - field(before, "allocs", c),
		                 kinds[k].count);
	}
	json_decref(rb);
	json_decref(rl);
	json_decref(ra);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_known_sizes_show_in_their_classes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
