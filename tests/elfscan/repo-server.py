#!/usr/bin/env python3
"""repo-server.py ROOT LOG PORT-FILE BAD: the files of ROOT over HTTP on
127.0.0.1, at a port the system picks, written to PORT-FILE once the server
listens (tests/elfscan/repo-url.sh). Each request's "METHOD PATH" is
appended to LOG before it is answered, so that a test can wait for one
instead of for a time. BAD, read at each request, holds lines "PATH HOW"
that answer PATH badly: 404 or 500; stall, the headers and half the body,
then nothing; wrong, the body with a byte
changed."""

import http.server
import os
import sys
import time

ROOT, LOG, PORT_FILE, BAD = sys.argv[1:5]


def how(path):
    try:
        with open(BAD) as f:
            for line in f:
                words = line.split()
                if len(words) == 2 and words[0] == path:
                    return words[1]
    except FileNotFoundError:
        pass
    return None


class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=ROOT, **kwargs)

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        with open(LOG, "a") as f:
            f.write("GET %s\n" % self.path)
        bad = how(self.path)
        if bad in ("404", "500"):
            self.send_error(int(bad))
        elif bad in ("stall", "wrong"):
            with open(os.path.join(ROOT, self.path.lstrip("/")), "rb") as f:
                body = bytearray(f.read())
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if bad == "wrong":
                body[-100] ^= 1
                self.wfile.write(body)
                return
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            # Nothing more, until the test ends the server.
            time.sleep(3600)
        else:
            super().do_GET()


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


server = Server(("127.0.0.1", 0), Handler)
with open(PORT_FILE + ".new", "w") as f:
    f.write("%d\n" % server.server_address[1])
os.rename(PORT_FILE + ".new", PORT_FILE)
server.serve_forever()
