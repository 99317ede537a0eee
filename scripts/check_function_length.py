#!/usr/bin/env python3
"""No function of the model, the bench, the Verilator glue or the CLI longer
than 80 lines: a longer one is several steps that want names of their own
(docs/architecture.md, "Source layout"). Benches (bench/) and tests
(tests/) are not read; a table that is data, not steps, is listed below with
why. Function extents come from universal-ctags (scripts/install-deps.sh).

usage: check_function_length.py SOURCE_DIR
"""
import shutil
import subprocess
import sys

LIMIT = 80
FOLDERS = ["sc_models", "tb", "verilator", "cli"]
# file:function -> why it may be longer.
DATA_TABLES = {
    "sc_models/regs/register_map.cpp:register_map": "the register map: one row a register, no steps",
}


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    source = sys.argv[1]
    ctags = shutil.which("ctags")
    if not ctags:
        print("check_function_length: ctags not found: install universal-ctags (scripts/install-deps.sh)", file=sys.stderr)
        return 2
    out = subprocess.run(
        [ctags, "-R", "--languages=C++", "--kinds-C++=f", "--fields=+ne", "-x", "--_xformat=%{input}\t%{line}\t%{end}\t%{name}"]
        + FOLDERS,
        cwd=source, capture_output=True, text=True, check=True).stdout
    long, seen = [], 0
    for row in out.splitlines():
        path, line, end, name = row.split("\t")
        if not end:
            continue
        seen += 1
        lines = int(end) - int(line) + 1
        if lines > LIMIT and f"{path}:{name}" not in DATA_TABLES:
            long.append((lines, f"{path}:{line}: {name} is {lines} lines (at most {LIMIT})"))
    if seen < 500:
        print(f"check_function_length: ctags found only {seen} function bodies: is it universal-ctags?", file=sys.stderr)
        return 2
    for _, message in sorted(long, reverse=True):
        print(message)
    if long:
        print(f"{len(long)} functions over {LIMIT} lines: split each into steps with names", file=sys.stderr)
        return 1
    print(f"{seen} functions, none over {LIMIT} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
