#!/usr/bin/env python3
"""scenarios/daemons/lib/footprint_table.py - request footprint of every row of a footprint run.

usage: footprint_table.py RUN_DIR

Reads RUN_DIR/timeline.csv (docs/run-folder.md) and, when present, RUN_DIR/sizes/NAME.jsonl with
RUN_DIR/sizes/origin_unix_s (scenarios/footprint.sh), and writes RUN_DIR/footprint.json and
RUN_DIR/footprint.md. Per row and spike:
- before: mean live_bytes and inflight over the 3 s before the spike starts (the quick schedule
  has a 4 s baseline after its warm-up);
- peak: the highest live_bytes and the highest inflight from the spike's start to 3 s after its end
  (the daemons' inflight comes every 2 s through the sidecar, so the two maxima are taken apart);
- after: mean over the last 5 s of the recovery that follows;
- bytes per request in flight, two ways: rise = (peak - before) / (peak inflight - before inflight),
  drain = (peak - after) / (peak inflight - after inflight). The rise counts what the spike added
  to the cache too; the drain only what left again with the requests.
- fit: the least-squares slope of live bytes on inflight over every poll from the baseline on
  whose inflight figure is fresh (at most 0.6 s old), with its polls and r2;
- traffic: offered, answered, timeouts, SERVFAIL over the spike and its 3 s tail, peak inflight.
Size mix (from the sampler's size_classes): live bytes by class at idle (the poll with the least
live bytes outside the spikes and their tails, from 4 s before the first spike on)
and at each spike's highest live_bytes poll, grouped <=256 B, <=4 KiB, >4 KiB, and the same for the
increase (peak - idle), which is what the requests in flight hold.
"""
import csv
import json
import os
import statistics
import sys

GROUPS = (("le256", 256), ("le4k", 4096), ("gt4k", None))
FRESH_S = 0.6  # a poll's inflight figure older than this is left out of the fit


def num(v):
    try:
        return float(v) if v not in ("", None) else None
    except ValueError:
        return None


def load_timeline(path):
    rows = {}
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if r["variant"].startswith("_"):
                continue
            rows.setdefault(r["variant"], []).append(r)
    return rows


def mean_of(rows, key):
    vals = [num(r[key]) for r in rows if num(r[key]) is not None]
    return (statistics.fmean(vals), len(vals)) if vals else (None, 0)


def max_of(rows, key):
    vals = [num(r[key]) for r in rows if num(r[key]) is not None]
    return max(vals) if vals else None


def group_bytes(classes, key="live_bytes"):
    """Bytes of the size_classes object grouped <=256, <=4096, >4096."""
    out = {g: 0 for g, _ in GROUPS}
    for limit, v in zip(classes["le"], classes[key]):
        for g, top in GROUPS:
            if top is None or (limit is not None and limit <= top):
                out[g] += v
                break
    return out


def shares(groups):
    total = sum(groups.values())
    return {g: (round(v / total, 3) if total > 0 else None) for g, v in groups.items()}


def ratio(num_, den):
    return round(num_ / den) if num_ is not None and den and den > 0 else None


def spike_windows(rows):
    """{spike: (start, end)} from the timeline's phases."""
    win = {}
    for r in rows:
        if r["phase"] == "spike":
            k, t = int(r["spike"]), float(r["t_s"])
            lo, hi = win.get(k, (t, t))
            win[k] = (min(lo, t), max(hi, t))
    return dict(sorted(win.items()))


