/* common/sockaddr_parse.c - numeric address and port parsing and formatting. */
#include "sockaddr_parse.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "cli_parse.h"

bool sockaddr_parse(const char *text, int default_port, struct sockaddr_storage *out,
                    socklen_t *out_len, char *err, size_t err_size)
{
	char host[INET6_ADDRSTRLEN + 1], port_err[256];
	int port = default_port;
	const char *port_text = NULL, *host_text = text;
	size_t host_len;

	if (text[0] == '[') {
		const char *close = strchr(text, ']');
		if (!close)
			goto bad;
		host_len = (size_t)(close - text - 1);
		if (close[1] == ':')
			port_text = close + 2;
		else if (close[1] != '\0')
			goto bad;
		host_text++;
	} else {
		const char *colon = strchr(text, ':');
		if (colon && strchr(colon + 1, ':'))
			colon = NULL; /* bare IPv6 address, no port */
		host_len = colon ? (size_t)(colon - text) : strlen(text);
		if (colon)
			port_text = colon + 1;
	}
	if (host_len == 0 || host_len >= sizeof(host))
		goto bad;
	memcpy(host, host_text, host_len);
	host[host_len] = '\0';
	if (port_text) {
		/* a port is a COUNT of the command lines' grammar (docs/cli.md) */
		unsigned long long v;
		if (!cli_parse_count("port", port_text, 0, 65535, &v, port_err, sizeof(port_err))) {
			if (err)
				snprintf(err, err_size, "'%s': %s", text, port_err);
			return false;
		}
		port = (int)v;
	}
	if (port < 0) {
		if (err)
			snprintf(err, err_size, "missing port in '%s'", text);
		return false;
	}

	unsigned char bytes[sizeof(struct in6_addr)];
	if (inet_pton(AF_INET, host, bytes) == 1) {
		*out_len = sockaddr_from_bytes(bytes, 4, (uint16_t)port, out);
		return true;
	}
	if (inet_pton(AF_INET6, host, bytes) == 1) {
		*out_len = sockaddr_from_bytes(bytes, 16, (uint16_t)port, out);
		return true;
	}
bad:
	if (err)
		snprintf(err, err_size, "'%s' is not ADDR, ADDR:PORT or [IPV6]:PORT", text);
	return false;
}

socklen_t sockaddr_from_bytes(const void *bytes, size_t len, uint16_t port,
                              struct sockaddr_storage *out)
{
	if (len == 4) {
		struct sockaddr_in *v4 = (struct sockaddr_in *)out;
		memset(out, 0, sizeof(*out));
		v4->sin_family = AF_INET;
		v4->sin_port = htons(port);
		memcpy(&v4->sin_addr, bytes, 4);
		return sizeof(*v4);
	}
	if (len == 16) {
		struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)out;
		memset(out, 0, sizeof(*out));
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons(port);
		memcpy(&v6->sin6_addr, bytes, 16);
		return sizeof(*v6);
	}
	return 0;
}

char *sockaddr_format(const struct sockaddr *addr, char *buf, size_t buf_size)
{
	char host[INET6_ADDRSTRLEN];
	if (addr->sa_family == AF_INET) {
		const struct sockaddr_in *v4 = (const struct sockaddr_in *)addr;
		inet_ntop(AF_INET, &v4->sin_addr, host, sizeof(host));
		snprintf(buf, buf_size, "%s:%u", host, ntohs(v4->sin_port));
	} else if (addr->sa_family == AF_INET6) {
		const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)addr;
		inet_ntop(AF_INET6, &v6->sin6_addr, host, sizeof(host));
		snprintf(buf, buf_size, "[%s]:%u", host, ntohs(v6->sin6_port));
	} else {
		snprintf(buf, buf_size, "(family %d)", addr->sa_family);
	}
	return buf;
}

int sockaddr_port(const struct sockaddr *addr)
{
	if (addr->sa_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)addr)->sin_port);
	if (addr->sa_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)addr)->sin6_port);
	return -1;
}

bool sockaddr_is_loopback(const struct sockaddr *addr)
{
	if (addr->sa_family == AF_INET) {
		const struct sockaddr_in *v4 = (const struct sockaddr_in *)addr;
		return (ntohl(v4->sin_addr.s_addr) >> 24) == 127;
	}
	if (addr->sa_family == AF_INET6)
		return IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)addr)->sin6_addr);
	return false;
}
