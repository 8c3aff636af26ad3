#!/usr/bin/env python3
"""A small HTTP server on one test address: GET answers
"hello from ADDR:PORT PATH", POST echoes its body.
usage: httpd.py ADDR PORT [CERT.pem KEY.pem]  (with a certificate: HTTPS)"""
import http.server
import socket
import sys


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def reply(self, body):
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path.startswith("/big/"):
            n = int(self.path[5:])
            self.send_response(200)
            self.send_header("Content-Length", str(n))
            self.end_headers()
            chunk = b"x" * 65536
            while n > 0:
                self.wfile.write(chunk[:min(n, len(chunk))])
                n -= min(n, len(chunk))
            return
        host = self.headers.get("Host", "")
        self.reply(("hello from %s:%d %s host=%s\n" % (self.server.server_address[0],
                    self.server.server_address[1], self.path, host)).encode())

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        self.reply(self.rfile.read(n))

    def log_message(self, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024


addr, port = sys.argv[1], int(sys.argv[2])
if ":" in addr:
    Server.address_family = socket.AF_INET6
srv = Server((addr, port), Handler)
if len(sys.argv) > 4:
    import ssl
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(sys.argv[3], sys.argv[4])
    srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
srv.serve_forever()
