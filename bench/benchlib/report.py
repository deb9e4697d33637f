"""Figures, ratios and bars: what the run prints and saves."""

import statistics
from collections import Counter
from dataclasses import dataclass, field

SIDECAR, REFERENCE, PEERS = "sidecar", "c", ("python", "node")
MB = 1_000_000  # the RSS bar is in MB; 30 MB is 28.6 MiB, the stricter reading


@dataclass
class Tally:
    """Everything one implementation produced during the run."""

    name: str
    label: str
    cold_seconds: list = field(default_factory=list)
    rates: list = field(default_factory=list)
    latencies_us: list = field(default_factory=list)
    rss_bytes: list = field(default_factory=list)  # VmHWM of each long-running server
    idle_rss_bytes: list = field(default_factory=list)  # VmRSS after one answer, waiting for input
    problems: Counter = field(default_factory=Counter)  # (where, problem) -> count
    failure: str | None = None  # set when it crashed or hung: it is left out of later measurements

    def add_rss(self, rss):
        if rss is not None:  # None: no /proc on this system
            self.rss_bytes.append(rss)

    def note(self, where, problem, count=1):
        self.problems[(where, problem)] += count


def percentile(values, fraction):
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))]


def figures(tally):
    """The figures of one implementation (None where it has no measurement)."""
    cold, rates, lat = tally.cold_seconds, tally.rates, tally.latencies_us
    return {
        "cold_start_median_ms": statistics.median(cold) * 1e3 if cold else None,
        "cold_start_min_ms": min(cold) * 1e3 if cold else None,
        "cold_start_max_ms": max(cold) * 1e3 if cold else None,
        "cold_start_runs": len(cold),
        "throughput_rps": statistics.median(rates) if rates else None,
        "throughput_runs": [round(rate) for rate in rates],
        "latency_p50_us": percentile(lat, 0.50) if lat else None,
        "latency_p99_us": percentile(lat, 0.99) if lat else None,
        "latency_round_trips": len(lat),
        "peak_rss_mb": max(tally.rss_bytes) / MB if tally.rss_bytes else None,
        "idle_rss_mb": statistics.median(tally.idle_rss_bytes) / MB if tally.idle_rss_bytes else None,
    }


# (figure key, row title, number format, True when bigger is better)
ROWS = [
    ("cold_start_median_ms", "cold start, median (ms)", "{:.1f}", False),
    ("cold_start_min_ms", "cold start, min (ms)", "{:.1f}", False),
    ("cold_start_max_ms", "cold start, max (ms)", "{:.1f}", False),
    ("throughput_rps", "pipelined throughput (req/s)", "{:,.0f}", True),
    ("latency_p50_us", "round trip p50 (µs)", "{:.1f}", False),
    ("latency_p99_us", "round trip p99 (µs)", "{:.1f}", False),
    ("peak_rss_mb", "peak RSS (MB)", "{:.1f}", False),
    ("idle_rss_mb", "idle RSS (MB)", "{:.1f}", False),
]


def advantage(sidecar, peer, bigger_is_better):
    """How many times better the sidecar is than the peer on one figure (> 1: the sidecar wins)."""
    if not sidecar or not peer:
        return None
    return sidecar / peer if bigger_is_better else peer / sidecar


def ratios(all_figures):
    """Per peer, how many times better the sidecar is; for the C reference, the plain quotient sidecar ÷ C."""
    side = all_figures.get(SIDECAR, {})
    reference = all_figures.get(REFERENCE, {})
    quotients = {
        key: side[key] / reference[key] if side.get(key) and reference.get(key) else None for key, _, _, _ in ROWS
    }
    return {REFERENCE: quotients} | {
        peer: {key: advantage(side.get(key), all_figures.get(peer, {}).get(key), better)
               for key, _, _, better in ROWS}
        for peer in PEERS
    }


def bars(all_figures, all_ratios):
    """[(PASS/FAIL/n/a, description)] for the product's performance bars this runner measures."""
    cold = [all_ratios[peer]["cold_start_median_ms"] for peer in PEERS]
    node_rate = all_ratios["node"]["throughput_rps"]
    rss = all_figures.get(SIDECAR, {}).get("peak_rss_mb")
    idle = all_figures.get(SIDECAR, {}).get("idle_rss_mb")
    c_cold = all_ratios[REFERENCE]["cold_start_median_ms"]
    c_rate = all_ratios[REFERENCE]["throughput_rps"]
    return [
        verdict(c_cold is not None and c_cold <= 2.5, c_cold is None,
                "cold start ≤ 2.5× the C reference", times(c_cold)),
        verdict(c_rate is not None and c_rate >= 0.5, c_rate is None,
                "pipelined throughput ≥ 0.5× the C reference", times(c_rate, 2)),
        verdict(idle is not None and idle <= 8, idle is None,
                "sidecar idle RSS ≤ 8 MB", "n/a" if idle is None else f"{idle:.1f} MB"),
        verdict(rss is not None and rss <= 10, rss is None,
                "sidecar peak RSS under pipelined load ≤ 10 MB", "n/a" if rss is None else f"{rss:.1f} MB"),
        verdict(None not in cold and min(cold) >= 8, None in cold,
                "cold start ≥ 8× faster than both peers", "python {}, node {}".format(*map(times, cold))),
        verdict(node_rate is not None and node_rate >= 2, node_rate is None,
                "pipelined throughput ≥ 2× the Node peer", times(node_rate)),
        verdict(rss is not None and rss < 30, rss is None,
                "sidecar peak RSS < 30 MB", "n/a" if rss is None else f"{rss:.1f} MB"),
    ]


def verdict(passed, missing, description, detail):
    return ("n/a" if missing else "PASS" if passed else "FAIL", f"{description}: {detail}")


def times(ratio, digits=1):
    return "n/a" if ratio is None else f"{ratio:.{digits}f}×"


def table(tallies, all_figures, all_ratios):
    names = [tally.name for tally in tallies]
    header = f"{'':30}" + "".join(f"{name:>14}" for name in names) + f"{'sidecar ÷ c':>13}" + "".join(
        f"{'vs ' + peer:>12}" for peer in PEERS
    )
    lines = [header]
    for key, title, number, _ in ROWS:
        cells = [cell(all_figures[name][key], number) for name in names]
        extra = [f"{times(all_ratios[REFERENCE][key], 2):>13}"]
        extra += [f"{times(all_ratios[peer][key]):>12}" for peer in PEERS]
        lines.append(f"{title:30}" + "".join(f"{c:>14}" for c in cells) + "".join(extra))
    return "\n".join(lines)


def cell(value, number):
    return "—" if value is None else number.format(value)


def problem_lines(tally, limit=12):
    lines = []
    for (where, problem), count in tally.problems.most_common(limit):
        lines.append(f"    {count:>7} × {where}: {problem}")
    hidden = len(tally.problems) - limit
    if hidden > 0:
        lines.append(f"    … and {hidden} more kinds of problem")
    return lines
