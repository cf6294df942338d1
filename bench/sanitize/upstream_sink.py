#!/usr/bin/env python3
"""A stand-in upstream for the benchmark: accepts POST /v1/files, reads the whole body as it streams
in, optionally saves it, and answers with an OpenAI file object.

    python3 upstream_sink.py PORT [--save FILE] [--log FILE]

Why not the gateway's embedded offline simulator: it is WireMock, running inside the gateway's JVM,
and it buffers every request body in memory, so it measures WireMock's heap instead of the
gateway's (with -Xmx256m the 500,000-row upload already fails there with OutOfMemoryError).
This sink runs in its own process and keeps nothing in memory but one 1 MiB buffer.

--save FILE: while saving is switched on, each upload's body (the multipart body the gateway sent)
is written to FILE, replacing the previous one; use extract_part.py to get the sanitized CSV out of
it. Saving starts off; switch it with POST /_bench/save?on=1 (or on=0) sent to the sink directly. --log FILE appends one JSON line per request
with its size and the wall-clock times its first and last body bytes arrived.
Standard library only.
"""
import argparse
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CHUNK = 1 << 20


class Sink(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    save = None
    saving = False
    log = None

    def log_message(self, fmt, *args):  # quiet
        pass

    def _chunks(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return
                remaining = size
                while remaining:
                    data = self.rfile.read(min(CHUNK, remaining))
                    if not data:
                        raise ConnectionError("body ended early")
                    remaining -= len(data)
                    yield data
                self.rfile.readline()
        else:
            remaining = int(self.headers.get("Content-Length") or 0)
            while remaining:
                data = self.rfile.read(min(CHUNK, remaining))
                if not data:
                    raise ConnectionError("body ended early")
                remaining -= len(data)
                yield data

    def do_POST(self):
        if self.path.startswith("/_bench/save"):
            for _ in self._chunks():
                pass
            Sink.saving = "on=1" in self.path
            self._answer(200, {"saving": Sink.saving and bool(self.save)})
            return
        started = time.time()
        first = None
        total = 0
        out = open(self.save, "wb") if self.save and Sink.saving else None
        try:
            for data in self._chunks():
                if first is None:
                    first = time.time()
                total += len(data)
                if out:
                    out.write(data)
        finally:
            if out:
                out.close()
        ended = time.time()
        if self.log:
            with open(self.log, "a") as f:
                f.write(json.dumps({"path": self.path, "bytes": total, "headers_at": started,
                                    "first_byte_at": first or started, "last_byte_at": ended}) + "\n")
        if self.path.split("?")[0] != "/v1/files":
            self._answer(404, {"error": {"message": "the benchmark sink only takes POST /v1/files",
                                         "type": "invalid_request_error", "code": "unknown_url"}})
            return
        self._answer(200, {"id": "file-bench%010d" % int(ended * 1000 % 1e10), "object": "file", "bytes": total,
                           "created_at": int(ended), "filename": "orders.csv", "purpose": "user_data",
                           "status": "processed", "status_details": None})

    def do_GET(self):
        self._answer(404, {"error": {"message": "not here", "type": "invalid_request_error", "code": "unknown_url"}})

    def _answer(self, status, obj):
        body = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("x-request-id", "req_benchsink")
        self.end_headers()
        self.wfile.write(body)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("--save")
    parser.add_argument("--log")
    args = parser.parse_args()
    Sink.save = args.save
    Sink.log = args.log
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Sink)
    print(f"sink listening on 127.0.0.1:{args.port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