def variant_footprint(rows, polls):
    spikes = []
    wins = spike_windows(rows)
    idle = None
    if polls and wins:
        # The quietest poll outside the spikes (and their 3 s tails) from the baseline on: after
        # the warm-up, the requests a spike leaves have drained by the end of each recovery.
        first = min(s for s, _ in wins.values())
        quiet = [p for p in polls if p["t_s"] >= first - 4 and p.get("size_classes") and p.get("live_bytes") is not None
                 and not any(s - 0.5 <= p["t_s"] <= e + 3 for s, e in wins.values())]
        idle = min(quiet, key=lambda p: p["live_bytes"]) if quiet else None
    for k, (start, end) in wins.items():
        t = lambda r: float(r["t_s"])
        before = [r for r in rows if start - 3 <= t(r) < start - 0.1]
        during = [r for r in rows if start - 0.1 <= t(r) <= end + 3]
        nxt = [s for s, _ in wins.values() if s > end]
        rec_end = (min(nxt) - 0.5) if nxt else max(t(r) for r in rows)
        after = [r for r in rows if rec_end - 5 <= t(r) <= rec_end and t(r) > end + 3]
        b_live, n_b = mean_of(before, "live_bytes")
        b_inf, _ = mean_of(before, "inflight")
        a_live, n_a = mean_of(after, "live_bytes")
        a_inf, _ = mean_of(after, "inflight")
        p_live, p_inf = max_of(during, "live_bytes"), max_of(during, "inflight")
        sums = {key: sum(num(r[key]) or 0 for r in during)
                for key in ("offered", "sent", "answered", "timeouts", "servfail", "noerror", "nxdomain")}
        s = {"spike": k, "start_s": start, "end_s": end, "samples_before": n_b, "samples_during": len(during),
             "samples_after": n_a, "live_before": b_live, "live_peak": p_live, "live_after": a_live,
             "inflight_before": b_inf, "inflight_peak": p_inf, "inflight_after": a_inf,
             "bytes_per_req_rise": ratio(p_live - b_live if p_live is not None and b_live is not None else None,
                                         (p_inf - b_inf) if p_inf is not None and b_inf is not None else None),
             "bytes_per_req_drain": ratio(p_live - a_live if p_live is not None and a_live is not None else None,
                                          (p_inf - a_inf) if p_inf is not None and a_inf is not None else None),
             **sums}
        if polls:
            inside = [p for p in polls if start <= p["t_s"] <= end + 3 and p.get("size_classes")]
            if inside:
                top = max(inside, key=lambda p: p["live_bytes"] or 0)
                s["size_mix_peak"] = shares(group_bytes(top["size_classes"]))
                s["poll_peak_live_bytes"] = top["live_bytes"]
                if idle:
                    gp, gi = group_bytes(top["size_classes"]), group_bytes(idle["size_classes"])
                    inc = {g: max(0, gp[g] - gi[g]) for g in gp}
                    s["size_mix_increase"] = shares(inc)
                    s["increase_bytes"] = inc
                    ap = group_bytes(top["size_classes"], "allocs")
                    ai = group_bytes(idle["size_classes"], "allocs")
                    s["allocs_during"] = {g: ap[g] - ai[g] for g in ap}
                    s["increase_by_class"] = [
                        {"le": le, "blocks": top["size_classes"]["live_blocks"][i] - idle["size_classes"]["live_blocks"][i],
                         "bytes": top["size_classes"]["live_bytes"][i] - idle["size_classes"]["live_bytes"][i]}
                        for i, le in enumerate(top["size_classes"]["le"])
                        if top["size_classes"]["live_bytes"][i] != idle["size_classes"]["live_bytes"][i]]
        spikes.append(s)
    out = {"spikes": spikes, "fit": fit_live_on_inflight(polls, wins)}
    if idle:
        out["size_mix_idle"] = shares(group_bytes(idle["size_classes"]))
        out["live_idle_poll"] = idle["live_bytes"]
    return out


