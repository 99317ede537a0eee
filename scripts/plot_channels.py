#!/usr/bin/env python3
"""Channel load over time and entropy per window, from gpumem's JSON.

  plot_channels.py RUN.json [RUN2.json] --output OUT.png
      one run (`gpumem run --stats-json`), or two to compare (the config's
      run and the run with the explorer's emitted YAML, for instance)
  plot_channels.py EXPLORE.json --output OUT.png
      `gpumem explore --json`: identity against the recommended mapping
      on the whole stream (and the configured one when it differs)
  plot_channels.py SWEEP.json --output OUT.png
      `gpumem sweep merge --plot`: a metric against one axis, a line per
      value of another (docs/sweeps.md)
  plot_channels.py COMPARE.json --output OUT.png
      `gpumem run --compare-prefetch --stats-json`: no prefetcher, the stride
      and the BFS prefetcher side by side (makespan, L1 miss rate, coverage,
      accuracy; docs/prefetch.md)

Each input carries a "series" (docs/explorer.md, "Series"): the windows of
the run in at most 1000 points, each the mean entropy of a run of
consecutive windows and their requests per channel. The figure has one
heat map per mapping (a channel's share of the point's requests, over
time) and one panel of entropy per window for all of them. Headless (Agg).
Exit 2 with one line naming the file and the key when an input lacks what
is needed; `gpumem explore --plot` runs this script.
"""
import argparse
import json
import math
import os
import sys


class InputProblem(Exception):
    pass


def fail(message):
    """One line naming the script that runs (plot_dram.py shares this), and exit 2."""
    print(os.path.basename(sys.argv[0]) + ": error: " + message, file=sys.stderr)
    sys.exit(2)


def need(obj, key, path, where):
    """obj[key], or an InputProblem naming the file and the key."""
    if not isinstance(obj, dict) or key not in obj:
        raise InputProblem(
            "%s: %s: missing (written by gpumem run --stats-json and gpumem explore --json since the series "
            "were added; rerun gpumem to get it)" % (path, where + key))
    return obj[key]


def read_series(series, path, where):
    """The points of one series, checked: (x edges, entropies, per-channel counts, window)."""
    window = need(series, "window", path, where)
    points = need(series, "points", path, where)
    if not isinstance(points, list) or not points:
        raise InputProblem("%s: %spoints: empty (a run with no request has nothing to plot)" % (path, where))
    edges, entropy, load = [], [], []
    for i, p in enumerate(points):
        at = "%spoints[%d]." % (where, i)
        first = need(p, "first_window", path, at)
        count = need(p, "windows", path, at)
        per_channel = need(p, "per_channel", path, at)
        if not edges:
            edges.append(first)
        edges.append(first + count)
        entropy.append(need(p, "entropy", path, at))
        load.append(per_channel)
    return edges, entropy, load, window


def mappings_of(path):
    """[(label, series, mean entropy)] of one JSON file, run or explore."""
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise InputProblem("%s: cannot read: %s" % (path, e.strerror))
    except ValueError as e:
        raise InputProblem("%s: not JSON: %s" % (path, e))
    series = need(data, "series", path, "")
    if "points" in series or "window" in series:  # gpumem run
        label = os.path.basename(data.get("config", path))
        return [(label, read_series(series, path, "series."), data.get("mean_window_entropy"))]
    names = ("identity", "configured", "recommended")  # gpumem explore
    for name in names:
        need(series, name, path, "series.")
    out = []  # identity, configured (when it differs from identity), recommended
    for name in names:
        s = series[name]
        mean = data.get(name, {}).get("mean_window_entropy")
        if name == "configured" and mean == data.get("identity", {}).get("mean_window_entropy"):
            continue
        out.append((name, read_series(s, path, "series.%s." % name), mean))
    return out


def save_png(fig, output):
    """Written beside the output and renamed: never a half-written PNG under its name."""
    partial = output + ".partial-%d" % os.getpid()
    try:
        fig.savefig(partial, format="png", dpi=100)
        os.replace(partial, output)
    except OSError as e:
        if os.path.exists(partial):
            os.remove(partial)
        fail("%s: cannot write: %s" % (output, e.strerror))


PREFETCH_KINDS = ("none", "stride", "bfs")
PREFETCH_PANELS = (("makespan", "makespan (cycles)", ("makespan",)),
                   ("miss rate", "misses to memory / reads", ("memory_misses",)),
                   ("coverage", "coverage (misses removed)", ("coverage",)),
                   ("accuracy", "accuracy (useful / issued)", ("prefetch", "accuracy")))


