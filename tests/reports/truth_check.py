#!/usr/bin/env python3
"""tests/reports/truth_check.py - the truth test: every number the report states is a figure of
summary.json.

Usage: truth_check.py RUN_DIR...   (exit 0: every sentence agrees with its figures; 1: a mismatch,
listed one a line; 2: usage or an unreadable folder)

For each run folder it reads the verdict sentences, the findings and the validity reasons of
summary.json, summary.md (its verdict, grid and traffic table) and report.html (the same sentences
on the page), and:
- finds the form of each sentence (or clause of a verdict sentence) in FORMS below, a map from
  wording to the summary.json figures it states. A sentence or clause of no known form fails, and so
  does a number in a known form that no figure accounts for: a new sentence cannot pass unchecked;
- compares every number with its figure, within the rounding of the digits printed;
- fails on a part above its whole (the allocator's kinds of held memory against what it holds;
  live memory at a spike's peak against the spike's peak anon RSS), held memory below zero, a share outside [0, 100 %],
  "gave back" where anon RSS did not fall, and two ranked figures within the agreement rule of
  repeated runs (10 %, or 1 MB: reports/spread.h) given different places.
"""
import html
import json
import math
import os
import re
import sys

REPORTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "reports")


def define(source, name):
    """The number a `#define NAME VALUE` line of reports/SOURCE gives: the report's thresholds are
    read where they are defined, so a changed one cannot leave the checker behind."""
    with open(os.path.join(REPORTS, source), encoding="utf-8") as f:
        for line in f:
            words = line.split()
            if len(words) >= 3 and words[:2] == ["#define", name]:
                return float(words[2])
    raise SystemExit(f"truth_check.py: no #define {name} in reports/{source}")


AGREE_SHARE = define("spread.h", "SPREAD_AGREE_SHARE")
AGREE_FLOOR_MB = define("spread.h", "SPREAD_HELD_FLOOR_MB")
RETURNED_SHARE = define("judgement.h", "RETURNED_SHARE")
CLIMB = define("judgement.h", "CLIMB_MB_PER_SPIKE")
TREND_MIN = 1 + int(define("judgement.h", "TREND_MIN_SPIKES"))  # spikes, the first included
MIN_SPIKES = int(define("validity.h", "VALIDITY_MIN_SPIKES"))
SHARE_MIN_GROWTH_MB = define("judgement.h", "SHARE_MIN_GROWTH_KB") / 1024
EACH_SPIKE_SHARE = round(100 * define("validity.h", "VALIDITY_MIN_EACH_SPIKE_ANSWERED_SHARE"))  # in %
NUMBER = re.compile(r"(?<![\w.])[+-]?\d+(?:,\d{3})*(?:\.\d+)?(?![\w])")


class Check:
    def __init__(self, where):
        self.where = where
        self.failures = []
        self.compared = 0

    def fail(self, what):
        self.failures.append(f"{self.where}: {what}")


def lookup(obj, path):
    """A dotted path into summary.json; an array of spikes is indexed by spike number."""
    for key in path.split("."):
        if isinstance(obj, list):
            obj = next((s for s in obj if str(s.get("spike")) == key), None)
        elif isinstance(obj, dict):
            obj = obj.get(key)
        else:
            return None
        if obj is None:
            return None
    return obj


def printed(text):
    t = text.replace(",", "")
    return float(t), len(t.split(".")[1]) if "." in t else 0


def agree(chk, label, text, want, scale=1.0, slack=0.0):
    """The printed number text states want * scale within the rounding of its digits."""
    chk.compared += 1
    if want is None or (isinstance(want, float) and math.isnan(want)):
        chk.fail(f"{label}: states {text}, the figure is null")
        return
    got, dec = printed(text)
    tol = 0.5 * 10 ** -dec * 1.0001 + 1e-9 + slack
    if abs(got - want * scale) > tol:
        chk.fail(f"{label}: states {text}, the figure is {want * scale:.6g}")


def equal_int(chk, label, text, want):
    chk.compared += 1
    if want is None or int(float(text)) != int(want):
        chk.fail(f"{label}: states {text}, the figure is {want}")


def share_in_range(chk, label, text):
    got, _ = printed(text)
    if not (0 <= got <= 100):
        chk.fail(f"{label}: a share of {text} %, outside [0, 100 %]")


# --- the forms ---------------------------------------------------------------------------------
# Each form: a regex (the whole sentence or clause) and a function (match, ctx) checking each group
# it names; ctx has summary, v (the variant's figures) and name. Groups a form checks are listed in
# its `numbers`: every number of the text must fall in one of them.

MB = 1 / 1024.0


def per_variant(ctx, name):
    v = ctx["summary"]["variants"].get(name)
    if v is None:
        ctx["chk"].fail(f"names a variant '{name}' the summary does not have")
    return v or {}


def last_spike_with(v, key):
    for sp in reversed(v.get("spikes") or []):
        if sp.get(key) is not None:
            return sp
    return {}


def f_incomplete(m, ctx):
    agree(ctx["chk"], "recorded up to", m["t"], lookup(ctx["summary"], "run.last_t_s"))


def f_timeline_covers(m, ctx):
    s, chk = ctx["summary"], ctx["chk"]
    agree(chk, "timeline covers", m["last"], lookup(s, "run.last_t_s"))
    agree(chk, "schedule length", m["planned"], lookup(s, "run.schedule_duration_s"))
    equal_int(chk, "spikes recorded", m["n"], s.get("spike_count"))
    equal_int(chk, "spikes planned", m["of"], lookup(s, "run.schedule_spikes"))


def give_back_counted(chk, name, v, m, mode):
    """Per-spike give-back words against the spikes themselves (reports/spike_shape.c
    give_back_per_spike): mode "each", "kept" or "some" (R of N); the share range over the spikes
    with a share; a spike counted as given back where anon RSS did not fall fails."""
    attributed = v.get("attribution") not in (None, "unavailable")
    key = "held_returned_share" if attributed else "given_back_share"
    spikes = [sp for sp in v.get("spikes") or [] if sp.get(key) is not None]
    shares = [min(max(sp[key], 0), 1) * 100 for sp in spikes]
    returned = [sp for sp in spikes if sp[key] >= RETURNED_SHARE]
    for sp in returned:
        if not (sp.get("end_anon_kb") is not None and sp.get("peak_anon_kb") is not None
                and sp["end_anon_kb"] < sp["peak_anon_kb"]):
            chk.fail(f"{name}: spike {sp['spike']} counted as given back, anon RSS did not fall "
                     f"({sp.get('peak_anon_kb')} -> {sp.get('end_anon_kb')} kB)")
    if mode == "some":
        equal_int(chk, "spikes given back", m["r"], len(returned))
        equal_int(chk, "spikes with a share", m["n"], len(spikes))
    elif mode == "each" and len(returned) != len(spikes):
        chk.fail(f"{name}: 'what each spike freed', {len(returned)} of {len(spikes)} did")
    elif mode == "kept" and returned:
        chk.fail(f"{name}: 'kept what the spikes freed', {len(returned)} spikes gave back")
    for g in ("lo", "hi"):
        if m[g] is not None:
            share_in_range(chk, f"{name} give-back share", m[g])
    agree(chk, "lowest give-back share", m["lo"], min(shares) if shares else None)
    agree(chk, "highest give-back share", m["hi"] or m["lo"], max(shares) if shares else None)
    if m.groupdict().get("rlo") is not None:
        reused = [min(max(sp.get("held_reused_share") or 0, 0), 1) * 100 for sp in v.get("spikes") or []
                  if sp.get("held_reused_share") is not None]
        agree(chk, "lowest reused share", m["rlo"], min(reused) if reused else None)
        agree(chk, "highest reused share", m["rhi"] or m["rlo"], max(reused) if reused else None)