def fit_live_on_inflight(polls, wins):
    """Least-squares slope of live bytes on requests in flight over the polls from the baseline on
    whose inflight figure is at most FRESH_S old (a daemon's comes through the sidecar): bytes per
    request in flight from every poll, not only the peaks. None with fewer than 10 such polls."""
    first = min((s for s, _ in wins.values()), default=0)
    pts = [(p["inflight"], p["live_bytes"]) for p in polls
           if p["t_s"] >= first - 4 and p.get("inflight") is not None and p.get("live_bytes") is not None
           and p.get("inflight_age_s") is not None and 0 <= p["inflight_age_s"] <= FRESH_S]
    if len(pts) < 10:
        return {"polls": len(pts), "bytes_per_req": None, "r2": None}
    mx, my = statistics.fmean(x for x, _ in pts), statistics.fmean(y for _, y in pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    sxy = sum((x - mx) * (y - my) for x, y in pts)
    syy = sum((y - my) ** 2 for _, y in pts)
    if sxx == 0 or syy == 0:
        return {"polls": len(pts), "bytes_per_req": None, "r2": None}
    return {"polls": len(pts), "bytes_per_req": round(sxy / sxx), "r2": round(sxy * sxy / (sxx * syy), 3),
            "inflight_max": max(x for x, _ in pts)}


def median(vals):
    vals = [v for v in vals if v is not None]
    return (round(statistics.median(vals)), min(vals), max(vals), len(vals)) if vals else (None, None, None, 0)


def fmt_mix(m):
    if not m:
        return "n/a"
    return " / ".join("-" if m[g] is None else f"{round(100 * m[g])}" for g, _ in GROUPS)


def markdown(result):
    lines = ["| row | bytes/req in flight, rise (median, min-max, spikes) | drain (median, min-max) | fit (polls, r2) | "
             "peak in flight (max) | size mix of increase, % <=256 B / <=4 KiB / >4 KiB | mix at idle | "
             "answered / offered in spikes | timeouts | SERVFAIL |", "|" + " --- |" * 10]
    for name, v in result.items():
        sp = v["spikes"]
        rise, drain = median([s["bytes_per_req_rise"] for s in sp]), median([s["bytes_per_req_drain"] for s in sp])
        peak = max([s["inflight_peak"] or 0 for s in sp], default=0)
        inc = {g: sum(s.get("increase_bytes", {}).get(g, 0) for s in sp) for g, _ in GROUPS}
        offered = sum(s["offered"] for s in sp)
        answered = sum(s["answered"] for s in sp)
        lines.append(
            f"| {name} | {rise[0]} ({rise[1]}-{rise[2]}, {rise[3]}) | {drain[0]} ({drain[1]}-{drain[2]}) | "
            f"{v['fit']['bytes_per_req']} ({v['fit']['polls']}, {v['fit']['r2']}) | "
            f"{peak:.0f} | {fmt_mix(shares(inc)) if sum(inc.values()) else 'n/a'} | {fmt_mix(v.get('size_mix_idle'))} | "
            f"{answered:.0f} / {offered:.0f} | {sum(s['timeouts'] for s in sp):.0f} | "
            f"{sum(s['servfail'] for s in sp):.0f} |")
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) != 2:
        print("usage: footprint_table.py RUN_DIR", file=sys.stderr)
        return 2
    run = argv[1]
    try:
        timeline = load_timeline(os.path.join(run, "timeline.csv"))
    except OSError as e:
        print(f"footprint_table.py: {e}", file=sys.stderr)
        return 1
    origin = None
    try:
        with open(os.path.join(run, "sizes", "origin_unix_s"), encoding="utf-8") as f:
            origin = float(f.read().strip())
    except (OSError, ValueError):
        pass
    result = {}
    for name, rows in timeline.items():
        polls = []
        path = os.path.join(run, "sizes", name + ".jsonl")
        if origin is not None and os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                for line in f:
                    try:
                        p = json.loads(line)
                    except ValueError:
                        continue
                    p["t_s"] = p["unix_s"] - origin
                    polls.append(p)
        result[name] = variant_footprint(rows, polls)
    with open(os.path.join(run, "footprint.json"), "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)
    with open(os.path.join(run, "footprint.md"), "w", encoding="utf-8") as f:
        f.write(markdown(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
