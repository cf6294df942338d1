#!/usr/bin/python3
"""What a user would otherwise write to sanitize the orders file before uploading it: pandas.

    /usr/bin/python3 pandas_reference.py IN.csv OUT.csv

Drops customer_ssn and internal_notes, replaces customer_id and email by the first 16 hex
characters of HMAC-SHA256(key, value) (empty cells stay empty), writes CSV. Prints one JSON line:
input bytes, wall-clock seconds (read + transform + write, not the interpreter and import start-up,
which is reported separately), MB/s of input.

Cells are read as text (dtype=str, keep_default_na=False): with pandas' defaults amounts such as
12.50 would be rewritten as 12.5 and empty cells as NaN, which changes the data; a careful user
keeps the text. Needs pandas from Debian (apt-get install python3-pandas), run with /usr/bin/python3.
"""
import time

_t_import = time.perf_counter()
import hashlib  # noqa: E402
import hmac  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402

import pandas as pd  # noqa: E402

KEY = b"dev-only-pseudonymization-key"
DROP = ["customer_ssn", "internal_notes"]
PSEUDONYMIZE = ["customer_id", "email"]


def pseudonym(value: str) -> str:
    if value == "":
        return ""
    return hmac.new(KEY, value.encode("utf-8"), hashlib.sha256).hexdigest()[:16]


def main():
    src, dst = sys.argv[1], sys.argv[2]
    import_seconds = time.perf_counter() - _t_import
    started = time.perf_counter()
    df = pd.read_csv(src, dtype=str, keep_default_na=False)
    df = df.drop(columns=DROP)
    for column in PSEUDONYMIZE:
        df[column] = df[column].map(pseudonym)
    df.to_csv(dst, index=False)
    seconds = time.perf_counter() - started
    size = os.path.getsize(src)
    print(json.dumps({"input_bytes": size, "rows": len(df), "seconds": round(seconds, 3),
                      "mb_per_s": round(size / 1e6 / seconds, 2), "import_seconds": round(import_seconds, 3),
                      "pandas": pd.__version__}))


if __name__ == "__main__":
    main()
