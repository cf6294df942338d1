#!/usr/bin/env python3
"""Checks the gateway's sanitized file against the pandas reference output and the original.

    python3 check_output.py ORIGINAL.csv GATEWAY.csv PANDAS.csv

Passes when both outputs have the same columns (the original's minus customer_ssn and
internal_notes), the same number of rows, the same cells on every row, and when the pseudonyms of a
few sample rows, recomputed here from the original with hmac (key dev-only-pseudonymization-key,
first 16 hex chars of HMAC-SHA256), match. Also says whether the two files are byte-identical.
Prints the sample rows. Exit status 0 on success, 1 on a mismatch. Standard library only.
"""
import csv
import filecmp
import hashlib
import hmac
import random
import sys

KEY = b"dev-only-pseudonymization-key"
DROP = {"customer_ssn", "internal_notes"}
PSEUDO = ("customer_id", "email")


def pseudonym(value):
    return "" if value == "" else hmac.new(KEY, value.encode("utf-8"), hashlib.sha256).hexdigest()[:16]


def main():
    original, gateway, pandas_out = sys.argv[1:4]
    problems = []
    with open(original, newline="", encoding="utf-8") as fo, open(gateway, newline="", encoding="utf-8") as fg, \
            open(pandas_out, newline="", encoding="utf-8") as fp:
        ro, rg, rp = csv.reader(fo), csv.reader(fg), csv.reader(fp)
        ho, hg, hp = next(ro), next(rg), next(rp)
        expected = [c for c in ho if c not in DROP]
        print(f"columns: gateway {hg}")
        print(f"         pandas  {hp}")
        if hg != expected:
            problems.append(f"gateway columns {hg} != expected {expected}")
        if hp != expected:
            problems.append(f"pandas columns {hp} != expected {expected}")
        keep = [ho.index(c) for c in expected]
        pseudo_at = {c: expected.index(c) for c in PSEUDO}
        rows = 0
        samples = []
        rng = random.Random(7)
        mismatches = 0
        email_at, product_at = ho.index("email"), ho.index("product")
        want_empty, want_comma = True, True
        for o, g, p in zip(ro, rg, rp):
            rows += 1
            if g != p:
                mismatches += 1
                if mismatches <= 3:
                    problems.append(f"row {rows}: gateway {g} != pandas {p}")
            special = (want_empty and o[email_at] == "") or (want_comma and "," in o[product_at])
            if special or rows <= 2 or rng.random() < 3e-6 or (rows % 100000 == 0 and len(samples) < 10):
                samples.append((rows, o, g, p))
                want_empty = want_empty and o[email_at] != ""
                want_comma = want_comma and "," not in o[product_at]
        leftover = sum(1 for _ in ro), sum(1 for _ in rg), sum(1 for _ in rp)
        if any(leftover):
            problems.append(f"row counts differ: left over after {rows} rows (original, gateway, pandas) = {leftover}")
        if mismatches:
            problems.append(f"{mismatches} rows differ between gateway and pandas")
    print(f"rows compared: {rows}")
    for n, o, g, p in samples:
        want = [o[i] for i in keep]
        for c in PSEUDO:
            want[pseudo_at[c]] = pseudonym(o[ho.index(c)])
        ok = g == want and p == want
        print(f"  row {n}: {ho[1]}={o[1]} {ho[3]}={o[3] or '(empty)'} -> gateway {g[pseudo_at['customer_id']]},"
              f"{g[pseudo_at['email']] or '(empty)'} pandas {p[pseudo_at['customer_id']]},"
              f"{p[pseudo_at['email']] or '(empty)'} hmac {want[pseudo_at['customer_id']]},"
              f"{want[pseudo_at['email']] or '(empty)'} product={g[expected.index('product')]!r} "
              f"{'OK' if ok else 'MISMATCH'}")
        if not ok:
            problems.append(f"row {n}: gateway {g} / pandas {p} / expected {want}")
    identical = filecmp.cmp(gateway, pandas_out, shallow=False)
    print(f"byte-identical files: {'yes' if identical else 'no'}")
    if problems:
        print("CORRECTNESS: FAIL")
        for problem in problems:
            print("  " + problem)
        return 1
    print("CORRECTNESS: PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
