#!/usr/bin/env python3
"""Which code of a running binary is resident, by crate.

Usage (as root, which /proc/PID/pagemap needs): resident_text.py PID BINARY

Reads the present pages of BINARY's executable mapping in process PID from
/proc/PID/pagemap and attributes the bytes of every function symbol (`nm -n
-S`, legacy Rust mangling) lying on them to the symbol's crate. Prints the
mapping's size, how much of it is resident, and the crates with the most
resident code.
"""
import sys, re, struct, subprocess, collections
pid, binary = int(sys.argv[1]), sys.argv[2]
maps = [l.split() for l in open(f"/proc/{pid}/maps")]
segs = [m for m in maps if len(m) > 5 and m[5] == binary]
base = min(int(m[0].split('-')[0], 16) - int(m[2], 16) for m in segs)
text = [m for m in segs if 'x' in m[1]][0]
lo, hi = (int(x, 16) for x in text[0].split('-'))
pm = open(f"/proc/{pid}/pagemap", "rb")
present = []
for a in range(lo, hi, 4096):
    pm.seek(a // 4096 * 8)
    e = struct.unpack("<Q", pm.read(8))[0]
    present.append(bool(e >> 63))
syms = []
for l in subprocess.run(["nm", "-n", "-S", binary], capture_output=True, text=True).stdout.splitlines():
    p = l.split()
    if len(p) == 4 and p[2] in "tT":
        syms.append((int(p[0], 16), int(p[1], 16), p[3]))
def crate(n):
    m = re.match(r"_ZN(\d+)", n)
    if not m: return "(C/asm/other)"
    k = int(m.group(1)); s = n[len(m.group(0)):len(m.group(0)) + k]
    if s.startswith("_$LT$"):
        mm = re.search(r"LT\$([a-z_0-9]+)", s); s = "<" + (mm.group(1) if mm else "?")
    return s.lstrip("<")
res = collections.Counter(); tot = collections.Counter()
for addr, size, name in syms:
    va = base + addr
    if va < lo or va >= hi: continue
    c = crate(name); tot[c] += size
    # bytes of this symbol on present pages
    a = va
    while a < va + size:
        pg = (a - lo) // 4096; end = min(va + size, lo + (pg + 1) * 4096)
        if present[pg]: res[c] += end - a
        a = end
print(f"text mapping {(hi-lo)//1024} KiB, resident {sum(present)*4} KiB")
for c, v in res.most_common(18):
    print(f"{c:28s} resident {v//1024:5d} KiB of {tot[c]//1024:5d} KiB")
