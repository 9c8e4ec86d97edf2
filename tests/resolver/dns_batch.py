#!/usr/bin/env python3
# tests/resolver/dns_batch.py ADDR PORT < "NAME TYPE" lines - asks each question over UDP (8 at a time)
# and prints "NAME TYPE RCODE RR..." per question, RRs as "type:hex-rdata" sorted (TTLs left out so
# answers compare across runs). TIMEOUT when no answer came in 4 s. TYPE may be a name of TYPES or TYPEnnn.
import random
import socket
import struct
import sys

TYPES = {"A": 1, "NS": 2, "CNAME": 5, "SOA": 6, "PTR": 12, "HINFO": 13, "MX": 15, "TXT": 16, "AAAA": 28,
         "SRV": 33, "ANY": 255}
RCODES = {0: "NOERROR", 1: "FORMERR", 2: "SERVFAIL", 3: "NXDOMAIN", 4: "NOTIMP", 5: "REFUSED"}


def wire_name(text):
    out = b""
    for label in [l for l in text.split(".") if l]:
        out += bytes([len(label)]) + label.encode()
    return out + b"\0"


def skip_name(pkt, pos):
    while True:
        n = pkt[pos]
        if n & 0xC0 == 0xC0:
            return pos + 2
        pos += n + 1
        if n == 0:
            return pos


def type_code(text):
    return TYPES[text] if text in TYPES else int(text[4:])


def parse(pkt):
    qid, flags, qd, an = struct.unpack("!HHHH", pkt[:8])
    pos = 12
    for _ in range(qd):
        pos = skip_name(pkt, pos) + 4
    rrs = []
    for _ in range(an):
        pos = skip_name(pkt, pos)
        rtype, _cls, _ttl, rdlen = struct.unpack("!HHIH", pkt[pos:pos + 10])
        pos += 10
        rdata = pkt[pos:pos + rdlen]
        pos += rdlen
        # names in rdata may be compressed differently between answers: compare only fixed types
        rrs.append(f"{rtype}:{rdata.hex() if rtype in (1, 13, 16, 28) else len(rdata)}")
    return qid, RCODES.get(flags & 0xF, str(flags & 0xF)), sorted(rrs)


def main():
    addr, port = sys.argv[1], int(sys.argv[2])
    questions = [line.split() for line in sys.stdin if line.strip()]
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.settimeout(4)
    results = {}
    for start in range(0, len(questions), 8):
        pending = {}
        for name, qtype in questions[start:start + 8]:
            qid = random.randrange(65536)
            while qid in pending:
                qid = random.randrange(65536)
            pending[qid] = (name, qtype)
            q = struct.pack("!HHHHHH", qid, 0x0100, 1, 0, 0, 0) + wire_name(name) + struct.pack("!HH", type_code(qtype), 1)
            sock.sendto(q, (addr, port))
        while pending:
            try:
                pkt = sock.recv(65535)
            except socket.timeout:
                break
            qid, rcode, rrs = parse(pkt)
            if qid in pending:
                results[pending.pop(qid)] = (rcode, rrs)
    for name, qtype in questions:
        rcode, rrs = results.get((name, qtype), ("TIMEOUT", []))
        print(name, qtype, rcode, " ".join(rrs))


if __name__ == "__main__":
    main()