def prefetch_runs(data, path):
    """{kind: {panel: value}} of a --compare-prefetch JSON."""
    runs = need(data, "compare_prefetch", path, "")
    out = {}
    for kind in PREFETCH_KINDS:
        run = need(runs, kind, path, "compare_prefetch.")
        values = {}
        for name, _, keys in PREFETCH_PANELS:
            v, where = run, "compare_prefetch.%s." % kind
            for key in keys:
                v = need(v, key, path, where)
                where += key + "."
            values[name] = float(v)
        # Misses the prefetch buffer answered did not go to memory: the rate
        # over all reads, as the L1's miss rate is.
        reads = float(need(run, "l1_reads", path, "compare_prefetch.%s." % kind))
        values["miss rate"] = values["miss rate"] / reads if reads else 0.0
        out[kind] = values
    return out


def plot_prefetch(runs, output, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(PREFETCH_PANELS), figsize=(4 * len(PREFETCH_PANELS), 3.6))
    colours = ("#888888", "#4c72b0", "#dd8452")
    for ax, (name, label, _) in zip(axes, PREFETCH_PANELS):
        values = [runs[k][name] for k in PREFETCH_KINDS]
        ax.bar(PREFETCH_KINDS, values, color=colours)
        ax.set_title(label, fontsize=10)
        for i, v in enumerate(values):
            ax.annotate(("%d" % v) if name == "makespan" else ("%.3f" % v), (i, v), ha="center", va="bottom", fontsize=8)
    fig.suptitle(title or "prefetchers on the same trace")
    fig.tight_layout()
    save_png(fig, output)


def sweep_lines(data, path):
    """{line value: [(x, y), ...]} of a sweep plot JSON, x numeric where every x is."""
    sweep = need(data, "sweep", path, "")
    points = need(sweep, "points", path, "sweep.")
    if not points:
        raise InputProblem("%s: sweep.points: no point has the metric" % path)
    numeric = True
    for p in points:
        try:
            float(p["x"])
        except (KeyError, TypeError, ValueError):
            numeric = False
    lines = {}
    for p in points:
        x = float(p["x"]) if numeric else str(p["x"])
        lines.setdefault(str(p.get("line", "")), []).append((x, float(need(p, "y", path, "sweep.points[]."))))
    return sweep, lines, numeric


def value_text(v):
    """A metric's value as a label: a few significant digits, thousands grouped."""
    if v == int(v) and abs(v) < 1e15:
        return "{:,}".format(int(v))
    if abs(v) >= 1000:
        return "{:,.0f}".format(v)
    return "%.4g" % v


def tick_text(x, width=24):
    """An axis value as a tick label: YAML's flow form without its spaces after
    commas and colons, cut to `width` characters."""
    t = str(x).replace(", ", ",").replace(": ", ":")
    return t if len(t) <= width else t[:width - 3] + "..."


