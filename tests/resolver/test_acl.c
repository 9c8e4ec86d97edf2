/* tests/resolver/test_acl.c - who gets answers: loopback by default, --allow prefixes, bad text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include "acl.h"

static bool allows(const struct acl *acl, const char *addr)
{
	struct sockaddr_storage ss;
	memset(&ss, 0, sizeof(ss));
	struct sockaddr_in *v4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&ss;
	if (inet_pton(AF_INET, addr, &v4->sin_addr) == 1)
		v4->sin_family = AF_INET;
	else if (inet_pton(AF_INET6, addr, &v6->sin6_addr) == 1)
		v6->sin6_family = AF_INET6;
	else
		fail_msg("test address %s", addr);
	return acl_allows(acl, (struct sockaddr *)&ss);
}

static void test_loopback_only_by_default(void **state)
{
	static struct acl acl;
	assert_true(allows(&acl, "127.0.0.1"));
	assert_true(allows(&acl, "127.55.1.10"));
	assert_true(allows(&acl, "::1"));
	assert_true(allows(&acl, "::ffff:127.0.0.1")); /* dual-stack listener */
	assert_false(allows(&acl, "128.0.0.1"));
	assert_false(allows(&acl, "126.255.255.255"));
	assert_false(allows(&acl, "192.0.2.1"));
	assert_false(allows(&acl, "10.0.0.1"));
	assert_false(allows(&acl, "::2"));
	assert_false(allows(&acl, "2001:db8::1"));
	assert_false(allows(&acl, "::ffff:192.0.2.1"));
	assert_false(allows(&acl, "::")); /* unspecified */
	struct sockaddr unix_like = {.sa_family = AF_UNIX};
	assert_false(acl_allows(&acl, &unix_like));
}

static void test_allow_prefixes(void **state)
{
	static struct acl acl;
	char err[256];
	assert_true(acl_add(&acl, "192.0.2.0/24", err, sizeof(err)));
	assert_true(acl_add(&acl, "198.51.100.7", err, sizeof(err)));
	assert_true(acl_add(&acl, "2001:db8:1::/48", err, sizeof(err)));
	assert_true(acl_add(&acl, "10.1.2.3/9", err, sizeof(err))); /* host bits are cleared */
	assert_true(allows(&acl, "192.0.2.0"));
	assert_true(allows(&acl, "192.0.2.255"));
	assert_false(allows(&acl, "192.0.3.0"));
	assert_true(allows(&acl, "198.51.100.7"));
	assert_false(allows(&acl, "198.51.100.8"));
	assert_true(allows(&acl, "2001:db8:1:ffff::1"));
	assert_false(allows(&acl, "2001:db8:2::1"));
	assert_true(allows(&acl, "10.0.0.1"));
	assert_true(allows(&acl, "10.127.255.255"));
	assert_false(allows(&acl, "10.128.0.0"));
	assert_true(allows(&acl, "::ffff:192.0.2.9"));
	assert_false(allows(&acl, "::ffff:198.51.100.8"));
	/* an IPv4 prefix never matches an IPv6 address and back */
	assert_false(allows(&acl, "c000:200::"));
}

static void test_allow_everything(void **state)
{
	static struct acl acl;
	char err[256];
	assert_true(acl_add(&acl, "0.0.0.0/0", err, sizeof(err)));
	assert_true(allows(&acl, "203.0.113.5"));
	assert_false(allows(&acl, "2001:db8::1"));
	assert_true(acl_add(&acl, "::/0", err, sizeof(err)));
	assert_true(allows(&acl, "2001:db8::1"));
}

static void test_bad_text(void **state)
{
	static const char *bad[] = {"",
	                            "/24",
	                            "192.0.2.0/",
	                            "192.0.2.0/33",
	                            "2001:db8::/129",
	                            "192.0.2.0/-1",
	                            "192.0.2.0/24x",
	                            "192.0.2",
	                            "example.com",
	                            "192.0.2.0/ 24",
	                            "192.0.2.0/+8",
	                            "[::1]/128",
	                            "192.0.2.0/99999999999999999999"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct acl_entry e;
		char err[256] = "";
		if (acl_parse(bad[i], &e, err, sizeof(err)))
			fail_msg("'%s' accepted", bad[i]);
		/* the message names the text it refused */
		assert_non_null(strstr(err, bad[i]));
	}
	static struct acl acl;
	char err[256];
	for (int i = 0; i < ACL_MAX_ENTRIES; i++)
		assert_true(acl_add(&acl, "192.0.2.1", err, sizeof(err)));
	assert_false(acl_add(&acl, "192.0.2.1", err, sizeof(err)));
	assert_non_null(strstr(err, "at most"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_loopback_only_by_default),
	    cmocka_unit_test(test_allow_prefixes),
	    cmocka_unit_test(test_allow_everything),
	    cmocka_unit_test(test_bad_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
