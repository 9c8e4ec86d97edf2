/* tests/loadgen/test_sender.c - batches of any size over any number of source ports reach the
 * target intact, with the IDs the matcher expects (a scratch-space overflow shows under ASan). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "matcher.h"
#include "querystream.h"
#include "sender.h"

static void test_batches(void **state)
{
	char qpath[] = "/tmp/test_sender.XXXXXX";
	int qfd = mkstemp(qpath);
	const char queries[] = "a.example. A\nb.example. AAAA\nc.example. MX\n";
	assert_int_equal(write(qfd, queries, sizeof(queries) - 1), sizeof(queries) - 1);
	close(qfd);
	struct querystream qs;
	char err[256];
	struct querystream_options o = {.strict = true, .report_max = 10, .memory_cap = 1 << 20};
	assert_true(querystream_load(&qs, qpath, &o, err, sizeof(err)));
	unlink(qpath);

	int rfd = socket(AF_INET, SOCK_DGRAM, 0);
	int big = 8 << 20;
	setsockopt(rfd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big));
	struct target_spec t = {.name = "t", .has_addr = true};
	struct sockaddr_in *sin = (struct sockaddr_in *)&t.addr;
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = inet_addr("127.56.4.1");
	t.addr_len = sizeof(*sin);
	assert_int_equal(bind(rfd, (struct sockaddr *)sin, sizeof(*sin)), 0);
	assert_int_equal(getsockname(rfd, (struct sockaddr *)&t.addr, &t.addr_len), 0);

	unsigned port_counts[] = {1, 4, 7};
	for (size_t c = 0; c < sizeof(port_counts) / sizeof(port_counts[0]); c++) {
		unsigned ports = port_counts[c];
		struct counters counters = {0};
		struct matcher m;
		struct sender s;
		assert_true(matcher_init(&m, ports, 1000000000, &counters));
		assert_true(sender_open(&s, &t, ports, 1000, err, sizeof(err)));
		/* windows that start mid-run and span several runs of every port */
		uint64_t first = 37;
		unsigned sizes[] = {1000, 999, 64, 1, 500};
		unsigned total = 0;
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			assert_int_equal(sender_send(&s, &qs, &m, NULL, first, sizes[i], 1),
			                 sizes[i]);
			first += sizes[i];
			total += sizes[i];
		}
		assert_int_equal(counters.sent, total);
		assert_int_equal(m.outstanding, total);
		/* every datagram is one of the file's queries, with an ID of a query sent */
		uint8_t buf[512];
		unsigned got = 0;
		ssize_t n;
		while ((n = recv(rfd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
			got++;
			assert_true(n > 12);
			assert_int_equal(buf[2] & 0x80, 0); /* a query */
		}
		assert_int_equal(got, total);
		sender_close(&s);
		matcher_free(&m);
	}
	close(rfd);
	querystream_free(&qs);
}

/* A file over the memory cap is streamed: the same messages, in the same order, wrapping round,
 * as when it is held; stdin over the cap is refused with a clear message. */
static void test_streamed_same_as_held(void **state)
{
	char qpath[] = "/tmp/test_sender.XXXXXX";
	int qfd = mkstemp(qpath);
	FILE *f = fdopen(qfd, "w");
	for (int i = 0; i < 1000; i++)
		fprintf(f, "%sn%d.example. %s\n", i % 7 == 3 ? "bad..name " : "", i,
		        i % 2 ? "A" : "AAAA");
	fclose(f);
	struct querystream held, streamed;
	char err[256];
	struct querystream_options o = {.report_max = 0, .memory_cap = 1 << 20};
	assert_true(querystream_load(&held, qpath, &o, err, sizeof(err)));
	assert_null(held.feed);
	o.memory_cap = 4096;
	assert_true(querystream_load(&streamed, qpath, &o, err, sizeof(err)));
	assert_non_null(streamed.feed);
	assert_null(streamed.data);
	assert_int_equal(streamed.count, held.count);
	assert_int_equal(streamed.malformed, held.malformed);
	/* several passes, in batches as the pacer takes them */
	uint64_t k = 0, end = 3 * QUERYFEED_RING + 12345;
	while (k < end) {
		unsigned n = 1000;
		assert_true(querystream_wait(&streamed, k + n));
		for (uint64_t i = k; i < k + n; i++) {
			size_t a, b;
			const uint8_t *x = querystream_message(&held, i, &a);
			const uint8_t *y = querystream_message(&streamed, i, &b);
			assert_int_equal(a, b);
			assert_memory_equal(x, y, a);
			assert_int_equal(querystream_question(&held, i),
			                 querystream_question(&streamed, i));
		}
		k += n;
		querystream_release(&streamed, k);
	}
	assert_null(querystream_failure(&streamed));
	querystream_free(&streamed);
	querystream_free(&held);

	/* stdin cannot be read twice */
	assert_non_null(freopen(qpath, "r", stdin));
	assert_false(querystream_load(&streamed, "-", &o, err, sizeof(err)));
	assert_non_null(strstr(err, "stdin cannot be streamed"));
	unlink(qpath);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_batches),
	    cmocka_unit_test(test_streamed_same_as_held),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
