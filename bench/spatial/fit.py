#!/usr/bin/env python3
"""Least-squares exponents of build time and rhs time against N (log-log) per family and
profile, from the table `bench/spatial/run.sh` prints (read on stdin)."""
import math
import sys
from collections import defaultdict

rows = defaultdict(list)
for line in sys.stdin:
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) != 7 or not cells[1].isdigit():
        continue
    family, n, _, profile, build, rhs, _ = cells
    rows[(family, profile)].append((int(n), float(build), float(rhs)))


def slope(points):
    xs = [math.log(x) for x, _ in points]
    ys = [math.log(y) for _, y in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


print("| family | profile | N | build ~ N^k | rhs ~ N^k |")
print("| --- | --- | --- | --- | --- |")
for (family, profile), pts in sorted(rows.items()):
    ns = [n for n, _, _ in pts]
    k_build = slope([(n, b) for n, b, _ in pts])
    k_rhs = slope([(n, r) for n, _, r in pts])
    print(f"| {family} | {profile} | {min(ns)}..{max(ns)} | {k_build:.2f} | {k_rhs:.2f} |")
