#!/usr/bin/env python3
"""Memory per HTTP/1.1 connection of a running server, as the kernel counts it.

Usage: conn_memory.py PID PORT [N] [PATH]

Reads the server's RssAnon (/proc/PID/status) after a short warm-up, opens N
(default 500) keep-alive connections that send nothing, reads it again, then
sends one request (GET PATH, default /plaintext) on each, reads every
response, keeps the connections open and reads it a third time. Prints KiB
per connection idle and after its first request. Run it against a server
started on its own (e.g. `PORT=18094 taskset -c 0 target/release/examples/bench`);
raise the open-files limit for large N (`ulimit -n 4096`).
"""
import socket
import sys
import time

pid, port = int(sys.argv[1]), int(sys.argv[2])
n = int(sys.argv[3]) if len(sys.argv) > 3 else 500
path = sys.argv[4] if len(sys.argv) > 4 else "/plaintext"
req = f"GET {path} HTTP/1.1\r\nHost: localhost\r\nUser-Agent: conn_memory\r\n\r\n".encode()


def rss_anon_kib():
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("RssAnon:"):
                return int(line.split()[1])
    raise RuntimeError("no RssAnon")


def one_response(s):
    data = b""
    while True:
        head_end = data.find(b"\r\n\r\n")
        if head_end >= 0:
            head = data[:head_end].decode("latin-1").lower()
            length = next(int(l.split(":", 1)[1]) for l in head.split("\r\n") if l.startswith("content-length:"))
            if len(data) >= head_end + 4 + length:
                return
        chunk = s.recv(65536)
        if not chunk:
            raise RuntimeError("connection closed")
        data += chunk


for _ in range(3):
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(req)
        one_response(s)
time.sleep(0.3)
before = rss_anon_kib()
conns = [socket.create_connection(("127.0.0.1", port)) for _ in range(n)]
time.sleep(0.5)
idle = rss_anon_kib()
for s in conns:
    s.sendall(req)
for s in conns:
    one_response(s)
time.sleep(0.5)
after = rss_anon_kib()
print(f"connections={n} idle={(idle - before) / n:.2f} KiB/conn "
      f"after_first_request={(after - before) / n:.2f} KiB/conn "
      f"(RssAnon {before} -> {idle} -> {after} kB)")
for s in conns:
    s.close()
