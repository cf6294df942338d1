#!/usr/bin/env python3
"""Extracts the file part from a saved multipart/form-data body.

    python3 extract_part.py BODY OUT

Writes the content of the first part that has a filename to OUT. Streams: memory stays small
whatever the size of BODY. Standard library only.
"""
import sys

CHUNK = 1 << 20


def main():
    body, out_path = sys.argv[1], sys.argv[2]
    with open(body, "rb") as f:
        first = f.readline()  # --boundary\r\n
        if not first.startswith(b"--"):
            sys.exit("not a multipart body: it does not start with a boundary")
        boundary = first.rstrip(b"\r\n")
        delimiter = b"\r\n" + boundary
        while True:
            headers = []
            while True:
                line = f.readline()
                if line in (b"\r\n", b""):
                    break
                headers.append(line.decode("utf-8", "replace").strip())
            is_file = any(h.lower().startswith("content-disposition") and "filename=" in h for h in headers)
            # Copy (or skip) until the next delimiter, keeping a tail that may hold a split delimiter.
            out = open(out_path, "wb") if is_file else None
            pending = b""
            while True:
                data = f.read(CHUNK)
                if not data and not pending:
                    sys.exit("the body ends inside a part")
                pending += data
                at = pending.find(delimiter)
                if at >= 0:
                    if out:
                        out.write(pending[:at])
                        out.close()
                        return 0
                    rest = pending[at + len(delimiter):]
                    f.seek(f.tell() - len(rest))
                    if f.readline().startswith(b"--"):  # the closing delimiter
                        sys.exit("the body has no file part")
                    break
                keep = len(delimiter)
                if out:
                    out.write(pending[:-keep])
                pending = pending[-keep:]
                if not data:
                    sys.exit("the body ends inside a part")


if __name__ == "__main__":
    sys.exit(main())
