#!/usr/bin/env python3
"""tests/agent/clock_then_gone.py ADDR_FILE HOST - a stand-in agent that answers the clock
exchange (GET /time, as common/clock_exchange.h writes it) over one kept-alive connection and
goes as soon as that connection closes: an agent lost between its clock and its plan. Writes its
address to ADDR_FILE once it listens; ends by itself after 30 s."""
import http.server
import sys
import time


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        t2 = time.time_ns()
        if self.path != "/time":
            self.send_error(404)
            return
        body = f"{t2} {time.time_ns()} {sys.argv[2]}\n".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
with open(sys.argv[1], "w") as f:
    f.write(f"127.0.0.1:{server.server_address[1]}\n")
server.timeout = 30
# one connection (the exchange), then gone: the listener closed, so the plan finds no one
server.handle_request()
server.server_close()
sys.exit(0)
