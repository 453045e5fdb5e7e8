#!/usr/bin/env python3
"""Server memory under hostile bodies (issue #22, item 4).

Starts the conformance port (release build) on 127.0.0.1, then for each body
parser streams 1 GiB as a chunked body, and sends a gzip bomb (about 10 MB
of gzip members inflating to 10 GiB of zeros), and reports how much the
server's peak RSS (VmHWM) grew over its RSS before the run, with how many
bytes the server let the client send and the status it answered.

    cargo build --release --example conformance
    python3 tools/rss_body.py [--port 4121]
"""
import argparse, os, socket, subprocess, sys, time, zlib

GIB = 1 << 30
CHUNK = 64 * 1024


def status_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


def reset_hwm(pid):
    # Writing 5 to clear_refs resets the peak RSS (VmHWM) to the current RSS.
    with open(f"/proc/{pid}/clear_refs", "w") as f:
        f.write("5")


def stream(port, path, ctype, chunks, extra=b""):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(
        f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: {ctype}\r\n".encode()
        + extra
        + b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )
    sent = 0
    try:
        for c in chunks:
            s.sendall(b"%x\r\n" % len(c) + c + b"\r\n")
            sent += len(c)
        s.sendall(b"0\r\n\r\n")
    except (BrokenPipeError, ConnectionResetError):
        pass
    s.settimeout(30)
    try:
        head = s.recv(200).split(b"\r\n", 1)[0].decode(errors="replace")
    except (ConnectionResetError, socket.timeout):
        head = "(no response: connection reset)"
    s.close()
    return sent, head


def zeros(total):
    block = b"\0" * CHUNK
    for _ in range(total // CHUNK):
        yield block


def gzip_bomb():
    """Gzip members of 256 MiB of zeros each, 40 of them: 10 GiB inflated."""
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = b"\0" * (1 << 20)
    member = b"".join(c.compress(block) for _ in range(256)) + c.flush()
    bomb = member * 40
    return bomb, 40 * 256 * (1 << 20)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=4121)
    ap.add_argument("--bin", default="target/release/examples/conformance")
    args = ap.parse_args()
    env = dict(os.environ, PORT=str(args.port), NODE_ENV="production", LOG_FILE="/dev/null")
    srv = subprocess.Popen([args.bin], env=env, stdout=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", args.port)).close()
                break
            except OSError:
                time.sleep(0.1)
        bomb, inflated = gzip_bomb()
        cases = [
            ("json", "/body/json", "application/json", lambda: zeros(GIB), b""),
            ("raw", "/body/raw", "application/octet-stream", lambda: zeros(GIB), b""),
            ("text", "/body/text", "text/plain", lambda: zeros(GIB), b""),
            ("urlencoded", "/body/urlencoded", "application/x-www-form-urlencoded", lambda: zeros(GIB), b""),
            (
                f"json gzip bomb ({len(bomb) / 1e6:.1f} MB -> {inflated / GIB:.0f} GiB)",
                "/body/json",
                "application/json",
                lambda: (bomb[i : i + CHUNK] for i in range(0, len(bomb), CHUNK)),
                b"Content-Encoding: gzip\r\n",
            ),
        ]
        print(f"{'case':44} {'RSS before':>11} {'peak growth':>12} {'client sent':>12}  answer")
        for name, path, ctype, chunks, extra in cases:
            before = status_kib(srv.pid, "VmRSS")
            reset_hwm(srv.pid)
            sent, head = stream(args.port, path, ctype, chunks(), extra)
            peak = status_kib(srv.pid, "VmHWM")
            print(f"{name:44} {before:>8} KiB {peak - before:>8} KiB {sent:>12}  {head}")
    finally:
        srv.terminate()
        srv.wait()


if __name__ == "__main__":
    sys.exit(main())
