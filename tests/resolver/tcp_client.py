#!/usr/bin/env python3
# tests/resolver/tcp_client.py ADDR PORT COMMAND ARGS... - DNS-over-TCP clients for tests/resolver/tcp.sh,
# each printing what it saw, one fact a line:
#   pipeline NAME/TYPE...  all queries in one write on one connection (IDs 1, 2, ...); prints
#                          "ID RCODE ANCOUNT TC" per answer in the order the answers arrived
#   pipeline-end NAME/TYPE...  the same, then the client ends its side (half-close) before reading
#   send HEX [HOLD_S]      writes the bytes, then reads until the server closes (or HOLD_S, default
#                          10, pass): "closed" or "open"
#   trickle NAME/TYPE GAP_S  one query a byte at a time, GAP_S apart: "closed" when the server
#                          closed the connection before the whole query went out, else the answer
#   hold N [QUERY]         opens N connections one after the other; on each with QUERY
#                          (NAME/TYPE) sends it without waiting; then prints per connection
#                          "N closed|open|answered" after 1 s
#   idle COUNT SECONDS     opens COUNT connections, sends nothing, waits SECONDS then prints how many
#                          the server had closed
import socket
import struct
import sys
import time

from dns_batch import RCODES, type_code, wire_name


def query(qid, name_type):
    name, qtype = name_type.split("/")
    msg = struct.pack("!HHHHHH", qid, 0x0100, 1, 0, 0, 0) + wire_name(name)
    return msg + struct.pack("!HH", type_code(qtype), 1)


def framed(msg):
    return struct.pack("!H", len(msg)) + msg


def connect(addr, port, timeout=10):
    return socket.create_connection((addr, port), timeout=timeout)


def read_exact(sock, n):
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return buf


def read_answer(sock):
    head = read_exact(sock, 2)
    if head is None:
        return None
    return read_exact(sock, struct.unpack("!H", head)[0])


def describe(msg):
    qid, flags, _qd, an = struct.unpack("!HHHH", msg[:8])
    return f"{qid} {RCODES.get(flags & 0xF, flags & 0xF)} {an} {'TC' if flags & 0x0200 else '-'}"


def closed_within(sock, seconds):
    """True when the server closed (EOF or reset) within seconds."""
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
        return True
    except socket.timeout:
        return False
    except ConnectionError:
        return True


def cmd_pipeline(addr, port, args, end=False):
    sock = connect(addr, port)
    sock.sendall(b"".join(framed(query(i + 1, q)) for i, q in enumerate(args)))
    if end:
        sock.shutdown(socket.SHUT_WR)
    for _ in args:
        msg = read_answer(sock)
        print(describe(msg) if msg else "closed")


def cmd_send(addr, port, args):
    sock = connect(addr, port)
    sock.sendall(bytes.fromhex(args[0]))
    print("closed" if closed_within(sock, float(args[1]) if len(args) > 1 else 10) else "open")


def cmd_trickle(addr, port, args):
    sock = connect(addr, port)
    data = framed(query(1, args[0]))
    try:
        for byte in data:
            sock.sendall(bytes([byte]))
            time.sleep(float(args[1]))
    except ConnectionError:
        print("closed")
        return
    msg = read_answer(sock)
    print(describe(msg) if msg else "closed")


def cmd_hold(addr, port, args):
    socks = []
    for i in range(int(args[0])):
        sock = connect(addr, port)
        if len(args) > 1:
            sock.sendall(framed(query(i + 1, args[1])))
        socks.append(sock)
        time.sleep(0.2)  # the server accepts each in turn: the order is the connections'
    time.sleep(1)
    for i, sock in enumerate(socks):
        sock.settimeout(0.2)
        try:
            got = sock.recv(4096)
            state = "answered" if got else "closed"
        except socket.timeout:
            state = "open"
        except ConnectionError:
            state = "closed"
        print(i + 1, state)


def cmd_idle(addr, port, args):
    socks = [connect(addr, port) for _ in range(int(args[0]))]
    time.sleep(float(args[1]))
    print(sum(closed_within(s, 0.05) for s in socks))


def main():
    addr, port, command, args = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    commands = {"pipeline": cmd_pipeline, "pipeline-end": lambda a, p, q: cmd_pipeline(a, p, q, True),
                "send": cmd_send, "trickle": cmd_trickle,
                "hold": cmd_hold, "idle": cmd_idle}
    if command not in commands:
        sys.exit(f"tcp_client.py: unknown command '{command}' (try: {', '.join(commands)})")
    commands[command](addr, port, args)


if __name__ == "__main__":
    main()
