#!/usr/bin/env python3
"""tests/querydata/make_capture.py - writes a small crafted capture (pcap or pcapng, any link type
allocspike reads) whose DNS queries, times and transports are known: the expected replay plan is
printed on stdout. Used by capture.sh; the fuzz target's seeds come from it too.

usage: make_capture.py FORMAT LINK OUT   FORMAT pcap|pcap-ns|pcapng, LINK ethernet|sll|sll2|null|raw
"""
import io
import struct
import sys

T0 = 1700000000 * 10**9 + 123456000  # the first frame's time, in ns (a whole microsecond)
MS = 10**6


def checksum_free_ipv4(src, dst, proto, payload):
    # checksums are not looked at by the reader: left zero
    total = 20 + len(payload)
    return struct.pack("!BBHHHBBH4s4s", 0x45, 0, total, 1, 0x4000, 64, proto, 0, bytes(src),
                       bytes(dst)) + payload


def ipv6(src, dst, proto, payload):
    return struct.pack("!IHBB16s16s", 6 << 28, len(payload), proto, 64, bytes(src),
                       bytes(dst)) + payload


def udp(sport, dport, payload):
    return struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload


def tcp(sport, dport, seq, flags, payload=b""):
    return struct.pack("!HHIIBBHHH", sport, dport, seq & 0xffffffff, 0, 5 << 4, flags, 65535, 0,
                       0) + payload


def dns_name(name):
    out = b""
    for label in name:
        out += bytes([len(label)]) + label
    return out + b"\0"


def query(qid, labels, qtype, qr=0):
    flags = 0x0100 | (0x8000 if qr else 0)
    return struct.pack("!HHHHHH", qid, flags, 1, 0, 0, 0) + dns_name(labels) + struct.pack(
        "!HH", qtype, 1)


def tcp_framed(msg):
    return struct.pack("!H", len(msg)) + msg


V4C1 = [192, 0, 2, 1]
V4C3 = [192, 0, 2, 3]
V4S = [192, 0, 2, 53]
V6C1 = [0x20, 0x01, 0x0d, 0xb8] + [0] * 11 + [1]
V6C2 = [0x20, 0x01, 0x0d, 0xb8] + [0] * 11 + [2]
V6S = [0x20, 0x01, 0x0d, 0xb8] + [0] * 11 + [0x53]
SYN, FIN, ACK, PSH = 0x02, 0x01, 0x10, 0x08


def frames():
    """(time offset ns, family, IP packet) in capture order, and the expected plan lines."""
    q1 = query(1, [b"q1", b"example"], 15)   # MX
    q2 = query(2, [b"q2", b"example"], 16)   # TXT
    stream = tcp_framed(q1) + tcp_framed(q2)
    cut = len(tcp_framed(q1)) + 5
    seq = 1000
    f = [
        (0, 4, checksum_free_ipv4(V4C1, V4S, 17, udp(40000, 53, query(7, [b"www", b"example", b"com"], 1)))),
        (1500 * 1000, 6, ipv6(V6C1, V6S, 17, udp(40001, 53, query(8, [b"a", b"example"], 28)))),
        (2 * MS, 4, checksum_free_ipv4(V4S, V4C1, 17, udp(53, 40000, query(7, [b"www", b"example", b"com"], 1, qr=1)))),
        (3 * MS, 4, checksum_free_ipv4(V4C1, V4S, 1, b"\x08\x00\x00\x00\x00\x01\x00\x01")),  # ICMP echo
        (4 * MS, 4, checksum_free_ipv4(V4C1, V4S, 6, tcp(40002, 53, seq, SYN))),
        (5 * MS, 4, checksum_free_ipv4(V4C1, V4S, 6, tcp(40002, 53, seq + 1, ACK | PSH, stream[:cut]))),
        (6 * MS, 4, checksum_free_ipv4(V4C1, V4S, 6, tcp(40002, 53, seq + 1 + cut, ACK | PSH, stream[cut:]))),
        (7 * MS, 4, checksum_free_ipv4(V4C1, V4S, 6, tcp(40002, 53, seq + 1, ACK | PSH, stream[:cut]))),  # retransmission
        (8 * MS, 6, ipv6(V6C2, V6S, 6, tcp(40003, 53, 5000, SYN))),
        (8 * MS + 500 * 1000, 6, ipv6(V6C2, V6S, 6, tcp(40003, 53, 5001 + 100, ACK | PSH, tcp_framed(q1)))),  # a gap
        (9 * MS, 4, checksum_free_ipv4(V4C3, V4S, 17, udp(40004, 53, b"\x00\x01\x00\x00\x00\x01"))),  # short DNS
        (10 * MS, 4, checksum_free_ipv4(V4C3, V4S, 17, udp(40005, 53, query(9, [b"we ird.x", b"test"], 65280)))),
        (11 * MS, 6, ipv6(V6C1, V6S, 6, tcp(40006, 53, 7000, SYN))),
        (12 * MS, 6, ipv6(V6C1, V6S, 6, tcp(40006, 53, 7001, ACK | PSH, tcp_framed(query(10, [], 2))))),
        (13 * MS, 4, checksum_free_ipv4(V4C1, V4S, 6, tcp(40002, 53, seq + 1 + len(stream), ACK | FIN))),
    ]
    plan = [
        "0.000000000 0 udp www.example.com. A",
        "0.001500000 1 udp a.example. AAAA",
        "0.004000000 0 tcp q1.example. MX",  # a connection's first query: at its SYN
        "0.006000000 0 tcp q2.example. TXT",
        "0.010000000 2 udp we\\032ird\\046x.test. TYPE65280",
        "0.011000000 1 tcp . NS",  # at its SYN too
    ]
    return f, plan


