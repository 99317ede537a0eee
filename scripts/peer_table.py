"""What the peer comparisons (dram_peer_compare.py, l1_peer_compare.py) share: print
the table, and say whether the figures and the page's copy of the table hold."""
import sys


def report(table, failures, check, docs, marker, what):
    """Prints `table`; returns 1 if `check` and a figure failed, or `docs` does not hold
    the table between <!-- marker --> and <!-- /marker -->, else 0."""
    print(table)
    status = 0
    if check and failures:
        print("\n".join(["outside the tolerance:"] + failures), file=sys.stderr)
        status = 1
    if docs:
        with open(docs) as f:
            text = f.read()
        begin, end = f"<!-- {marker} -->\n", f"\n<!-- /{marker} -->"
        if begin not in text or end not in text:
            print(f"{docs}: no {begin.strip()} ... {end.strip()} section", file=sys.stderr)
            status = 1
        elif text.split(begin, 1)[1].split(end, 1)[0] != table:
            print(f"{docs}: the {what} table differs from this run's; paste the table printed above", file=sys.stderr)
            status = 1
    return status
