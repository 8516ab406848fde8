"""A webhook receiver for the tests: it writes every request it gets (path, headers, body)
as one JSON line to LOG and answers by the path:

  /ok        200
  /flaky     500 the first time it sees a webhook-id, 200 after
  /down      500 always
  /redirect  307 to /ok (which a sender must not follow)

Usage: python3 receiver.py PORT LOG
"""

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT, LOG = int(sys.argv[1]), sys.argv[2]
seen = set()
lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("content-length", "0"))
        body = self.rfile.read(length).decode("utf-8")
        message = self.headers.get("webhook-id", "")
        with lock:
            first = message not in seen
            seen.add(message)
            with open(LOG, "a", encoding="utf-8") as log:
                log.write(json.dumps({"path": self.path, "headers": dict(self.headers.items()), "body": body}) + "\n")
        if self.path == "/redirect":
            self.send_response(307)
            self.send_header("location", "/ok")
        elif self.path == "/down" or (self.path == "/flaky" and first):
            self.send_response(500)
        else:
            self.send_response(200)
        reply = b"receiver says no" if self.path in ("/down", "/flaky") and first else b""
        self.send_header("content-length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
