#!/usr/bin/env python3
"""Every gpumem subcommand, flag and config key the docs name exists.

  scripts/check_doc_names.py BUILD/gpumem SOURCE_DIR

Reads README.md and docs/*.md. In code (fenced blocks and `inline spans`):
a `gpumem` command's subcommands and --flags must be the program's (its own
--help says which, subcommand by subcommand); a dotted name whose first part
is a config section (`memory.dram.row_commands`, `l1.prefetch.degree: 4`)
must be a key the config reader takes (a YAML file holding only that key
must not be refused as an unknown key) or a member of a run's stats JSON
(`mmu.walk_cycles`; lists' items named by their members, `frontend.sms`'s
`requests` as `frontend.sms[].requests`, which this does not check: the
runs are configs/default.yaml and a per-thread trace through
configs/examples/bfs.yaml); a name after the word "CTest" must be a test
of the build's (`ctest -N` in GPUMEM's folder). A line that shows an error message
(holding "unknown", "refused", "did you mean", "not one of" or "error:":
docs/errors.md's bad inputs, say) is skipped: its names are wrong on
purpose. Prints each name that does not exist, with its file and line;
exit 1 if any.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

SEPARATORS = {"|", "||", "&&", ";", ">", ">>", "2>", "2>&1", "<", "&"}
ERROR_WORDS = ("unknown", "refused", "did you mean", "not one of", "error:")


def help_of(gpumem, path):
    out = subprocess.run([gpumem, *path, "--help"], capture_output=True, text=True).stdout
    flags, subs, section = set(), set(), None
    for line in out.splitlines():
        if line.endswith(":") and not line.startswith(" "):
            section = line[:-1].split(" [")[0]
            continue
        if section == "Options" and line.startswith("  -"):
            for name in line.split()[0].split(","):
                flags.add(name)
        if section == "Subcommands" and line.startswith("  ") and not line.startswith("   "):
            subs.add(line.split()[0])
    return flags, subs


def command_tree(gpumem):
    tree = {}

    def walk(path):
        flags, subs = help_of(gpumem, path)
        tree[tuple(path)] = (flags, subs)
        for s in subs:
            walk(path + [s])

    walk([])
    return tree


def code_spans(text):
    """(line number, code) for each fenced line (its shell comment cut off)
    and each inline span, on lines that show no error message."""
    fenced = False
    for n, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if any(w in line.lower() for w in ERROR_WORDS):
            continue
        if fenced:
            yield n, re.sub(r"(^|\s)#.*", "", line), False
        else:
            for m in re.finditer(r"`([^`]+)`", line):
                yield n, m.group(1), bool(re.search(r"CTests? (test )?$", line[:m.start()]))


def check_command(tree, tokens):
    """Names in one gpumem command line that do not exist."""
    bad, path = [], []
    for i, tok in enumerate(tokens):
        if tok in SEPARATORS or tok.startswith(("$(", "`")):
            break
        flags, subs = tree[tuple(path)]
        if tok.startswith("-"):
            name = tok.split("=")[0]
            known = set()
            for k in range(len(path) + 1):
                known |= tree[tuple(path[:k])][0]
            if name not in known and re.fullmatch(r"--?[a-z][a-z0-9-]*", name):
                bad.append(("flag", name, " ".join(["gpumem"] + path)))
            continue
        if tok in subs:
            path.append(tok)
            continue
        if not subs:
            continue  # a positional of the command
        if re.fullmatch(r"[a-z][a-z-]+", tok):
            bad.append(("subcommand", tok, " ".join(["gpumem"] + path)))
        break  # not a command line (prose, a path): nothing more to check
    return bad


def emit(node, depth=0):
    """YAML text of nested dicts and one-item lists with scalar leaves."""
    lines = []
    for k, v in node.items():
        pad = "  " * depth
        if isinstance(v, dict):
            lines.append(f"{pad}{k}:")
            lines += emit(v, depth + 1)
        elif isinstance(v, list):
            lines.append(f"{pad}{k}:")
            item = emit(v[0], depth + 2)
            lines.append("  " * (depth + 1) + "- " + item[0].lstrip())
            lines += item[1:]
        else:
            lines.append(f"{pad}{k}: {v}")
    return lines


def config_key_refused(gpumem, key, cache):
    """Whether the config reader refuses `key` (or a part of it) as unknown."""
    if key in cache:
        return cache[key]
    parts = key.split(".")
    lists = set()  # depths whose value the reader wants as a list (translator.tasks, say)
    for _ in range(len(parts)):
        # A config that only has to have a memory section, and the key with
        # the value 0, whatever its type: only an unknown key is looked for.
        root = {"memory": {"channels": 4}}
        node = root
        for depth, p in enumerate(parts):
            last = depth == len(parts) - 1
            if last:
                node[p] = 0
                break
            child = node.get(p) if isinstance(node.get(p), dict) else {}
            node[p] = [child] if depth in lists else child
            node = child
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
            f.write("\n".join(emit(root)) + "\n")
            path = f.name
        try:
            out = subprocess.run([gpumem, "check-config", path], capture_output=True, text=True)
            message = out.stdout + out.stderr
        finally:
            os.unlink(path)
        m = re.search(r": ([A-Za-z0-9_.\[\]]+): expected a list", message)
        if m:
            depth = m.group(1).replace("[0]", "").count(".")
            if depth not in lists and depth < len(parts) - 1:
                lists.add(depth)
                continue
        break
    m = re.search(r": ([A-Za-z0-9_.\[\]]+): unknown key", message)
    unknown = m.group(1).replace("[0]", "") if m else None
    refused = unknown is not None and (key == unknown or key.startswith(unknown + "."))
    cache[key] = refused
    return refused


def stats_names(gpumem, src):
    """Every dotted member name of the stats JSON of two runs."""
    names = set()

    def walk(o, prefix):
        if isinstance(o, dict):
            for k, v in o.items():
                name = f"{prefix}.{k}" if prefix else k
                names.add(name)
                walk(v, name)

    with tempfile.TemporaryDirectory() as d:
        bfs = os.path.join(src, "configs", "examples", "bfs.yaml")
        trace = os.path.join(d, "t.bin")
        subprocess.run([gpumem, "trace", "gen", "strided", "--config", bfs, "--app", "bfs", "--region", "graph", "--out", trace,
                        "--quiet"], check=True)
        for n, args in enumerate([["--config", os.path.join(src, "configs", "default.yaml")], ["--config", bfs, "--threads", trace]]):
            out = os.path.join(d, f"{n}.json")
            subprocess.run([gpumem, "run", *args, "--stats-json", out, "--no-timing"], check=True, capture_output=True)
            with open(out, encoding="utf-8") as f:
                walk(json.load(f), "")
    return names


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    gpumem, src = sys.argv[1], sys.argv[2]
    tree = command_tree(gpumem)
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
        f.write("no_such_section: 0\n")
        path = f.name
    try:
        msg = subprocess.run([gpumem, "check-config", path], capture_output=True, text=True).stderr
    finally:
        os.unlink(path)
    m = re.search(r"allowed: ([a-z0-9_, ]+)\)", msg)
    if not m:
        print("check_doc_names: could not read the config's sections from: " + msg.strip(), file=sys.stderr)
        return 2
    sections = {s.strip() for s in m.group(1).split(",")}

    files = [os.path.join(src, "README.md")] + sorted(
        os.path.join(src, "docs", f) for f in os.listdir(os.path.join(src, "docs")) if f.endswith(".md"))
    stats = stats_names(gpumem, src)
    listing = subprocess.run(["ctest", "--test-dir", os.path.dirname(os.path.abspath(gpumem)), "-N"], capture_output=True,
                             text=True).stdout
    tests = set(re.findall(r"Test +#\d+: (\S+)", listing))
    problems, keys_seen, cache = [], 0, {}
    for file in files:
        rel = os.path.relpath(file, src)
        with open(file, encoding="utf-8") as fh:
            text = fh.read()
        for n, code, test_name in code_spans(text):
            if test_name:
                if code not in tests:
                    problems.append(f"{rel}:{n}: CTest {code} does not exist")
                continue
            words = code.split()
            for i, w in enumerate(words):
                if re.fullmatch(r"(\S*/)?gpumem", w) and i + 1 < len(words):
                    for kind, name, where in check_command(tree, words[i + 1:]):
                        problems.append(f"{rel}:{n}: {kind} {name} of {where} does not exist")
            key = code.split(":")[0].strip()
            if re.fullmatch(r"[a-z][a-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+", key) and key.split(".")[0] in sections:
                keys_seen += 1
                if key not in stats and config_key_refused(gpumem, key, cache):
                    problems.append(f"{rel}:{n}: {key} is neither a config key nor a member of the stats JSON")
    for p in problems:
        print(p)
    print(f"check_doc_names: {len(files)} files, {len(tree)} commands, {len(cache)} config keys ({keys_seen} mentions): "
          f"{len(problems)} names that do not exist")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