def plot_sweep(sweep, lines, numeric, output, title):
    """A numeric axis: a line per --lines value, a point per x (on a log
    scale when the values span a factor of 64 or more). Any other
    axis (a scheme, a policy, a list of bits): its values in point order,
    a group of bars each, one bar per --lines value. Every point or bar is
    labelled with its value. Returns the axes drawn (the tests read them)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    order = []
    for values in lines.values():
        for x, _ in values:
            if x not in order:
                order.append(x)
    fig, ax = plt.subplots(figsize=(max(6.4, 1.1 * len(order) * max(1, len(lines)) ** 0.5), 4.2))
    legend = bool(sweep.get("lines"))
    if numeric:
        for name, values in lines.items():
            values = sorted(values, key=lambda v: v[0])
            ax.plot([v[0] for v in values], [v[1] for v in values], marker="o",
                    label=("%s = %s" % (sweep["lines"], name)) if legend else None)
            for x, y in values:
                ax.annotate(value_text(y), (x, y), textcoords="offset points", xytext=(0, 5), ha="center", fontsize=7)
        # Sizes and strides swept by powers: a log scale, ticked at the values swept.
        if all(x > 0 for x in order) and max(order) / min(order) >= 64:
            ax.set_xscale("log", base=2)
            ax.set_xticks(sorted(order))
            ax.set_xticklabels([value_text(x) for x in sorted(order)], fontsize=8)
            ax.minorticks_off()
    else:
        width = 0.8 / len(lines)
        for k, (name, values) in enumerate(lines.items()):
            at = {x: y for x, y in values}
            xs = [i - 0.4 + width * (k + 0.5) for i, x in enumerate(order) if x in at]
            ys = [at[x] for x in order if x in at]
            bars = ax.bar(xs, ys, width=width * 0.95, label=("%s = %s" % (sweep["lines"], name)) if legend else None)
            ax.bar_label(bars, labels=[value_text(y) for y in ys], fontsize=7, padding=2)
        ticks = [tick_text(x) for x in order]
        tilt = len(order) > 4 or max(len(t) for t in ticks) > 12  # so that neighbours do not overlap
        ax.set_xticks(range(len(order)))
        ax.set_xticklabels(ticks, rotation=30 if tilt else 0, ha="right" if tilt else "center", fontsize=8)
    ax.margins(y=0.12)  # room for the labels above the highest value
    ax.set_xlabel(sweep["x"])
    ax.set_ylabel(sweep["y"])
    if legend:
        ax.legend(fontsize=8)
    ax.set_title(title or "%s against %s" % (sweep["y"], sweep["x"]))
    fig.tight_layout()
    save_png(fig, output)
    return ax


def plot(mappings, output, title):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = len(mappings) + 1
    fig, grid = plt.subplots(rows, 2, figsize=(10, 2.2 * rows + 1), sharex="col", squeeze=False,
                             gridspec_kw={"width_ratios": [40, 1]})
    axes = [a[0] for a in grid]
    channels = max(len(s[2][0]) for _, s, _ in mappings)
    shares = []  # per mapping: [channel][point], the channel's share of the point's requests
    for _, (_, _, load, _), _ in mappings:
        totals = [sum(counts) for counts in load]
        shares.append([[counts[c] / t if t and c < len(counts) else 0.0 for counts, t in zip(load, totals)]
                       for c in range(channels)])
    top = max([2.0 / channels] + [max(max(row) for row in share) for share in shares])  # one scale for all
    for ax, bar, share, (label, (edges, _, _, window), mean) in zip(axes, [a[1] for a in grid], shares, mappings):
        mesh = ax.pcolormesh(edges, list(range(channels + 1)), share, cmap="viridis", vmin=0, vmax=top, shading="flat")
        ax.set_ylabel("channel")
        ax.set_title("%s: share of requests per channel (windows of %d)" % (label, window), fontsize=10)
        fig.colorbar(mesh, cax=bar, label="share")
    ax = axes[-1]
    for label, (edges, entropy, _, _), mean in mappings:
        xs, ys = [], []
        for i, h in enumerate(entropy):  # steps: each point holds over its windows
            xs += [edges[i], edges[i + 1]]
            ys += [h, h]
        text = label if mean is None else "%s (mean %.4f)" % (label, mean)
        ax.plot(xs, ys, label=text, linewidth=1)
    ax.axhline(math.log2(channels), color="grey", linestyle="--", linewidth=0.8, label="log2 %d channels" % channels)
    ax.set_ylabel("entropy (bits)")
    ax.set_xlabel("window")
    ax.set_ylim(top=math.log2(channels) * 1.02 if channels > 1 else 1)
    ax.legend(fontsize=8, loc="best")
    grid[-1][1].axis("off")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    save_png(fig, output)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("inputs", nargs="+", help="gpumem run --stats-json or gpumem explore --json files (at most two)")
    parser.add_argument("--output", "-o", required=True, help="PNG to write")
    parser.add_argument("--title", help="title of the figure")
    args = parser.parse_args()
    if len(args.inputs) > 2:
        fail("at most two inputs (two runs to compare, or one explore JSON)")
    try:
        with open(args.inputs[0]) as f:
            first = json.load(f)
    except (OSError, ValueError):
        first = None  # mappings_of says what is wrong with it
    prefetch = isinstance(first, dict) and "compare_prefetch" in first
    sweep = isinstance(first, dict) and "sweep" in first
    if (prefetch or sweep) and len(args.inputs) > 1:
        fail("a --compare-prefetch or sweep JSON is plotted alone")
    try:
        if sweep:
            sweep_data, lines, numeric = sweep_lines(first, args.inputs[0])
        elif prefetch:
            runs = prefetch_runs(first, args.inputs[0])
        else:
            mappings = []
            for path in args.inputs:
                mappings += mappings_of(path)
    except InputProblem as e:
        fail(str(e))
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        fail("matplotlib is missing; install python3-matplotlib (apt-get install python3-matplotlib, or scripts/install-deps.sh)")
    if sweep:
        plot_sweep(sweep_data, lines, numeric, args.output, args.title)
    elif prefetch:
        plot_prefetch(runs, args.output, args.title)
    else:
        plot(mappings, args.output, args.title)


if __name__ == "__main__":
    main()
