#!/usr/bin/env python3
"""Prints the benchmark table from run.sh's results TSV (best run per tool and file). The reference is
pandas for CSV files and openpyxl for the workbook. The CPU speed-up compares the CPU seconds of those
best runs: on a shared machine, wall-clock time also measures the neighbours.

    python3 summarize.py results.tsv
Standard library only.
"""
import collections
import csv
import sys


def num(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def main():
    rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
    by = collections.defaultdict(list)
    files = []
    for row in rows:
        by[(row["tool"], row["file"])].append(row)
        if row["file"] not in files:
            files.append(row["file"])
    head = ("| file | size MB | gateway s (runs) | gateway MB/s | gateway CPU s | reference s (runs) | reference MB/s "
            "| reference CPU s | speed-up | CPU speed-up | gateway heap max before/after GC MiB | gateway VmHWM MiB | reference peak RSS MiB |")
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for name in files:
        g = by.get(("gateway", name), [])
        p = [r for (tool, file), found in by.items() if file == name and tool != "gateway" for r in found]
        size = int((g or p)[0]["bytes"])
        gs = [num(r["seconds"]) for r in g]
        ps = [num(r["seconds"]) for r in p]
        gok = [s for s in gs if s is not None]
        pok = [s for s in ps if s is not None]
        gbest = min(gok) if gok else None
        pbest = min(pok) if pok else None
        grow = next((r for r in g if num(r["seconds"]) == gbest), None)
        prow = next((r for r in p if num(r["seconds"]) == pbest), None)

        def runs(values, raw):
            return ", ".join(f"{v:.2f}" if v is not None else r["seconds"] for v, r in zip(values, raw))

        heap_b = max((num(r["heap_before_gc_max_mib"]) or 0 for r in g), default=0)
        heap_a = max((num(r["heap_after_gc_max_mib"]) or 0 for r in g), default=0)
        hwm = max((num(r["peak_rss_mib"]) or 0 for r in g), default=0)
        rss = max((num(r["peak_rss_mib"]) or 0 for r in p), default=0)
        cells = [
            name, f"{size / 1e6:.1f}",
            f"**{gbest:.2f}** ({runs(gs, g)})" if gbest else f"({runs(gs, g)})",
            f"{size / 1e6 / gbest:.1f}" if gbest else "-",
            grow["cpu_seconds"] if grow else "-",
            f"**{pbest:.2f}** ({runs(ps, p)})" if pbest else f"({runs(ps, p)})",
            f"{size / 1e6 / pbest:.1f}" if pbest else "-",
            prow["cpu_seconds"] if prow else "-",
            f"**{pbest / gbest:.1f}x**" if gbest and pbest else "-",
            f"{num(prow['cpu_seconds']) / num(grow['cpu_seconds']):.1f}x" if grow and prow and num(grow["cpu_seconds"]) else "-",
            f"{heap_b:.0f} / {heap_a:.0f}" if g else "-",
            f"{hwm:.0f}" if g else "-",
            f"{rss:.0f}" if p else "-",
        ]
        print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
