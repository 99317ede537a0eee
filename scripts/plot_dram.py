#!/usr/bin/env python3
"""The DRAM of a run: read latency histogram and a heat map per bank.

  plot_dram.py RUN.json --output OUT.png [--metric row_hit_rate|accesses|row_conflicts|activates|energy_pj]

RUN.json is `gpumem run --stats-json` of a config with memory.model: dram
(its "dram" object, docs/trace-format.md). The left panel is the histogram
of read latency (its bins, log scale in cycles) with p50, p95 and p99
marked; the right one a heat map, one row per channel and one column per
bank (rank-major, then bank group, then bank), of the chosen metric.
Headless (Agg). Exit 2 with one line naming the file and the key when the
input lacks what is needed.
"""
import argparse
import json
import os

from plot_channels import InputProblem, fail, save_png  # the same errors and the same whole-or-nothing PNG


def need(obj, key, path, where):
    if not isinstance(obj, dict) or key not in obj:
        raise InputProblem("%s: %s: missing (a run with memory.model: dram writes it with --stats-json)" % (path, where + key))
    return obj[key]


METRICS = ("row_hit_rate", "accesses", "row_conflicts", "activates", "energy_pj")


def bank_value(bank, metric):
    accesses = bank["reads"] + bank["writes"]
    if metric == "accesses":
        return accesses
    if metric == "row_hit_rate":
        return bank["row_hits"] / accesses if accesses else 0.0
    return bank[metric]


def read_run(path, metric):
    try:
        with open(path) as f:
            run = json.load(f)
    except OSError as e:
        raise InputProblem("%s: cannot read: %s" % (path, e.strerror))
    except ValueError:
        raise InputProblem("%s: not JSON" % path)
    dram = need(run, "dram", path, "")
    latency = need(dram, "read_latency", path, "dram.")
    bins = need(latency, "histogram", path, "dram.read_latency.")
    channels = need(dram, "channels", path, "dram.")
    rows = []
    for i, c in enumerate(channels):
        banks = need(c, "banks", path, "dram.channels[%d]." % i)
        row = []
        for k, b in enumerate(banks):
            for key in ("reads", "writes", "row_hits", "row_conflicts", "activates"):
                need(b, key, path, "dram.channels[%d].banks[%d]." % (i, k))
            row.append(bank_value(b, metric))
        rows.append(row)
    if not rows or not rows[0]:
        raise InputProblem("%s: dram.channels: empty" % path)
    return dram, latency, bins, rows


def plot(path, dram, latency, bins, rows, metric, output, title):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (hist, heat) = plt.subplots(1, 2, figsize=(13, 4.5), gridspec_kw={"width_ratios": [1, 1.4]})
    if bins:
        lows = [max(b["lo"], 1) for b in bins]
        widths = [b["hi"] - max(b["lo"], 1) for b in bins]
        hist.bar(lows, [b["count"] for b in bins], width=widths, align="edge", color="#4878a8")
        hist.set_xscale("log")
    for q, style in (("p50", "-"), ("p95", "--"), ("p99", ":")):
        hist.axvline(max(latency[q], 1), color="#c0392b", linestyle=style, label="%s %d" % (q, latency[q]))
    hist.set_xlabel("read latency (cycles)")
    hist.set_ylabel("reads")
    hist.set_title("%d reads, mean %.1f cycles" % (latency["reads"], latency["mean"]))
    hist.legend()
    image = heat.imshow(rows, aspect="auto", interpolation="nearest", cmap="viridis")
    heat.set_xlabel("bank (rank, bank group, bank)")
    heat.set_ylabel("channel")
    heat.set_title(metric.replace("_", " ") + " per bank")
    fig.colorbar(image, ax=heat)
    fig.suptitle(title or "%s: %s, %s page, %s" % (os.path.basename(path), dram.get("preset", "?"),
                                                     dram.get("page_policy", "?"), dram.get("address_order", "?")))
    fig.tight_layout()
    save_png(fig, output)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("input", help="gpumem run --stats-json of a memory.model: dram run")
    parser.add_argument("--output", "-o", required=True, help="PNG to write")
    parser.add_argument("--metric", default="row_hit_rate", choices=METRICS, help="what the heat map shows")
    parser.add_argument("--title", help="title of the figure")
    args = parser.parse_args()
    try:
        dram, latency, bins, rows = read_run(args.input, args.metric)
    except InputProblem as e:
        fail(str(e))
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        fail("matplotlib is missing; install python3-matplotlib (apt-get install python3-matplotlib, or scripts/install-deps.sh)")
    plot(args.input, dram, latency, bins, rows, args.metric, args.output, args.title)


if __name__ == "__main__":
    main()
