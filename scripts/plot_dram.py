#!/usr/bin/env python3
"""The DRAM of a run: read latency histogram and a heat map per bank; or, over time, per epoch.

  plot_dram.py RUN.json --output OUT.png [--metric row_hit_rate|accesses|row_conflicts|activates|energy_pj]
  plot_dram.py RUN.json --output OUT.png --epochs [--channel C] [--metric row_hit_rate|accesses]

RUN.json is `gpumem run --stats-json` of a config with memory.model: dram
(its "dram" object, docs/trace-format.md). The left panel is the histogram
of read latency (its bins, log scale in cycles) with p50, p95 and p99
marked; the right one a heat map, one row per channel and one column per
bank (rank-major, then bank group, then bank), of the chosen metric.
With --epochs (a run with stats.epoch_cycles; docs/memory.md, "Statistics
over time") it draws each channel's bandwidth and row-hit rate per epoch,
a line per channel, and a heat map of one channel's banks (--channel, 0 by
default) per epoch: accesses or row-hit rate (--metric). Headless (Agg). Exit 2 with one line naming the file and the key when the
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


def load_run(path):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as e:
        raise InputProblem("%s: cannot read: %s" % (path, e.strerror))
    except ValueError:
        raise InputProblem("%s: not JSON" % path)


def read_run(path, metric):
    run = load_run(path)
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
            value = bank_value(b, metric)
            if value is None:  # energy_pj of a DRAM with no power figures
                raise InputProblem("%s: dram.channels[%d].banks[%d].%s: null: the run's DRAM has no power figures "
                                   "(memory.dram.power)" % (path, i, k, metric))
            row.append(value)
        rows.append(row)
    if not rows or not rows[0]:
        raise InputProblem("%s: dram.channels: empty" % path)
    return dram, latency, bins, rows


EPOCH_METRICS = ("row_hit_rate", "accesses")


def read_epochs(path, channel, metric):
    """(dram, [per channel: (start cycles, bandwidths, row-hit rates)], heat rows: bank x epoch)."""
    run = load_run(path)
    dram = need(run, "dram", path, "")
    channels = need(dram, "channels", path, "dram.")
    if not channels:
        raise InputProblem("%s: dram.channels: empty" % path)
    if not channels[0].get("epochs"):
        raise InputProblem("%s: dram.channels[0].epochs: missing (a run with stats.epoch_cycles writes it)" % path)
    if not 0 <= channel < len(channels):
        raise InputProblem("%s: --channel %d: the run has channels 0 to %d" % (path, channel, len(channels) - 1))
    lines = []
    for i, c in enumerate(channels):
        epochs = need(c, "epochs", path, "dram.channels[%d]." % i)
        start, bw, hit = [], [], []
        for k, e in enumerate(epochs):
            where = "dram.channels[%d].epochs[%d]." % (i, k)
            for key in ("start_cycle", "bandwidth_gbps", "reads", "writes", "row_hits", "bank_accesses", "bank_row_hits"):
                need(e, key, path, where)
            accesses = e["reads"] + e["writes"]
            start.append(e["start_cycle"])
            bw.append(e["bandwidth_gbps"])
            hit.append(e["row_hits"] / accesses if accesses else float("nan"))
        lines.append((start, bw, hit))
    epochs = channels[channel]["epochs"]
    banks = len(epochs[0]["bank_accesses"])
    heat = [[0.0] * len(epochs) for _ in range(banks)]
    for k, e in enumerate(epochs):
        for b in range(banks):
            n = e["bank_accesses"][b]
            heat[b][k] = n if metric == "accesses" else (e["bank_row_hits"][b] / n if n else float("nan"))
    return dram, lines, heat


def plot_epochs(path, dram, lines, heat, channel, metric, output, title):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (bw, hit, banks) = plt.subplots(1, 3, figsize=(17, 4.5), gridspec_kw={"width_ratios": [1, 1, 1.3]})
    for i, (start, b, h) in enumerate(lines):
        bw.plot(start, b, label="channel %d" % i if len(lines) <= 8 else None)
        hit.plot(start, h)
    bw.set_xlabel("epoch start (cycles)")
    bw.set_ylabel("GB/s")
    bw.set_title("bandwidth per channel")
    if len(lines) <= 8:
        bw.legend(fontsize="small")
    hit.set_xlabel("epoch start (cycles)")
    hit.set_ylabel("row hits / accesses")
    hit.set_ylim(0, 1)
    hit.set_title("row-hit rate per channel")
    image = banks.imshow(heat, aspect="auto", interpolation="nearest", cmap="viridis", origin="lower")
    banks.set_xlabel("epoch")
    banks.set_ylabel("bank (rank, bank group, bank)")
    banks.set_title("channel %d: %s per bank" % (channel, metric.replace("_", " ")))
    fig.colorbar(image, ax=banks)
    fig.suptitle(title or "%s: %s, epochs of %d cycles" % (os.path.basename(path), dram.get("preset", "?"),
                                                           dram.get("epoch_cycles", 0)))
    fig.tight_layout()
    save_png(fig, output)


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
    parser.add_argument("--epochs", action="store_true", help="over time: the run's epochs (stats.epoch_cycles)")
    parser.add_argument("--channel", type=int, default=0, help="with --epochs: whose banks the heat map shows")
    parser.add_argument("--title", help="title of the figure")
    args = parser.parse_args()
    if args.epochs and args.metric not in EPOCH_METRICS:
        fail("--metric %s: with --epochs, one of %s" % (args.metric, ", ".join(EPOCH_METRICS)))
    try:
        if args.epochs:
            dram, lines, heat = read_epochs(args.input, args.channel, args.metric)
        else:
            dram, latency, bins, rows = read_run(args.input, args.metric)
    except InputProblem as e:
        fail(str(e))
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        fail("matplotlib is missing; install python3-matplotlib (apt-get install python3-matplotlib, or scripts/install-deps.sh)")
    if args.epochs:
        plot_epochs(args.input, dram, lines, heat, args.channel, args.metric, args.output, args.title)
    else:
        plot(args.input, dram, latency, bins, rows, args.metric, args.output, args.title)


if __name__ == "__main__":
    main()
