#!/usr/bin/env python3
"""Keeps the tree's citations resolvable by a user, who has docs/references.md
and not the project's own copies of the source documents. Fails, naming
FILE:LINE, on
  - a source document cited by the number of our copy of it ("seed" and
    three digits) or a section of the project's internal specification;
  - a claim or paragraph number with no patent of docs/references.md (a
    heading there) named before it in the same paragraph (a block of lines
    without a blank or comment-only line, comment markers dropped) or, in
    Markdown, in the heading of its section;
  - a patent number that docs/references.md does not hold.

Usage: check_references.py [ROOT]  (default: the tree this script is in)."""
import os
import re
import sys

# What a user reads: docs, help and description texts, configs and comments.
TOP_FILES = ["README.md", "CHANGELOG.md", "CMakeLists.txt"]
TOP_DIRS = ["docs", "configs", "sc_models", "cli", "tb", "rtl", "verilator", "tests", "scripts", "bench"]
REFERENCES = os.path.join("docs", "references.md")

OWN_COPY = re.compile(r"\bseeds?\s+0\d\d\b", re.IGNORECASE)
INTERNAL_SPEC = re.compile(r"\bSPEC(?:\.md\b|\s+(?:section\s+)?\d|\s+and\b)")
CITATION = re.compile(r"\b(?:claims?\s+\d+|paragraphs?\s+\[?\d{4}\]?|para\s+\[?\d{4}\]?)|(?<![\w\]])\[0\d{3}\]",
                      re.IGNORECASE)
PATENT_NUMBER = re.compile(r"\b(?:CN\d{9}[AB]\d?|US\d{8}B\d)\b")
COMMENT_MARKER = re.compile(r"^\s*(?://+!?|/\*+|\*+/?|#+|--)?\s*")


def patents(root):
    """The patents docs/references.md has an entry (a heading) for, and its whole text."""
    with open(os.path.join(root, REFERENCES), encoding="utf-8") as f:
        text = f.read()
    headings = [m.group(1).strip() for m in re.finditer(r"^###\s+(.+)$", text, re.MULTILINE)]
    return [h for h in headings if PATENT_NUMBER.fullmatch(h)], text


def files(root):
    for name in TOP_FILES:
        if os.path.isfile(os.path.join(root, name)):
            yield name
    for top in TOP_DIRS:
        for folder, subfolders, names in os.walk(os.path.join(root, top)):
            subfolders[:] = sorted(d for d in subfolders if not d.startswith("build"))
            for name in sorted(names):
                yield os.path.relpath(os.path.join(folder, name), root)


def paragraphs(lines, markdown):
    """(first line number, joined text, offset of each line in it, heading of
    its section) of each block."""
    block, offsets, first, heading, fenced = "", [], 0, "", False
    for number, line in enumerate(lines, 1):
        body = COMMENT_MARKER.sub("", line, count=1).rstrip()
        if markdown and line.startswith("```"):
            fenced = not fenced
        elif markdown and line.startswith("#") and not fenced:
            heading = body
        if not body:
            if block:
                yield first, block, offsets, heading
            block, offsets = "", []
            continue
        if not block:
            first = number
        offsets.append(len(block))
        block += body + " "
    if block:
        yield first, block, offsets, heading


def problems(path, text, patent_names, references_text):
    """(line, message) of each unresolvable reference in one file's text."""
    found = []
    for first, block, offsets, heading in paragraphs(text.splitlines(), path.endswith(".md")):
        def line_of(pos):
            index = max(i for i, o in enumerate(offsets) if o <= pos)
            return first + index, (offsets[index + 1] if index + 1 < len(offsets) else len(block))

        lower = block.lower()  # the patterns' words, looked for first: scanning every block with them is slow
        for m in OWN_COPY.finditer(block) if "seed" in lower else ():
            found.append((line_of(m.start())[0],
                          f"'{m.group(0)}' is our copy's number: cite the document by its name in {REFERENCES}"))
        for m in INTERNAL_SPEC.finditer(block) if "SPEC" in block else ():
            found.append((line_of(m.start())[0],
                          f"'{m.group(0)}' cites the internal specification, which users do not have: say what it asks"))
        for m in CITATION.finditer(block) if "claim" in lower or "para" in lower or "[0" in block else ():
            line, line_end = line_of(m.start())
            if not any(name in heading or name in block[:line_end] for name in patent_names):
                found.append((line, f"'{m.group(0)}' names no patent of {REFERENCES} before it in its paragraph"))
        for m in PATENT_NUMBER.finditer(block) if "CN" in block or "US" in block else ():
            if m.group(0) not in references_text:
                found.append((line_of(m.start())[0], f"'{m.group(0)}' is not in {REFERENCES}"))
    return sorted(found)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    patent_names, references_text = patents(root)
    this = os.path.abspath(__file__)
    failures, checked = [], 0
    for path in files(root):
        full = os.path.join(root, path)
        if os.path.abspath(full) == this:
            continue  # its patterns and messages describe what it looks for
        try:
            with open(full, encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, OSError):
            continue  # binary: nothing a user reads
        checked += 1
        failures += [f"{path}:{line}: {message}" for line, message in problems(path, text, patent_names, references_text)]
    if failures:
        print("\n".join(failures), file=sys.stderr)
        print(f"{len(failures)} unresolvable reference(s) in {checked} files", file=sys.stderr)
        return 1
    print(f"{checked} files: every reference resolves in {REFERENCES} ({len(patent_names)} patents)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
