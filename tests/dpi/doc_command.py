#!/usr/bin/env python3
"""Prints a command of docs/dpi.md (its "<!-- dpi-bench: NAME -->" block) as
NUL-separated arguments, with the page's repository-relative paths made this
run's: build/ -> the build folder, build/dpi-bench -> WORK/obj, the translator
source -> RTL, every other path -> the source tree's.

    doc_command.py DOC NAME SRC BUILD WORK RTL
    doc_command.py DOC NAME --output   the block after NAME's: what it prints
"""
import shlex
import sys

doc, which = sys.argv[1:3]
lines = open(doc).read().split("\n")
marker = f"<!-- dpi-bench: {which} -->"
if marker not in lines:
    sys.exit(f"{doc}: no '{marker}' block")
i = lines.index(marker) + 2  # past the marker and the opening fence
text = ""
while not lines[i].startswith("```"):
    text += lines[i].rstrip("\\") + " "
    i += 1
if sys.argv[3:] == ["--output"]:
    i += 1
    while not lines[i].startswith("```"):
        i += 1
    i += 1
    while not lines[i].startswith("```"):
        print(lines[i])
        i += 1
    sys.exit(0)
src, build, work, rtl = sys.argv[3:]


def path(a):
    if a == "rtl/gpumem_xor_translator.sv":
        return rtl
    if a.startswith("build/dpi-bench"):
        return work + "/obj" + a[len("build/dpi-bench"):]
    if a.startswith("build/"):
        return build + a[len("build"):]
    if a.startswith("-Wl,-rpath,build/"):
        return "-Wl,-rpath," + build + a[len("-Wl,-rpath,build"):]
    if a.startswith("+config="):
        return "+config=" + path(a[len("+config="):])
    if "/" in a and a.split("/")[0] in ("tb", "tests", "verilator", "configs", "rtl"):
        return src + "/" + a
    return a


sys.stdout.write("".join(path(a) + "\0" for a in shlex.split(text)))
