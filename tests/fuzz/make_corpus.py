#!/usr/bin/env python3
# tests/fuzz/make_corpus.py - writes the seed corpora of the binary fuzz targets into
# tests/fuzz/corpus/<target>/ (packet, glueless, dns_tcp, resolver_stream, hierarchy_request, capture); each follows its
# target's input format (the header comment of fuzz_<target>.c). The text targets' seeds are
# written by hand.
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "querydata"))
from make_capture import capture_bytes  # noqa: E402  (the crafted capture of tests/querydata)

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


NS1, NS2 = "ns1.hosting.test", "ns2.hosting.test"
ns1_answer = msg(NS1, A, flags=0x8000 | AA, an=[rr(NS1, A, 300, ip(127, 0, 0, 9))])
ns1_referral = msg(NS1, A, ns=[rr("hosting.test", NS, 3600, name("ns.hosting.test"))],
                   ar=[rr("ns.hosting.test", A, 3600, ip(127, 0, 0, 8))])
ns1_nx = msg(NS1, A, flags=0x8003 | AA, ns=[rr("hosting.test", SOA, 3600, soa("hosting.test"))])
ns1_cname = msg(NS1, A, flags=0x8000 | AA, an=[rr(NS1, CNAME, 300, name("ns1.example.test"))])
ns1_glueless_again = msg(NS1, A, ns=[rr("hosting.test", NS, 3600, name("ns.elsewhere.test"))])

seeds = {
    "packet": {
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
    },
    "glueless": {
        "answer-then-main": b"\0" + chain(ns1_answer, answer),
        "referral-answer-main-kresd": b"\1" + chain(ns1_referral, ns1_answer, answer),
        "nxdomain-then-ns2": b"\0" + chain(ns1_nx, msg(NS2, A, flags=0x8000 | AA,
                                                       an=[rr(NS2, A, 300, ip(127, 0, 0, 10))]), answer),
        "cname-into-parent": b"\1" + chain(ns1_cname, root_ref, tld_ref, answer),
        "glueless-again": b"\0" + chain(ns1_glueless_again, ns1_answer),
        "truncated": b"\0" + chain(msg(NS1, A, flags=0x8000 | AA | TC), ns1_answer, answer),
    },
    "dns_tcp": {
        "two-messages-whole": b"\xff" + chain(answer, nx),
        "byte-by-byte": b"\1" + chain(answer),
        "empty-message": b"\5" + b"\0\0" + chain(nodata),
        "length-past-end": b"\7" + b"\xff\xff" + answer,
    },
    "resolver_stream": {
        # byte 0: bit 0 layout, bits 1-7 piece size (0: at once)
        "pipelined-at-once": b"\0" + chain(msg(Q, A, flags=0x0100, qid=1), msg(Q, 255, flags=0x0100, qid=2),
                                          msg(Q, 250, flags=0x0100, qid=3, edns=False)),
        "byte-by-byte-kresd": b"\3" + chain(msg(Q, 255, flags=0x0100, qid=9)),
        "short-message": b"\0" + b"\0\5hello" + chain(msg(Q, 255, flags=0x0100)),
        "garbage-then-query": b"\x0a" + chain(b"\xff" * 20, msg(Q, 255, flags=0x0100)),
        "partial-prefix": b"\1" + chain(msg(Q, 255, flags=0x0100)) + b"\0",
    },
    "hierarchy_request": {
        "root-a": b"\0" + msg("www.example.com", A, flags=0x0000),
        "tld-a-tcp": b"\x85" + msg("www.example.com", A, flags=0x0000),
        "leaf-txt": b"\x20" + msg("big0.net", TXT, flags=0x0000, edns=False),
        "mx-uppercase": b"\x10" + msg("MaIl.ExAmPle.CoM", MX, flags=0x0000),
        "root-ns": b"\0" + msg("", NS, flags=0x0000),
        "response-bit": b"\0" + msg("www.example.com", A, flags=0x8000),
    },
    "capture": {
        # byte 0: bit 0 any server port; the capture file
        "ethernet-pcap": b"\0" + capture_bytes("pcap", "ethernet"),
        "sll-pcap-ns-any-port": b"\1" + capture_bytes("pcap-ns", "sll"),
        "sll2-pcapng": b"\0" + capture_bytes("pcapng", "sll2"),
        "null-pcapng": b"\0" + capture_bytes("pcapng", "null"),
        "raw-pcap": b"\1" + capture_bytes("pcap", "raw"),
    },
}
for target, files in seeds.items():
    os.makedirs(os.path.join(OUT, target), exist_ok=True)
    for key, data in files.items():
        with open(os.path.join(OUT, target, key), "wb") as f:
            f.write(data)
    print(f"wrote {len(files)} seeds to {os.path.join(OUT, target)}")
