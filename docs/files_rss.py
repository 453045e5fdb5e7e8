# RSS of a webfw server while ten slow clients download a 1 GiB file (docs/PERFORMANCE.md).
# Usage: python3 docs/files_rss.py BENCH_BINARY PORT SECONDS (needs /tmp/files-rss/big.bin:
# mkdir -p /tmp/files-rss && truncate -s 1G /tmp/files-rss/big.bin && echo hi > /tmp/files-rss/hello.txt)
import os, socket, subprocess, sys, threading, time
port = int(sys.argv[2]); binary = sys.argv[1]
env = dict(os.environ, PORT=str(port), STATIC_DIR='/tmp/files-rss', LOG_FILE='/dev/null')
p = subprocess.Popen([binary], env=env, stderr=subprocess.DEVNULL)
def rss():
    d = {}
    for line in open(f'/proc/{p.pid}/status'):
        k, v = line.split(':', 1)
        d[k] = int(v.split()[0]) if v.strip().endswith('kB') else v
    return d['VmRSS'], d['VmHWM']
for _ in range(100):
    try:
        s = socket.create_connection(('127.0.0.1', port)); break
    except OSError: time.sleep(0.1)
s.sendall(b'GET /static/hello.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'); s.recv(1000); s.close()
time.sleep(0.3)
idle = rss()
stop = time.time() + float(sys.argv[3])
got = [0]*10
def client(i):
    c = socket.create_connection(('127.0.0.1', port))
    c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64*1024)
    c.sendall(b'GET /static/big.bin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    while time.time() < stop:
        d = c.recv(64*1024)
        if not d: break
        got[i] += len(d)
        time.sleep(0.01)
    c.close()
ts = [threading.Thread(target=client, args=(i,)) for i in range(10)]
for t in ts: t.start()
peak = 0
while any(t.is_alive() for t in ts):
    peak = max(peak, rss()[0]); time.sleep(0.05)
time.sleep(1)
after = rss()
print(f"idle VmRSS {idle[0]} kB; peak VmRSS during {peak} kB (growth {peak-idle[0]} kB = {(peak-idle[0])/1024:.1f} MiB); VmHWM {after[1]} kB; after clients left {after[0]} kB; bytes read per client {[g//1024//1024 for g in got]} MiB")
p.kill()
