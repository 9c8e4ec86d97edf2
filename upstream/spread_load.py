#!/usr/bin/env python3
# upstream/spread_load.py STEPS PORT RATE SECONDS [FROM_PREFIX TO_PREFIX] - benchmark.sh's spread
# load: sends the questions of a --mix-steps file ("ADDR NAME TYPE" lines, each to the server a
# resolver asks) round and round, RATE a second (0: as fast as it can), for SECONDS; prints "sent
# replies". FROM_PREFIX TO_PREFIX: addresses starting with the one are sent to the other (knotd's
# block). Loopback only: refuses an address outside 127.0.0.0/8.
import socket
import struct
import sys
import time


def wire_name(text):
    out = b""
    for label in [l for l in text.split(".") if l]:
        out += bytes([len(label)]) + label.encode()
    return out + b"\0"


def main():
    steps, port, rate, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
    remap = sys.argv[5:7] if len(sys.argv) >= 7 else None
    load = []
    with open(steps) as f:
        for line in f:
            addr, name, qtype = line.split()
            if remap and addr.startswith(remap[0]):
                addr = remap[1] + addr[len(remap[0]):]
            if not addr.startswith("127."):
                sys.exit("spread_load.py: %s: %s is not a loopback address" % (steps, addr))
            # the header after the ID: no RD, one question, an EDNS 1232 OPT as resolvers send
            q = (struct.pack(">HHHHH", 0, 1, 0, 0, 1) + wire_name(name) + struct.pack(">HH", int(qtype), 1) +
                 b"\0" + struct.pack(">HHIH", 41, 1232, 0, 0))
            load.append(((addr, port), q))
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8 << 20)
    s.bind(("127.0.0.1", 0))
    s.setblocking(False)
    sent = replies = 0
    start = time.monotonic()
    end = start + seconds
    i = 0
    while True:
        now = time.monotonic()
        if now >= end:
            break
        due = int((now - start) * rate) if rate > 0 else sent + 64
        while sent < due:
            dest, q = load[i]
            i = (i + 1) % len(load)
            try:
                s.sendto(struct.pack(">H", sent & 0xFFFF) + q, dest)
            except BlockingIOError:
                pass
            sent += 1
        while True:
            try:
                s.recv(65536)
                replies += 1
            except BlockingIOError:
                break
        if rate > 0:
            time.sleep(0.0005)
    # late replies (the worlds' delays) for a moment after the end
    s.setblocking(True)
    s.settimeout(0.5)
    try:
        for _ in range(sent):
            s.recv(65536)
            replies += 1
    except socket.timeout:
        pass
    print(sent, replies)


main()
