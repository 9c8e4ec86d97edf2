#!/usr/bin/env python3
# resolver/fuzz/make_corpus.py - writes the seed corpus for fuzz_packet.c into resolver/fuzz/corpus/.
# Seeds follow fuzz_packet.c's input format: byte 0 = layout bit | path bit << 1.
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def name(text):
    out = b""
    for label in [l for l in text.split(".") if l]:
        out += bytes([len(label)]) + label.encode()
    return out + b"\0"


def rr(owner, rtype, ttl, rdata):
    return name(owner) + struct.pack("!HHIH", rtype, 1, ttl, len(rdata)) + rdata


def soa(zone):
    return name("ns1." + zone) + name("admin." + zone) + struct.pack("!IIIII", 1, 7200, 900, 1209600, 60)


def msg(qname, qtype, flags=0x8000, an=(), ns=(), ar=(), edns=True, qid=0x1234):
    ar = list(ar) + ([b"\0" + struct.pack("!HHIH", 41, 1232, 0, 0)] if edns else [])
    head = struct.pack("!HHHHHH", qid, flags, 1, len(an), len(ns), len(ar))
    return head + name(qname) + struct.pack("!HH", qtype, 1) + b"".join(an) + b"".join(ns) + b"".join(ar)


A, NS, CNAME, SOA, MX, TXT = 1, 2, 5, 6, 15, 16
AA, TC = 0x0400, 0x0200
Q = "www.example.test"
ip = lambda *b: bytes(b)

root_ref = msg(Q, A, an=(), ns=[rr("test", NS, 86400, name("ns.test"))], ar=[rr("ns.test", A, 86400, ip(127, 0, 0, 2))])
tld_ref = msg(Q, A, ns=[rr("example.test", NS, 3600, name("ns1.example.test"))],
              ar=[rr("ns1.example.test", A, 3600, ip(127, 0, 0, 3))])
answer = msg(Q, A, flags=0x8000 | AA, an=[rr(Q, A, 300, ip(192, 0, 2, 1)), rr(Q, A, 300, ip(192, 0, 2, 2))],
             ar=[rr("www.victim.test", A, 300, ip(203, 0, 113, 66))])
cname = msg(Q, A, flags=0x8000 | AA, an=[rr(Q, CNAME, 300, name("c2.example.test")),
                                         rr("c2.example.test", CNAME, 300, name("host.other.test"))])
nx = msg(Q, A, flags=0x8003 | AA, ns=[rr("example.test", SOA, 3600, soa("example.test"))])
nodata = msg(Q, A, flags=0x8000 | AA, ns=[rr("example.test", SOA, 3600, soa("example.test"))])
glueless = msg(Q, A, ns=[rr("example.test", NS, 3600, name("ns.hosting.test"))])
truncated = msg(Q, A, flags=0x8000 | AA | TC)


def chain(*pkts):
    return b"".join(struct.pack("!H", len(p)) + p for p in pkts)


seeds = {
    "client-a": b"\0" + msg(Q, A, flags=0x0100, qid=7, edns=False),
    "client-a-edns-kresd": b"\1" + msg(Q, A, flags=0x0100, qid=7),
    "client-mx": b"\0" + msg("mail.example.test", MX, flags=0x0100),
    "client-garbage": b"\1" + b"\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\xc0\x0c\x00\x01\x00\x01",
    "up-referrals-answer": b"\2" + chain(root_ref, tld_ref, answer),
    "up-referrals-answer-kresd": b"\3" + chain(root_ref, tld_ref, answer),
    "up-cname": b"\3" + chain(root_ref, tld_ref, cname, root_ref, tld_ref, answer),
    "up-nxdomain": b"\2" + chain(root_ref, tld_ref, nx),
    "up-nodata": b"\3" + chain(root_ref, tld_ref, nodata),
    "up-glueless": b"\2" + chain(root_ref, glueless, root_ref, tld_ref, answer),
    "up-truncated": b"\3" + chain(root_ref, tld_ref, truncated, answer),
}
os.makedirs(OUT, exist_ok=True)
for key, data in seeds.items():
    with open(os.path.join(OUT, key), "wb") as f:
        f.write(data)
print(f"wrote {len(seeds)} seeds to {OUT}")
