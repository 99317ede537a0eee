#!/usr/bin/env python3
"""The CTest bench.syntax (bench/CMakeLists.txt): compiles every source of
the named targets with -fsyntax-only, using the build's own compile
commands, so a benchmark the default build leaves out still fails the suite
when a change breaks its code.

    check-syntax.py BUILD/compile_commands.json TARGET...

Exit 0 when every source compiles, 1 naming each that does not, 2 for a
missing commands file or a target with no source in it."""
import json
import shlex
import subprocess
import sys


def main(argv):
    if len(argv) < 3:
        print("usage: check-syntax.py COMPILE_COMMANDS TARGET...", file=sys.stderr)
        return 2
    try:
        with open(argv[1]) as f:
            commands = json.load(f)
    except (OSError, ValueError) as e:
        print(f"{argv[1]}: {e}", file=sys.stderr)
        return 2
    failed = 0
    for target in argv[2:]:
        marker = f"/{target}.dir/"
        mine = [c for c in commands if marker in c.get("output", "") or marker in c["command"]]
        if not mine:
            print(f"{target}: no compile command in {argv[1]}", file=sys.stderr)
            return 2
        for c in mine:
            cmd = shlex.split(c["command"])
            if "-o" in cmd:
                i = cmd.index("-o")
                del cmd[i:i + 2]
            cmd.append("-fsyntax-only")
            r = subprocess.run(cmd, cwd=c["directory"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if r.returncode != 0:
                failed += 1
                print(f"{target}: {c['file']} does not compile:\n{r.stdout}", file=sys.stderr)
    if failed:
        return 1
    print(f"{len(argv) - 2} benchmarks compile")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
