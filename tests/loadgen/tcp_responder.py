#!/usr/bin/env python3
"""tests/loadgen/tcp_responder.py - a DNS-over-TCP responder misbehaving on purpose, for the
generator's TCP tests: every query gets its own question back with QR set (NOERROR, no records).

usage: tcp_responder.py ADDR READY_FILE MODE [N]
  reverse       answers each pair of queries on a connection in reverse order (a query left
                alone is answered after 0.5 s); one line 'reversed' per pair to stdout
  reset-after N answers N queries on a connection, then resets it (RST) on the next one
Listens on ADDR port 0 and writes 'ready ADDR:PORT' to READY_FILE once bound.
"""
import os
import socket
import struct
import sys
import threading

# the DNS-over-TCP framing the resolver's TCP test reads and writes with
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resolver"))
from tcp_client import framed, read_answer as read_query  # noqa: E402


def answer(query):
    flags = query[2] | 0x80  # QR
    return query[:2] + bytes([flags, query[3] & 0xF0]) + query[4:]


def serve_reverse(conn, out):
    held = None
    while True:
        conn.settimeout(0.5 if held else None)
        try:
            q = read_query(conn)
        except socket.timeout:
            conn.sendall(framed(answer(held)))
            held = None
            continue
        if q is None:
            return
        if held is None:
            held = q
            continue
        conn.sendall(framed(answer(q)) + framed(answer(held)))
        held = None
        with out:
            print("reversed", flush=True)


def serve_reset(conn, n):
    answered = 0
    while True:
        q = read_query(conn)
        if q is None:
            return
        if answered == n:
            # SO_LINGER with a zero timeout: close() sends RST instead of FIN
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            return
        conn.sendall(framed(answer(q)))
        answered += 1


def main():
    addr, ready, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((addr, 0))
    srv.listen(64)
    with open(ready, "w") as f:
        f.write("ready %s:%d\n" % srv.getsockname())
    out = threading.Lock()

    def serve(conn):
        try:
            if mode == "reverse":
                serve_reverse(conn, out)
            else:
                serve_reset(conn, n)
        except OSError:
            pass
        finally:
            conn.close()

    while True:
        conn, _ = srv.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


if __name__ == "__main__":
    main()
