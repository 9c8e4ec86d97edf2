/* tests/common/test_sockaddr_parse.c - "ADDR", "ADDR:PORT", "[V6]:PORT": the port is a COUNT of the
 * command lines' grammar (common/cli_parse), and each refusal says what was wrong. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <netinet/in.h>
#include <string.h>

#include "sockaddr_parse.h"

static int port_of(const char *text, int default_port)
{
	struct sockaddr_storage ss;
	socklen_t len;
	char err[256];
	if (!sockaddr_parse(text, default_port, &ss, &len, err, sizeof(err)))
		return -2;
	return sockaddr_port((struct sockaddr *)&ss);
}

static void test_ports(void **state)
{
	(void)state;
	assert_int_equal(port_of("127.0.0.1:5300", -1), 5300);
	assert_int_equal(port_of("127.0.0.1", 53), 53);
	assert_int_equal(port_of("[::1]:0", -1), 0);
	assert_int_equal(port_of("::1", 53), 53); /* a bare IPv6 address has no port */
	assert_int_equal(port_of("127.0.0.1:65535", -1), 65535);
	assert_int_equal(port_of("127.0.0.1:00053", -1), 53);
}

static void test_refused_ports(void **state)
{
	(void)state;
	/* strtol took each of these but the last three */
	static const char *const bad[] = {"127.0.0.1:+53", "127.0.0.1: 53", "127.0.0.1:-0",
	                                  "[::1]:+1",      "127.0.0.1:",    "127.0.0.1:65536",
	                                  "127.0.0.1:5x"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		assert_int_equal(port_of(bad[i], 53), -2);
	assert_int_equal(port_of("127.0.0.1", -1), -2); /* no port, none by default */
}

static void test_errors_name_the_port(void **state)
{
	(void)state;
	struct sockaddr_storage ss;
	socklen_t len;
	char err[256];
	assert_false(sockaddr_parse("127.0.0.1:99999", -1, &ss, &len, err, sizeof(err)));
	assert_string_equal(err, "'127.0.0.1:99999': port: '99999' is out of range (0 to 65535)");
	assert_false(sockaddr_parse("[::1]:x", -1, &ss, &len, err, sizeof(err)));
	assert_string_equal(err, "'[::1]:x': port: 'x' is not a whole number (e.g. 10)");
	assert_false(sockaddr_parse("[::1]", -1, &ss, &len, err, sizeof(err)));
	assert_string_equal(err, "missing port in '[::1]'");
	assert_false(sockaddr_parse("localhost:53", -1, &ss, &len, err, sizeof(err)));
	assert_string_equal(err, "'localhost:53' is not ADDR, ADDR:PORT or [IPV6]:PORT");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ports),
	    cmocka_unit_test(test_refused_ports),
	    cmocka_unit_test(test_errors_name_the_port),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