def link_frame(link, family, packet):
    if link == "ethernet":
        etype = 0x0800 if family == 4 else 0x86DD
        if family == 6:  # an 802.1Q tag on the IPv6 frames
            return b"\x02" * 6 + b"\x04" * 6 + struct.pack("!HHH", 0x8100, 42, etype) + packet
        return b"\x02" * 6 + b"\x04" * 6 + struct.pack("!H", etype) + packet
    etype = 0x0800 if family == 4 else 0x86DD
    if link == "sll":
        return struct.pack("!HHH8sH", 0, 772, 6, b"\0" * 8, etype) + packet
    if link == "sll2":
        return struct.pack("!HHIHBB8s", etype, 0, 1, 772, 0, 6, b"\0" * 8) + packet
    if link == "null":
        return struct.pack("<I", 2 if family == 4 else 10) + packet
    return packet  # raw


LINKTYPES = {"ethernet": 1, "sll": 113, "sll2": 276, "null": 0, "raw": 101}


def write_pcap(out, link, records, nano):
    magic = 0xA1B23C4D if nano else 0xA1B2C3D4
    out.write(struct.pack("<IHHiIII", magic, 2, 4, 0, 0, 65535, LINKTYPES[link]))
    for t, data in records:
        frac = t % 10**9 if nano else (t % 10**9) // 1000
        out.write(struct.pack("<IIII", t // 10**9, frac, len(data), len(data)) + data)


def pad4(b):
    return b + b"\0" * (-len(b) % 4)


def block(btype, body):
    total = 12 + len(body)
    return struct.pack("<II", btype, total) + body + struct.pack("<I", total)


def write_pcapng(out, link, records):
    out.write(block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1)))
    tsresol = struct.pack("<HH", 9, 1) + pad4(b"\x09")  # if_tsresol: nanoseconds
    out.write(block(1, struct.pack("<HHI", LINKTYPES[link], 0, 65535) + tsresol +
                    struct.pack("<HH", 0, 0)))
    for t, data in records:
        body = struct.pack("<IIIII", 0, t >> 32, t & 0xFFFFFFFF, len(data), len(data)) + pad4(data)
        out.write(block(6, body))


def capture_bytes(fmt, link):
    """The crafted capture in FORMAT over LINK, as bytes (tests/fuzz/make_corpus.py's seeds too)."""
    f, _ = frames()
    records = [(T0 + off, link_frame(link, fam, pkt)) for off, fam, pkt in f]
    out = io.BytesIO()
    if fmt == "pcapng":
        write_pcapng(out, link, records)
    else:
        write_pcap(out, link, records, fmt == "pcap-ns")
    return out.getvalue()


def main():
    fmt, link, path = sys.argv[1:4]
    with open(path, "wb") as out:
        out.write(capture_bytes(fmt, link))
    print("\n".join(frames()[1]))


if __name__ == "__main__":
    main()
