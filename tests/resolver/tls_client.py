#!/usr/bin/env python3
"""tests/resolver/tls_client.py - DNS-over-TLS clients kdig cannot be: many connections held open,
and a client that sends garbage instead of a TLS ClientHello.

usage: tls_client.py ADDR PORT hold tls|tcp N SECONDS   N connections (TLS: handshake done) held for
                                                     SECONDS; prints "ready" once all are open
       tls_client.py ADDR PORT resume                  two connections asking www.example.test A, the
                                                     second offering the first's session: prints
                                                     each answer's rcode and "resumed" or "full"
       tls_client.py ADDR PORT garbage                 prints "closed" when the server closes
                                                     within 5 s, else "open"
"""
import socket
import ssl
import sys
import time


def connect(addr, port):
    return socket.create_connection((addr, port), timeout=5)


def context():
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE  # the test's certificate is made up
    return ctx


def ask(conn):
    """www.example.test A over conn; the answer's rcode name."""
    qname = b"".join(bytes([len(label)]) + label for label in b"www.example.test".split(b".")) + b"\0"
    query = b"\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00" + qname + b"\x00\x01\x00\x01"
    conn.sendall(len(query).to_bytes(2, "big") + query)
    data = b""
    while len(data) < 2 or len(data) < 2 + int.from_bytes(data[:2], "big"):
        chunk = conn.recv(4096)
        if not chunk:
            return "closed"
        data += chunk
    return {0: "NOERROR", 2: "SERVFAIL", 3: "NXDOMAIN"}.get(data[5] & 15, "other")


def resume(addr, port):
    ctx = context()
    first = ctx.wrap_socket(connect(addr, port))
    print(ask(first))  # the answer comes after the session ticket (TLS 1.3)
    session = first.session
    first.close()
    second = ctx.wrap_socket(connect(addr, port), session=session)
    print(ask(second))
    print("resumed" if second.session_reused else "full")
    second.close()


def hold(addr, port, kind, n, seconds):
    ctx = context()
    conns = []
    for _ in range(n):
        s = connect(addr, port)
        conns.append(ctx.wrap_socket(s) if kind == "tls" else s)
    print("ready", flush=True)
    time.sleep(seconds)
    for s in conns:
        s.close()


def garbage(addr, port):
    s = connect(addr, port)
    s.sendall(b"GET / HTTP/1.0\r\nHost: not-tls\r\n\r\n" + bytes(range(256)))
    s.settimeout(5)
    try:
        while s.recv(4096):
            pass
        print("closed")
    except (socket.timeout, TimeoutError):
        print("open")
    except ConnectionResetError:
        print("closed")


def main():
    addr, port, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if mode == "hold":
        hold(addr, port, sys.argv[4], int(sys.argv[5]), float(sys.argv[6]))
    elif mode == "resume":
        resume(addr, port)
    elif mode == "garbage":
        garbage(addr, port)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