def give_back_mode(m):
    return "some" if m["r"] is not None else "kept" if m["kept"] else "each"


def f_rss_verdict(m, ctx):
    v, chk = per_variant(ctx, m["name"]), ctx["chk"]
    give_back_counted(chk, m["name"], v, m, give_back_mode(m))
    sp = last_spike_with(v, "end_anon_kb")
    agree(chk, f"{m['name']} anon at the end", m["end"], sp.get("end_anon_kb"), MB)
    agree(chk, f"{m['name']} anon at that peak", m["peak"], sp.get("peak_anon_kb"), MB)


def held_sentence_figures(m, ctx):
    v, chk = per_variant(ctx, m["name"]), ctx["chk"]
    if "na" in m.re.groupindex and m["na"] is not None:
        if v.get("spikes_left_na_reason") != m["na"] or v.get("spikes_left_mb") is not None:
            chk.fail(f"{m['name']}: held n/a because {m['na']}, summary.json: {v.get('spikes_left_na_reason')}")
        return v
    held = v.get("spikes_held_growth_kb")
    agree(chk, f"{m['name']} held after the spikes", m["held"], abs(held) if held is not None else None, MB)
    if held is not None and (m["dir"] == "less") != (held < 0) and round(abs(held) * MB, 1) != 0:
        chk.fail(f"{m['name']}: says '{m['dir']}', spikes_held_growth_kb is {held}")
    return v


def f_held_per_spike(m, ctx):
    v = held_sentence_figures(m, ctx)
    give_back_counted(ctx["chk"], m["name"], v, m, give_back_mode(m))


def f_held_no_part(m, ctx):
    held_sentence_figures(m, ctx)
    equal_int(ctx["chk"], "smallest part with a share (MB)", m["min"], SHARE_MIN_GROWTH_MB)


def f_live_growth(m, ctx):
    v, chk = per_variant(ctx, m["name"]), ctx["chk"]
    # the sentence names the spike and its live growth in one of two forms (with the cache, or not)
    spike, live = (m["spike"], m["live"]) if m["spike"] is not None else (m["spike2"], m["live2"])
    sp = lookup(v, f"spikes.{spike}") or {}
    if m["cache"] is not None:
        agree(chk, "cache growth", m["cache"], sp.get("cache_growth_kb"), MB)
    agree(chk, "live growth of the spike", live, sp.get("live_growth_kb"), MB)
    top = abs(sp.get("held_growth_kb") or 0)
    agree(chk, "held growth of the spike", m["top"], top, MB)
    agree(chk, "live growth over the spikes", m["all_live"], v.get("spikes_live_growth_kb"), MB)
    agree(chk, "held growth over the spikes", m["all_held"], abs(v.get("spikes_held_growth_kb") or 0), MB)


def f_mechanism(m, ctx):
    v, chk = per_variant(ctx, m["name"]), ctx["chk"]
    held = v.get("final_held_kb")
    if m["held"] is None:
        # n/a: live bytes above the heap at the last sample, so the parts say apart what live counts beyond it
        if m["na"] is None or not (v.get("final_live_not_resident_kb") or 0) > 0:
            chk.fail(f"{m['name']}: held n/a at the end without live bytes beyond the heap")
    else:
        agree(chk, f"{m['name']} held at the end", m["held"], held, MB)
    total = 0.0
    for kind in re.finditer(r"(\d+\.\d) MB in ", m["kinds"] or ""):
        total += float(kind[1])
        if held is not None and float(kind[1]) > held * MB + 0.05:
            chk.fail(f"{m['name']}: a part ({kind[1]} MB) above its whole ({held * MB:.1f} MB held)")
    if held is not None and total > held * MB + 0.05 * max(1, len(re.findall(' MB in ', m["kinds"] or ""))):
        chk.fail(f"{m['name']}: its parts add to {total:.1f} MB, above the {held * MB:.1f} MB held")
    parts = {k: v.get(k) for k in ("final_trimmable_kb", "final_fragmented_kb", "final_allocator_other_kb",
                                   "final_not_resident_kb")}
    for kind in re.finditer(r"(\d+\.\d) MB in (.*?)(?:, which [^;]*)?(?:;|$)", m["kinds"] or ""):
        if not any(x is not None and abs(float(kind[1]) - x * MB) <= 0.0501 for x in parts.values()):
            chk.fail(f"{m['name']}: '{kind[0].strip(';')}' is no figure of its held memory {parts}")
        chk.compared += 1
    if m["unmapped"] is not None:
        agree(chk, f"{m['name']} unmapped", m["unmapped"], v.get("final_unmapped_kb"), MB)
    if m["notres"] is not None:
        agree(chk, f"{m['name']} not resident", m["notres"], v.get("final_not_resident_kb"), MB)
    if m["livenr"] is not None:
        agree(chk, f"{m['name']} live not resident", m["livenr"], v.get("final_live_not_resident_kb"), MB)


def f_went_back(m, ctx):
    """Named as giving back: every spike gave back (give_back_per_spike); as keeping: none did."""
    chk, s = ctx["chk"], ctx["summary"]

    def counted(v):
        g = v.get("give_back_per_spike") or {}
        return g.get("given_back_spikes"), g.get("spikes")

    for who, should in ((m["returned"], True), (m["kept"], False)):
        for name in re.split(r", | and ", who):
            given, n = counted(per_variant(ctx, name))
            chk.compared += 1
            if not n or given != (n if should else 0):
                chk.fail(f"'{name}' {'returned' if should else 'kept'} memory, it gave back in {given} of {n} spikes")
    named = set(re.split(r", | and ", m["returned"] + " and " + m["kept"]))
    for name, v in s["variants"].items():
        given, n = counted(v)
        if n and given in (0, n) and name not in named:
            chk.fail(f"'Memory went back ...' leaves {name} out (gave back in {given} of {n} spikes)")


