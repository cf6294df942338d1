#!/usr/bin/python3
"""What a user would otherwise write to sanitize the orders workbook before uploading it: openpyxl.

    /usr/bin/python3 openpyxl_reference.py IN.xlsx OUT.xlsx

Streams every sheet (read-only mode) into a new workbook (write-only mode): the first row is the
header, customer_ssn and internal_notes are dropped, customer_id and email become the first 16 hex
characters of HMAC-SHA256(key, value) of their text (empty cells stay empty); formulas are not kept
(read-only mode returns cached values). Prints one JSON line like pandas_reference.py: input bytes,
seconds (read + transform + write, without interpreter start-up and imports), MB/s.
Needs Debian python3-openpyxl (run with /usr/bin/python3).
"""
import time

_t_import = time.perf_counter()
import hashlib  # noqa: E402
import hmac  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402

import openpyxl  # noqa: E402

KEY = b"dev-only-pseudonymization-key"
DROP = {"customer_ssn", "internal_notes"}
PSEUDONYMIZE = {"customer_id", "email"}


def pseudonym(value) -> str:
    text = "" if value is None else str(value)
    if text == "":
        return None
    return hmac.new(KEY, text.encode("utf-8"), hashlib.sha256).hexdigest()[:16]


def main():
    src, dst = sys.argv[1], sys.argv[2]
    import_seconds = time.perf_counter() - _t_import
    started = time.perf_counter()
    source = openpyxl.load_workbook(src, read_only=True, data_only=True)
    target = openpyxl.Workbook(write_only=True)
    rows = 0
    for sheet in source.worksheets:
        out = target.create_sheet(sheet.title)
        keep = pseud = None
        for values in sheet.iter_rows(values_only=True):
            if keep is None:
                names = [str(v or "").strip().lower() for v in values]
                keep = [i for i, n in enumerate(names) if n not in DROP]
                pseud = {i for i, n in enumerate(names) if n in PSEUDONYMIZE}
                out.append([values[i] for i in keep])
                continue
            out.append([pseudonym(values[i]) if i in pseud else values[i] for i in keep if i < len(values)])
            rows += 1
    target.save(dst)
    seconds = time.perf_counter() - started
    size = os.path.getsize(src)
    print(json.dumps({"input_bytes": size, "rows": rows, "seconds": round(seconds, 3),
                      "mb_per_s": round(size / 1e6 / seconds, 2), "import_seconds": round(import_seconds, 3),
                      "openpyxl": openpyxl.__version__}))


if __name__ == "__main__":
    main()