def theil_sen(points):
    """The median of the pairwise slopes (reports/fit.c fit_theil_sen, without its thinning)."""
    slopes = sorted((y2 - y1) / (x2 - x1) for i, (x1, y1) in enumerate(points)
                    for x2, y2 in points[i + 1:] if x2 != x1)
    if not slopes:
        return None
    k = len(slopes)
    return slopes[k // 2] if k % 2 else (slopes[k // 2 - 1] + slopes[k // 2]) / 2


def f_peaks(m, ctx):
    """The peaks' shape: the first spike's rise, the step of spike 2, the robust trend from spike 2
    on, recomputed here from the spikes' peaks (never a least-squares line)."""
    v, chk = per_variant(ctx, m["name"]), ctx["chk"]
    shape = v.get("peaks_shape") or {}
    spikes = v.get("spikes") or []
    points = [(sp["spike"], sp["peak_anon_kb"] * MB) for sp in spikes[1:] if sp.get("peak_anon_kb") is not None]
    trend = theil_sen(points)
    if len(spikes) < TREND_MIN or trend is None:
        chk.fail(f"{m['name']}: a trend of its peaks over {len(spikes)} spikes (too few: {TREND_MIN} or more)")
        return
    if m["first"] is not None:
        first = spikes[0]
        want = None
        if first.get("peak_anon_kb") is not None and first.get("before_anon_kb") is not None:
            want = (first["peak_anon_kb"] - first["before_anon_kb"]) * MB
        agree(chk, "first spike's rise", m["first"], want)
    if m["step"] is not None:
        equal_int(chk, "step spike", m["stepk"], spikes[1]["spike"])
        agree(chk, "step", m["step"], (spikes[1]["peak_anon_kb"] - spikes[0]["peak_anon_kb"]) * MB)
    word = m["word"] or "stayed level"
    want_word = "climbed" if trend >= CLIMB else "fell" if trend <= -CLIMB else "stayed level"
    if word != want_word:
        chk.fail(f"{m['name']}: its peaks '{word}', the robust trend is {trend:.3f} MB per spike")
    stated = m["trend"] if m["trend"] is not None else m["trend2"]
    agree(chk, "peaks' robust trend", stated, -trend if word == "fell" else trend)
    agree(chk, "peaks' trend in summary.json", stated,
          -shape.get("trend_mb_per_spike") if word == "fell" and shape.get("trend_mb_per_spike") is not None
          else shape.get("trend_mb_per_spike"))
    if m["live"] is not None:
        agree(chk, "peak live trend", m["live"], shape.get("live_trend_mb_per_spike"))
        agree(chk, "peak held trend", m["held"], shape.get("held_trend_mb_per_spike"))


def f_peaks_few(m, ctx):
    v, chk = per_variant(ctx, m["name"]), ctx["chk"]
    spikes = v.get("spikes") or []
    equal_int(chk, "spikes of the peaks", m["k"], len(spikes))
    if len(spikes) >= TREND_MIN:
        chk.fail(f"{m['name']}: 'too few for a trend' with {len(spikes)} spikes")
    stated = re.findall(r"\d+\.\d|n/a", m["list"])
    if len(stated) != len(spikes):
        chk.fail(f"{m['name']}: states {len(stated)} peaks, it has {len(spikes)} spikes")
    for text, sp in zip(stated, spikes):
        if text != "n/a":
            agree(chk, f"spike {sp['spike']} peak", text, sp.get("peak_anon_kb"), MB)


EXTREMES = {
    "Anonymous RSS at the end": ("final_anon_kb", MB),
    "Live memory per request in flight at the spikes' peaks (beyond the cache)":
        ("mean_live_bytes_per_inflight", 1 / 1024.0),
    "CPU per million answered queries": ("cpu_s_per_million_answered", 1.0),
}


def f_extremes(m, ctx):
    chk = ctx["chk"]
    key, scale = EXTREMES[m["what"]]
    lo, hi = per_variant(ctx, m["lo"]).get(key), per_variant(ctx, m["hi"]).get(key)
    agree(chk, f"{m['what']} lowest", m["lov"], lo, scale)
    agree(chk, f"{m['what']} highest", m["hiv"], hi, scale)
    vals = [v.get(key) for v in ctx["summary"]["variants"].values() if v.get(key) is not None]
    if lo is not None and lo != min(vals) or hi is not None and hi != max(vals):
        chk.fail(f"{m['what']}: lowest/highest are not the extremes of {key}")
    if m["more"] is not None and lo and hi is not None:
        agree(chk, f"{m['what']} more", m["more"], (hi / lo - 1) * 100)
    if lo is not None and hi is not None and within_share(lo, hi):
        chk.fail(f"{m['what']}: lowest and highest within the run-to-run spread are ranked apart")


def within_share(x, y):
    """spread_pair_agrees with no floor: within AGREE_SHARE of the pair's median (their mean)."""
    median = abs(x + y) / 2
    return x == y or (median != 0 and abs(x - y) / median <= AGREE_SHARE)


def f_extremes_tied(m, ctx):
    chk = ctx["chk"]
    key, scale = EXTREMES[m["what"]]
    vals = [v.get(key) for v in ctx["summary"]["variants"].values() if v.get(key) is not None]
    agree(chk, "agreement share", m["pct"], AGREE_SHARE * 100)
    agree(chk, f"{m['what']} lowest", m["lov"], min(vals) if vals else None, scale)
    agree(chk, f"{m['what']} highest", m["hiv"], max(vals) if vals else None, scale)
    if vals and not within_share(min(vals), max(vals)):
        chk.fail(f"{m['what']}: called within the run-to-run spread, but it is not")


def f_answered_only(m, ctx):
    v, chk = per_variant(ctx, m["name"]), ctx["chk"]
    sp = lookup(v, "traffic_by_send.phases.spike") or {}
    agree(chk, f"{m['name']} answered share", m["share"], sp.get("answered_share"), 100)
    share_in_range(chk, f"{m['name']} answered share", m["share"])
    if m["lost"]:
        agree(chk, "lost", m["lost"], sp.get("lost"))
        agree(chk, "pending", m["pending"], sp.get("pending"))


def f_file_backed(m, ctx):
    v, chk = per_variant(ctx, m["name"]), ctx["chk"]
    agree(chk, "peak RSS", m["rss"], v.get("max_rss_kb"), MB)
    agree(chk, "peak anon", m["anon"], v.get("max_anon_kb"), MB)
    agree(chk, "file-backed", m["diff"], (v.get("max_rss_kb") or 0) - (v.get("max_anon_kb") or 0), MB, 0.5)


def f_crash(m, ctx):
    v, chk = per_variant(ctx, m["name"]), ctx["chk"]
    if not any(abs(float(m["t"]) - (c.get("t_s") or 0)) <= 0.05 for c in v.get("crashes") or []):
        chk.fail(f"{m['name']}: a crash at {m['t']} s is not in its crashes")
    chk.compared += 1


def f_saturated(m, ctx):
    h, chk = ctx["summary"].get("harness") or {}, ctx["chk"]
    agree(chk, "threshold", m["thr"], h.get("threshold_cores"))
    equal_int(chk, "saturation events", m["ev"], len(h.get("saturated_events") or []))
    chk.compared += 1  # the seconds: validity_saturated_s, at least saturated_s
    if float(m["s"]) + 0.05 < (h.get("saturated_s") or 0):
        chk.fail(f"harness saturated {m['s']} s, saturated_s is {h.get('saturated_s')}")


def nothing(m, ctx):
    pass


NAME = r"(?P<name>[^\s:;,()]+)"
N = r"[+-]?\d+(?:\.\d+)?"
FINDINGS = [
    (r'This run did not complete \(status "[^"]*"\): the figures cover what was recorded up to (?P<t>N) s\.',
     f_incomplete),
    (r"The timeline covers (?P<last>N) s of the schedule's (?P<planned>N) s \((?P<n>N) of (?P<of>N) spikes "
     r"recorded\)\.", f_timeline_covers),
    (r"The timeline holds no spike, so there are no spike figures\.", nothing),
    (r"On anonymous RSS alone \(no live bytes recorded for NAME, so its own memory cannot be told from its "
     r"allocator's\), (?P=name) (?:gave back to the system what each spike added \(|(?P<kept>kept) what the "
     r"spikes added \(gave back |gave back to the system what a spike added in (?P<r>\d+) of (?P<n>\d+) spikes "
     r"\()(?P<lo>N)(?:-(?P<hi>N))? % of each spike's growth; anon RSS (?P<end>N) MB at the end of the "
     r"last recovery, (?P<peak>N) MB at that spike's peak\)\.", f_rss_verdict),
    (r"NAME's allocator took almost no part in the spikes \(under (?P<min>\d+) MB each beyond live memory\); it held "
     r"(?P<held>N) MB (?P<dir>more|less) after the last recovery than before the first\.", f_held_no_part),
    (r"NAME's allocator (?:gave back to the system what each spike freed \(|(?P<kept>kept) what the spikes "
     r"freed \(gave back |gave back to the system what a spike freed in (?P<r>\d+) of (?P<n>\d+) spikes \()"
     r"(?P<lo>N)(?:-(?P<hi>N))? % of its part of each spike(?:; reused by the allocator (?P<rlo>N)"
     r"(?:-(?P<rhi>N))? %: its held memory fell, anon RSS did not)?\); (?:it held (?P<held>N) MB "
     r"(?P<dir>more|less) after the last recovery than before the first|what it held after the last recovery "
     r"against before the first is n/a: (?P<na>[^.]*))\.", f_held_per_spike),
    (r"NAME: (?:the cache grew by (?P<cache>N) MB during spike (?P<spike>\d+) \(live bytes (?P<live>N) MB\)|"
     r"live bytes grew by (?P<live2>N) MB during spike (?P<spike2>\d+)); the allocator held (?P<top>N) MB "
     r"(?:more|less)\. Over all spikes live memory grew by (?P<all_live>N) MB and the allocator held "
     r"(?P<all_held>N) MB (?:more|less)(?:: the growth is (?:mostly )?the program's(?:, not the allocator's)?)?\.",
     f_live_growth),
    (r"NAME(?: \((?P<how>[^)]*)\))? held (?:(?P<held>N) MB|n/a) beyond live memory at the end(?: \((?P<na>live bytes "
     r"exceed the heap)\))?(?:, not broken down "
     r"\([^)]*\)|(?P<kinds>(?:[:;] \d+\.\d MB in [^;]*)*))(?:; it counts (?P<notres>N) MB more as free that is not "
     r"resident \(released or never touched\))?(?:; live memory counts (?P<livenr>N) MB more that was never touched \(not resident\))?"
     r"(?:; none [^;]*|; (?P<unmapped>N) MB [^;]* \(unmapped, not in RSS\))?\.", f_mechanism),
    (r"Memory went back to the system after spikes with (?P<returned>.*), not with (?P<kept>.*)\.", f_went_back),
    (r"NAME's peaks: (?P<k>\d+) spikes?, too few for a trend: (?P<list>.*) MB\.", f_peaks_few),
    (r"NAME's peaks: (?:the first spike peaked (?P<first>N) MB above the level before it, )?(?:spike "
     r"(?P<stepk>\d+) (?P<step>N) MB, )?then they (?:(?P<word>climbed|fell) (?P<trend>N) MB per spike|stayed "
     r"level \((?P<trend2>N) MB per spike\))(?:; at the peaks, live memory moved (?P<live>N) and allocator-held "
     r"memory (?P<held>N) MB per spike)?\.", f_peaks),
    (r"(?P<what>[A-Z][^:]*): lowest (?P<lo>[^ ]+) \((?P<lov>N) (?:MB|kB|s)\), highest (?P<hi>[^ ]+) "
     r"\((?P<hiv>N) (?:MB|kB|s)(?:, (?P<more>N)% more)?\)\.", f_extremes),
    (r"(?P<what>[A-Z][^:]*): every variant within the run-to-run spread \((?P<pct>N) %\), (?P<lov>N)-"
     r"(?P<hiv>N) (?:MB|kB|s)\.", f_extremes_tied),
    (r"NAME answered only (?P<share>N)% of the queries sent in spikes \((?P<lost>N) lost, (?P<pending>N) "
     r"still pending\)\.", f_answered_only),
    (r"NAME answered only (?P<share>N)% of the queries offered in spikes\.(?P<lost>)", f_answered_only),
    (r"NAME's peak RSS \((?P<rss>N) MB\) is far above its anonymous RSS \((?P<anon>N) MB\): the (?P<diff>N) MB "
     r"between are file-backed pages .*", f_file_backed),
    (r"NAME did not run: .*\.", nothing),
    (r"NAME (?:crashed|disappeared) at (?P<t>N) s(?: \((?:signal|exit code) (?P<code>[\w-]+)\))?\.", f_crash),
    (r"No variant (?:that ran )?crashed\.", nothing),
    (r"The harness itself was saturated \((?P<s>N) s of intervals over (?P<thr>N) core, (?P<ev>N) "
     r"harness_saturated events\): .*", f_saturated),
]


# --- the verdict, clause by clause -------------------------------------------------------------

def rank_place(words):
    if words == "the least":
        return 1
    if words == "the most":
        return None
    return int(re.match(r"(\d+)", words)[1])


def c_left(m, ctx):
    v, chk, s = ctx["v"], ctx["chk"], ctx["summary"]
    agree(chk, "spikes left", m["left"], v.get("spikes_left_mb"))
    agree(chk, "held before the spikes", m["before"], v.get("held_before_spikes_mb"))
    after = None
    if v.get("spikes_left_mb") is not None and v.get("held_before_spikes_mb") is not None:
        after = v["spikes_left_mb"] + v["held_before_spikes_mb"]
    agree(chk, "held after the spikes", m["after"], after)
    ranking = (s.get("verdict") or {}).get("ranking") or []
    me = next((r for r in ranking if r["variant"] == ctx["name"]), None)
    if m["rank"] is not None:
        equal_int(chk, "ranked variants", m["of"], len(ranking))
        place = rank_place(m["rank"])
        if me is None:
            chk.fail(f"{ctx['name']} is ranked in words but not in verdict.ranking")
        elif place is None:
            if me["place"] != max(r["place"] for r in ranking):
                chk.fail(f"{ctx['name']}: 'the most' but place {me['place']}")
        elif place != me["place"]:
            chk.fail(f"{ctx['name']}: '{m['rank']}' but place {me['place']}")
        tied = set(re.split(r", | and ", m["tied"])) if m["tied"] else set()
        same = {r["variant"] for r in ranking if me and r is not me and None not in (r["spikes_left_mb"], me["spikes_left_mb"])
                and within_rule(r["spikes_left_mb"], me["spikes_left_mb"])}
        if tied != same:
            chk.fail(f"{ctx['name']}: tied with {sorted(tied)}, within the agreement rule of {sorted(same)}")
        if m["tied"]:
            agree(chk, "agreement share", m["pct"], AGREE_SHARE * 100)
            agree(chk, "agreement floor", m["floor"], AGREE_FLOOR_MB)


def c_held_na(m, ctx):
    v, chk = ctx["v"], ctx["chk"]
    for key in ("held_before_spikes_mb", "held_after_spikes_mb", "spikes_left_mb"):
        if v.get(key) is not None:
            chk.fail(f"{ctx['name']}: says n/a, but {key} is {v[key]}")
    if v.get("spikes_left_na_reason") != m["reason"]:
        chk.fail(f"{ctx['name']}: says n/a because {m['reason']}, summary.json: {v.get('spikes_left_na_reason')}")
    ranking = (ctx["summary"].get("verdict") or {}).get("ranking") or []
    if any(r["variant"] == ctx["name"] for r in ranking):
        chk.fail(f"{ctx['name']}: not ranked in words but in verdict.ranking")


def c_after_only(m, ctx):
    agree(ctx["chk"], "held after the spikes", m["after"],
          (ctx["v"].get("advisor") or {}).get("held_after_spikes_mb"))


def c_too_few(m, ctx):
    chk, shape = ctx["chk"], ctx["v"].get("spikes_left_shape") or {}
    each = shape.get("per_spike_mb") or []
    equal_int(chk, "spikes in the shape", m["n"], len(each))
    equal_int(chk, "spikes for a trend", m["min"], TREND_MIN)
    stated = re.findall(r"[+-]?\d+\.\d|n/a", m["list"])
    if len(stated) != len(each):
        chk.fail(f"{ctx['name']}: states {len(stated)} spikes' levels, the shape has {len(each)}")
    for text, want in zip(stated, each):
        if text != "n/a":
            agree(chk, "what a spike left", text, want)


def c_trend(m, ctx):
    chk, shape = ctx["chk"], ctx["v"].get("spikes_left_shape") or {}
    if m["first"] is not None:
        agree(chk, "what the first spike left", m["first"], (shape.get("per_spike_mb") or [None])[0])
    if m["step"] is not None:
        equal_int(chk, "step spike", m["stepk"], shape.get("step_spike"))
        agree(chk, "step", m["step"], shape.get("step_mb"))
    trend = shape.get("trend_mb_per_spike")
    word = m["word"] or "level"
    if word != {"climbs": "it climbs", "falls": "it falls"}.get(shape.get("trend"), "level"):
        chk.fail(f"{ctx['name']}: says '{word}', the shape's trend is {shape.get('trend')}")
    agree(chk, "trend", m["trend"], -trend if word == "it falls" and trend is not None else trend)


def c_under(m, ctx):
    chk = ctx["chk"]
    reason = next((r for r in (ctx["summary"].get("validity") or {}).get("reasons", [])
                   if r["code"] == "spike_under_answered"), {})
    under = (reason.get("spikes") or {}).get(ctx["name"]) or []
    shares = [u["answered_share"] * 100 for u in under]
    if m["many"] is not None:
        equal_int(chk, "spikes under-answered", m["many"], len(under))
        agree(chk, "lowest answered", m["lo"], min(shares) if shares else None)
        agree(chk, "highest answered", m["hi"], max(shares) if shares else None)
        return
    stated = re.findall(r"(\d+) \((\d+(?:\.\d+)?) % answered\)", m["list"])
    if len(stated) != len(under):
        chk.fail(f"{ctx['name']}: states {len(stated)} spikes over capacity, validity has {len(under)}")
    for (k, text), u in zip(stated, under):
        equal_int(chk, "spike over capacity", k, u["spike"])
        agree(chk, f"spike {k} answered", text, u["answered_share"], 100)
        share_in_range(chk, f"spike {k} answered", text)


def c_give_back(m, ctx):
    how = m["how"]
    mode = "some" if m["r"] is not None else "kept" if how.startswith("kept") else "each"
    give_back_counted(ctx["chk"], ctx["name"], ctx["v"], m, mode)


def c_crashed(m, ctx):
    equal_int(ctx["chk"], "crashes", m["n"], ctx["v"].get("crash_count"))


CLAUSES = [
    (r"the spikes left (?P<left>N) MB [^(]* \(from (?P<before>N) MB before the first spike to (?P<after>N) MB "
     r"after the last recovery\)(?:, (?P<rank>the least|the most|\d+(?:st|nd|rd|th) from the least) of "
     r"(?P<of>\d+)(?:, tied with (?P<tied>.*) \(no difference beyond the run-to-run spread, (?P<pct>N) % or "
     r"(?P<floor>N) MB\))?| \(not ranked: [^)]*\))?", c_left),
    (r"(?P<after>N) MB [^(]* after the spikes \(no level before the first spike\)", c_after_only),
    (r"memory [^:]* before and after the spikes: n/a: (?P<reason>[^()]*) \(not ranked\)", c_held_na),
    (r"(?P<n>\d+) spikes?, too few for a trend \((?P<min>\d+) or more\): (?:it|they) left (?P<list>.*) MB",
     c_too_few),
    (r"(?:the first spike left (?P<first>N) MB(?:, spike (?P<stepk>\d+) (?P<step>N) MB)?, then )?"
     r"(?:(?P<word>it climbs|it falls) (?P<trend>N) MB per spike|level \((?P<trend2>N) MB per spike\))",
     c_trend),
    (r"over capacity in (?:(?P<many>\d+) spikes \((?P<lo>N)-(?P<hi>N) % answered\)|spikes? (?P<list>.*))",
     c_under),
    (r"(?:its allocator|it) (?P<how>gave back to the system what each spike freed|kept what the spikes freed|"
     r"gave back to the system what a spike freed in (?P<r>\d+) of (?P<n>\d+) spikes) \((?P<lo>N)(?:-(?P<hi>N))? "
     r"% of each spike's (?:allocator part|anon RSS growth)(?P<reused>, reused by the allocator (?P<rlo>N)"
     r"(?:-(?P<rhi>N))? %)?(?:, clamped to (?P<c0>0)-(?P<c100>100) %: [^)]*)?\)",
     c_give_back),
    (r"it crashed \((?P<n>\d+) times?\)", c_crashed),
]


def fix_n(rx):
    # every (?P<x>N) stands for a number
    return re.sub(r"\(\?P<(\w+)>N\)", lambda g: f"(?P<{g[1]}>{N})", rx).replace("NAME", NAME)


FINDING_FORMS = [(re.compile(fix_n(rx)), fn) for rx, fn in FINDINGS]
CLAUSE_FORMS = [(re.compile(fix_n(rx)), fn) for rx, fn in CLAUSES]


def numbers_covered(chk, text, m, what):
    """Every number in text lies in a group of the match m: no number states nothing."""
    spans = [m.span(g) for g in m.re.groupindex if m.group(g) is not None]
    for n in NUMBER.finditer(text):
        if not any(a <= n.start() and n.end() <= b for a, b in spans):
            chk.fail(f"{what}: the number {n.group()} in '{text}' states no known figure")


def mask_names(text, summary):
    """Variant names, allocators and environment cells can hold digits: masked before numbers are
    read (their places keep their length)."""
    names = set(summary.get("variants", {}))
    for v in summary.get("variants", {}).values():
        for k in ("allocator", "env"):
            if isinstance(v.get(k), str) and v[k] not in ("-", ""):
                names.add(v[k])
    for n in sorted(names, key=len, reverse=True):
        text = text.replace(n, "x" * len(n))
    return text


def match_form(forms, text, summary):
    masked = mask_names(text, summary)
    for rx, fn in forms:
        m = rx.fullmatch(text)
        if m:
            mm = rx.fullmatch(masked) or m
            return m, mm, fn
    return None, None, None


def check_finding(chk, summary, text):
    m, mm, fn = match_form(FINDING_FORMS, text, summary)
    if not m:
        chk.fail(f"a finding of no known form (add it to FINDINGS with its figures): {text}")
        return
    fn(m, {"summary": summary, "chk": chk})
    numbers_covered(chk, mask_names(text, summary), mm if mm.re is m.re else m, "finding")


def check_verdict(chk, summary, name, text):
    v = summary["variants"].get(name, {})
    head = re.match(re.escape(name) + r"(?: \([^)]*\))?: ", text)
    if not head:
        chk.fail(f"a verdict sentence that does not start with its variant {name}: {text}")
        return
    body = text[head.end():]
    if body.startswith("did not run (") or body.startswith("no figure after the spikes"):
        return
    if not body.endswith("."):
        chk.fail(f"a verdict sentence without its full stop: {text}")
    ctx = {"summary": summary, "chk": chk, "v": v, "name": name}
    for clause in body[:-1].split("; "):
        m, mm, fn = match_form(CLAUSE_FORMS, clause, summary)
        if not m:
            chk.fail(f"{name}: a verdict clause of no known form (add it to CLAUSES): {clause}")
            continue
        if fn is c_trend and m["trend"] is None:
            m = _Trend2(m)
        fn(m, ctx)
        numbers_covered(chk, mask_names(clause, summary), mm, f"{name}'s verdict")


class _Trend2:
    """A level clause's trend group under the name the checker reads."""

    def __init__(self, m):
        self.m = m

    def __getitem__(self, k):
        return self.m["trend2"] if k == "trend" else self.m[k]


def f_lost_by_all(m, c):
    """The spikes every variant lost together: the line, the spikes listed, the range of shares."""
    chk, summary = c["chk"], c["summary"]
    equal_int(chk, "each-spike threshold", m["pct"], EACH_SPIKE_SHARE)
    reason = next((r for r in (summary.get("validity") or {}).get("reasons", [])
                   if r["code"] == "spikes_lost_by_all"), {})
    lost = [u for under in (reason.get("spikes") or {}).values() for u in under]
    listed = [int(k) for k in re.findall(r"\d+", m["list"])]
    chk.compared += 1
    if listed != sorted({u["spike"] for u in lost}):
        chk.fail(f"spikes lost by all: states {listed}, validity has {sorted({u['spike'] for u in lost})}")
    shares = [100 * u["answered_share"] for u in lost]
    agree(chk, "lowest answered of the spikes lost by all", m["lo"], min(shares) if shares else None)
    agree(chk, "highest answered of the spikes lost by all", m["hi"], max(shares) if shares else None)
    for u in lost:
        chk.compared += 1
        if u["answered_share"] * 100 >= EACH_SPIKE_SHARE:
            chk.fail(f"spike {u['spike']} lost by all, but a variant answered {u['answered_share']}")


def f_clock_unbounded(m, c):
    """Each agent's clock beyond its bound: the variant, its host, the time, the figure and the
    counts stated are those of the reason's clocks, and the figure is beyond what it claims."""
    chk, summary = c["chk"], c["summary"]
    reason = next((r for r in (summary.get("validity") or {}).get("reasons", [])
                   if r["code"] == "agent_clock_unbounded"), {})
    clocks = reason.get("clocks") or {}
    named = []
    for p in re.finditer(r"(?:^|; )(\S+) on (.+?) at t=(-?[\d.]+) s: (.*?) \((\d+) of its (\d+) "
                         r"measurements\)", m["list"]):
        name, host, t, what = p[1], p[2], p[3], p[4]
        cl = clocks.get(name) or {}
        named.append(name)
        chk.compared += 1
        if host != (cl.get("host") or "an unknown host") or host != (
                (summary.get("variants", {}).get(name) or {}).get("host") or "an unknown host"):
            chk.fail(f"clock of {name}: states host {host}, the figures say {cl.get('host')}")
        agree(chk, f"clock of {name}: time", t, cl.get("t_s"))
        equal_int(chk, f"clock of {name}: measurements beyond", p[5], cl.get("count"))
        equal_int(chk, f"clock of {name}: measurements", p[6], cl.get("measurements"))
        kind = cl.get("kind")
        u = re.fullmatch(fix_n(r"offset known only within \+-(?P<x>N) ms, over (?:the bound of (?P<b>N) ms|its bound)"), what)
        mv = re.fullmatch(fix_n(r"offset moved (?P<x>N) ms \(from (?P<a>N) to (?P<b>N) ms\), more than one "
                                r"interval \((?P<i>N) ms\)"), what)
        if kind == "uncertainty" and u:
            agree(chk, f"clock of {name}: uncertainty", u["x"], cl.get("uncertainty_ms"))
            if u["b"] is not None:
                agree(chk, f"clock of {name}: bound", u["b"], cl.get("bound_ms"))
                chk.compared += 1
                if not cl.get("uncertainty_ms", 0) > cl.get("bound_ms", 0):
                    chk.fail(f"clock of {name}: uncertainty {cl.get('uncertainty_ms')} within the bound")
        elif kind == "moved" and mv:
            agree(chk, f"clock of {name}: moved", mv["x"], cl.get("moved_ms"))
            agree(chk, f"clock of {name}: from", mv["a"], cl.get("from_ms"))
            agree(chk, f"clock of {name}: to", mv["b"], cl.get("to_ms"))
            agree(chk, f"clock of {name}: interval", mv["i"], 1000 * (summary.get("interval_s") or 0))
            chk.compared += 1
            if not (abs(cl.get("to_ms", 0) - cl.get("from_ms", 0)) > cl.get("interval_ms", 0)
                    and abs(abs(cl["to_ms"] - cl["from_ms"]) - cl["moved_ms"]) < 1e-6):
                chk.fail(f"clock of {name}: moved {cl.get('moved_ms')} is no move beyond an interval")
        elif not (kind == "failed" and what.startswith("the measurement failed (")):
            chk.fail(f"clock of {name}: '{what}' does not say its {kind} measurement")
    chk.compared += 1
    if sorted(named) != sorted(reason.get("variants") or []):
        chk.fail(f"agent_clock_unbounded: states {sorted(named)}, names {reason.get('variants')}")


VALIDITY = [
    (r"Every variant answered under (?P<pct>\d+) % of the queries sent in spikes? (?P<list>[\d, and]+) "
     r"\((?P<lo>N)-(?P<hi>N) % answered\): running side by side .*", f_lost_by_all),
    (r"Only (?P<n>\d+) spikes?: what the spikes left is compared over (?P<min>\d+) or more, fewer make it one "
     r"spike's noise \(a growth per spike needs (?P<trend>\d+)\)\.",
     lambda m, c: (equal_int(c["chk"], "spikes", m["n"], c["summary"].get("spike_count")),
                   equal_int(c["chk"], "minimum spikes", m["min"], MIN_SPIKES),
                   equal_int(c["chk"], "spikes for a trend", m["trend"], TREND_MIN))),
    (r"The run did not complete \(status \"[^\"]*\"\): later spikes are missing\.", nothing),
    (r"The warm-up did not bring the cache to a steady state for .*", nothing),
    (r"Answered under (?P<pct>\d+) % of the queries sent in a spike: (?P<list>.*)\. In such a spike .*",
     lambda m, c: equal_int(c["chk"], "each-spike threshold", m["pct"], EACH_SPIKE_SHARE)),
    (r"The harness \(load generator or simulated hierarchy\) used more than (?P<thr>N) core for (?P<s>N) s "
     r"\((?P<ev>\d+) saturation events\): .*", f_saturated),
    (r"Spikes far over capacity \((?P<list>.*)\): the run measures .*", nothing),
    (r"The calibration did not find the capacity of .* or never (?P<pct>\d+) % of it\): .*", nothing),
    (r"Not run: .*", nothing),
    (r".* crashed: its figures stop at the crash, .*", nothing),
    (r"No memory figures for .*", nothing),
    (r"The agent's reads fell in under \d+ % of the intervals of .*", nothing),
    (r"The clock of an agent was not known within its bound during the run, or moved by more than an "
     r"interval between two measurements, so its reads may be placed wrong on the timeline: (?P<list>.*)\. "
     r"t is the collection's time \(the controller's events\)\.", f_clock_unbounded),
]
VALIDITY_FORMS = [(re.compile(fix_n(rx), re.S), fn) for rx, fn in VALIDITY]


def check_validity_variants(chk, summary):
    """The per-variant words name, after "valid for ...", exactly the variants a reason marks, and
    variants_marked (the amber box) says whether there is one."""
    v = summary.get("validity") or {}
    text = v.get("variants_text")
    if text is None:
        return
    marked = {n for n, x in (v.get("variants") or {}).items() if not x.get("valid")}
    named = set(re.findall(r"; (\S+) ", text))
    if text.startswith("valid for no variant; every variant "):  # one reason for all, said once
        named = set(v.get("variants") or {})
    chk.compared += 1
    if named != marked:
        chk.fail(f"validity.variants_text names {sorted(named)} as marked, the reasons mark {sorted(marked)}")
    if bool(v.get("variants_marked")) != bool(marked):
        chk.fail(f"validity.variants_marked is {v.get('variants_marked')}, marked variants {sorted(marked)}")


def check_validity(chk, summary):
    check_validity_variants(chk, summary)
    for r in (summary.get("validity") or {}).get("reasons", []):
        m, _, fn = match_form(VALIDITY_FORMS, r["text"], summary)
        if not m:
            chk.fail(f"a validity reason of no known form (add it to VALIDITY): {r['text']}")
            continue
        fn(m, {"summary": summary, "chk": chk})
        if r["code"] == "spike_under_answered":
            for name, under in (r.get("spikes") or {}).items():
                text = m["list"]
                for u in under:
                    share_in_range(chk, f"{name} spike {u['spike']}", f"{100 * u['answered_share']:.1f}")
                    if f"{100 * u['answered_share']:.1f} % answered" not in text:
                        chk.fail(f"validity: {name} spike {u['spike']} at {u['answered_share']} not stated")
        if r["code"] == "spikes_over_capacity":
            for part in re.finditer(r"(\S+) answered (\d+) % of the queries sent in spikes", r["text"]):
                v = per_variant({"summary": summary, "chk": chk}, part[1])
                agree(chk, f"{part[1]} answered", part[2],
                      lookup(v, "traffic_by_send.phases.spike.answered_share"), 100)


# --- figures that must hold together, whatever a sentence says ---------------------------------

def check_parts(chk, summary):
    for name, v in summary.get("variants", {}).items():
        held = v.get("final_held_kb")
        for k in ("final_trimmable_kb", "final_fragmented_kb", "final_allocator_other_kb"):
            x = v.get(k)
            if x is None:
                continue
            if x < -0.5:
                chk.fail(f"{name}.{k} is {x}: a part below zero (its parts add to more than the whole)")
            if held is not None and x > held + 0.5:
                chk.fail(f"{name}.{k} ({x} kB) is above its whole (final_held_kb {held})")
        # held is the resident heap less the resident live part: never below zero (live bytes
        # beyond the heap are said apart, *_live_not_resident_kb)
        for k, x in [("final_held_kb", held)] + [(f"spike {sp['spike']} {k}", sp.get(k))
                                                  for sp in v.get("spikes") or []
                                                  for k in ("before_held_kb", "peak_held_kb", "end_held_kb")]:
            if x is not None and x < -0.5:
                chk.fail(f"{name} {k} is {x} kB: held memory below zero (live bytes beyond the heap)")
        for sp in v.get("spikes") or []:
            live, anon = sp.get("peak_live_kb"), sp.get("peak_anon_kb")
            if live is not None and anon is not None and live > anon + 0.5:
                chk.fail(f"{name} spike {sp['spike']}: live at peak {live} kB above peak anon RSS {anon} kB")
            for k in ("given_back_share", "held_returned_share", "held_reused_share",
                      "held_given_back_share"):
                x = sp.get(k)
                if x is not None and not (-1e-9 <= x <= 1 + 1e-9):
                    chk.fail(f"{name} spike {sp['spike']}: {k} = {x}, outside [0, 100 %]")
        for path in ("spike_traffic.answered_share", "baseline_traffic.answered_share",
                     "traffic_by_send.phases.spike.answered_share", "mean_given_back_share",
                     "mean_held_given_back_share", "mean_held_returned_share"):
            x = lookup(v, path)
            if x is not None and not (-1e-9 <= x <= 1 + 1e-9):
                chk.fail(f"{name}.{path} = {x}, outside [0, 100 %]")


def within_rule(x, y):
    """reports/spread.c spread_agrees over the pair: the difference within AGREE_SHARE of the pair's
    median (their mean), or within AGREE_FLOOR_MB."""
    if x == y:
        return True
    median = abs(x + y) / 2
    return (median != 0 and abs(x - y) / median <= AGREE_SHARE) or abs(x - y) <= AGREE_FLOOR_MB


def check_ranking(chk, summary):
    """A variant's place is one more than the number of variants below it beyond the agreement rule
    (reports/verdict.c places_beyond_spread): so two figures within the rule never read as ordered
    ("the least" beside "the most"), and one clearly above another always comes after it."""
    ranking = [r for r in (summary.get("verdict") or {}).get("ranking") or [] if r["spikes_left_mb"] is not None]
    for r in ranking:
        below = [o for o in ranking if o["spikes_left_mb"] < r["spikes_left_mb"]
                 and not within_rule(o["spikes_left_mb"], r["spikes_left_mb"])]
        chk.compared += 1
        if r["place"] != len(below) + 1:
            chk.fail(f"{r['variant']} ({r['spikes_left_mb']:.2f} MB) is placed {r['place']}, but "
                     f"{len(below)} variants are below it beyond the agreement rule")


# --- summary.md and the page -------------------------------------------------------------------

def md_unescape(text):
    return re.sub(r"\\(.)", r"\1", text).replace("&#58;", ":").replace("&#46;", ".").replace("@<!-- -->", "@")


def md_section(md, title):
    m = re.search(r"^## " + re.escape(title) + r"\n(.*?)(?=^## |\Z)", md, re.M | re.S)
    return m.group(1) if m else ""


def check_markdown(chk, summary, md):
    bullets = [md_unescape(line[2:]) for line in md_section(md, "Verdict").splitlines() if line.startswith("- ")]
    sentences = (summary.get("verdict") or {}).get("sentences") or []
    if bullets != sentences:
        chk.fail("summary.md's verdict is not the verdict's sentences")
    variants = summary.get("variants", {})
    grid = md_section(md, "Peak / end of recovery per spike")
    header = next((line for line in grid.splitlines() if line.startswith("| variant")), "")
    numbers = [int(x) for x in re.findall(r"spike (\d+)", header)]
    for line in grid.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        name = md_unescape(cells[0]) if cells else ""
        if name not in variants:
            continue
        for k, cell in zip(numbers, cells[1:]):
            sp = lookup(variants[name], f"spikes.{k}") or {}
            for text, key in zip(cell.split(" / "), ("peak_anon_kb", "end_anon_kb")):
                if text.strip() != "n/a":
                    agree(chk, f"summary.md grid {name} spike {k} {key}", text.strip(), sp.get(key), MB)
    table = md_section(md, "Traffic in spikes")
    cols = [("sent", 1), ("answered_share", 100), ("lost", 1), ("late", 1), ("servfail", 1),
            ("lat_p50_ms", 1), ("lat_p99_ms", 1)]
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        name = md_unescape(cells[0]) if cells else ""
        if name not in variants:
            continue
        sp = lookup(variants[name], "traffic_by_send.phases.spike") or {}
        for (key, scale), cell in zip(cols, cells[1:]):
            text = cell.replace("%", "").strip()
            if text == "n/a":
                continue
            if key == "answered_share":
                share_in_range(chk, f"summary.md {name} answered", text)
            # three significant digits for latencies (reports/markdown.c)
            slack = 0.0 if scale != 1 or not key.startswith("lat_") else abs(float(text)) * 0.005
            agree(chk, f"summary.md traffic {name} {key}", text, sp.get(key), scale, slack)
        # the one definition: what check's spike_traffic.answered_share says is the table's
        for alias, one in (("spike_traffic.answered_share", "answered_share"),
                           ("spike_traffic.lat_p50_ms", "lat_p50_ms")):
            a = lookup(variants[name], alias)
            if a is not None and sp.get(one) is not None and abs(a - sp[one]) > 1e-9:
                chk.fail(f"{name}: {alias} = {a}, the table's {one} = {sp[one]} (two definitions)")
    reasons = (summary.get("validity") or {}).get("reasons") or []
    vtext = md_unescape(md_section(md, "Validity"))
    for r in reasons:
        if r["text"] not in vtext:
            chk.fail(f"summary.md's validity lacks the reason {r['code']}")
    vv = summary.get("validity") or {}
    if vv.get("variants_text"):
        if f"Per variant: {vv['variants_text']}." not in vtext:
            chk.fail("summary.md's validity does not say which variants the run is valid for")
        if ("> [!WARNING]" in vtext) != bool(vv.get("variants_marked")):
            chk.fail("summary.md's per-variant validity is a warning where no variant is marked, or not where one is")


def check_page(chk, summary, page):
    texts = list((summary.get("verdict") or {}).get("sentences") or []) + list(summary.get("findings") or [])
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    for t in texts:
        if t not in text:
            chk.fail(f"report.html does not state: {t}")
    vv = summary.get("validity") or {}
    # the valid box's list of what was checked: the spikes' minimum as validity checks it, met by
    # the run, and no claim of a trend the verdict says the spikes are too few for
    box = re.search(r'<p class="ok" id="validity">(.*?)</p>', page, re.S)
    if box:
        m = re.search(r"(\d+) spikes or more\)", box[1])
        if not m:
            chk.fail("report.html's validity box does not state the spikes' minimum it checked")
        else:
            equal_int(chk, "the validity box's minimum spikes", m[1], MIN_SPIKES)
            if (summary.get("spike_count") or 0) < MIN_SPIKES:
                chk.fail(f"report.html's validity box says {m[1]} spikes or more, the run has {summary.get('spike_count')}")
        if "trend" in box[1] and (summary.get("spike_count") or 0) < TREND_MIN:
            chk.fail(f"report.html's validity box claims a trend with {summary.get('spike_count')} spikes")
    if vv.get("variants_text"):
        m = re.search(r'<p class="(\w+)" id="validity-variants">(.*?)</p>', page, re.S)
        if not m or html.unescape(m[2]) != f"Per variant: {vv['variants_text']}.":
            chk.fail("report.html's validity box does not say which variants the run is valid for")
        elif (m[1] == "amber") != bool(vv.get("variants_marked")):
            chk.fail(f"report.html's per-variant validity is {m[1]}, variants_marked {vv.get('variants_marked')}")


def check_run(run):
    chk = Check(run)
    try:
        with open(f"{run}/summary.json") as f:
            summary = json.load(f)
    except (OSError, ValueError) as e:
        print(f"truth_check: {run}/summary.json: {e}", file=sys.stderr)
        sys.exit(2)
    for text in summary.get("findings") or []:
        check_finding(chk, summary, text)
    order = summary.get("variant_order") or []
    sentences = (summary.get("verdict") or {}).get("sentences") or []
    for name, text in zip(order, sentences):
        check_verdict(chk, summary, name, text)
    check_validity(chk, summary)
    check_parts(chk, summary)
    check_ranking(chk, summary)
    try:
        with open(f"{run}/summary.md") as f:
            check_markdown(chk, summary, f.read())
    except OSError:
        pass
    try:
        with open(f"{run}/report.html") as f:
            check_page(chk, summary, f.read())
    except OSError:
        pass
    return chk


def main(argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        print("usage: truth_check.py RUN_DIR...", file=sys.stderr)
        return 2
    bad = 0
    for run in argv[1:]:
        chk = check_run(run)
        for f in chk.failures:
            print(f"FAIL {f}")
        print(f"{'ok  ' if not chk.failures else 'FAIL'} {run}: {chk.compared} numbers compared, "
              f"{len(chk.failures)} disagreements")
        bad += bool(chk.failures)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
