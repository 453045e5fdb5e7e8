#!/usr/bin/env python3
"""webfw's public API, one item a line: what a semver promise covers.

Reads the rustdoc JSON of the `webfw` library (nightly rustdoc, every feature
on) and walks it from the crate root the way a user reaches items: modules,
re-exports (`pub use`), types, traits and their items, enum variants,
functions, constants and inherent methods. `#[doc(hidden)]` items, items of
trait implementations and struct fields are left out. Each item is listed
once, at the shortest path that reaches it.

    tools/public_api.py            print the list, then the count on stderr
    tools/public_api.py --check F  fail, with a diff, when the list is not F's
    tools/public_api.py --default-features   the items of a default build

`.ci/run` checks `docs/public-api.txt`: a change to the public API is a
change to that file, made on purpose (`tools/public_api.py > docs/public-api.txt`).
"""
import argparse
import difflib
import json
import os
import subprocess
import sys
from collections import deque

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rustdoc_json(all_features=True):
    target = os.environ.get("PUBLIC_API_TARGET_DIR", os.path.join(ROOT, "target", "public-api"))
    features = ["--all-features"] if all_features else []
    cmd = ["cargo", "+nightly", "rustdoc", "-q", "-p", "webfw", "--lib", *features,
           "--", "-Z", "unstable-options", "--output-format", "json"]
    env = dict(os.environ, CARGO_TARGET_DIR=target)
    subprocess.run(cmd, cwd=ROOT, env=env, check=True)
    with open(os.path.join(target, "doc", "webfw.json"), encoding="utf-8") as f:
        return json.load(f)


def hidden(item):
    for a in item.get("attrs") or []:
        text = a if isinstance(a, str) else json.dumps(a)
        if "doc(hidden)" in text.replace(" ", "") or "hidden" == (a.get("other") if isinstance(a, dict) else None):
            return True
    return False


def kind_of(item):
    inner = item.get("inner") or {}
    return next(iter(inner), "?") if isinstance(inner, dict) else str(inner)


def walk(doc):
    index = doc["index"]
    root = str(doc["root"])
    seen = set()
    out = []
    queue = deque([(root, "webfw")])
    while queue:
        id_, path = queue.popleft()
        id_ = str(id_)
        item = index.get(id_)
        if item is None or id_ in seen or hidden(item):
            continue
        seen.add(id_)
        kind = kind_of(item)
        inner = item["inner"][kind] if isinstance(item["inner"], dict) else {}
        out.append((kind, path))
        if kind == "module":
            for child in inner.get("items", []):
                c = index.get(str(child))
                if c is None or c.get("visibility") != "public" or hidden(c):
                    continue
                ck = kind_of(c)
                if ck == "use":
                    use = c["inner"]["use"]
                    target = use.get("id")
                    if use.get("is_glob"):
                        t = index.get(str(target)) if target is not None else None
                        if t is not None and kind_of(t) == "module":
                            for g in t["inner"]["module"].get("items", []):
                                gi = index.get(str(g))
                                if gi is not None and gi.get("visibility") == "public" and gi.get("name"):
                                    queue.append((g, f"{path}::{gi['name']}"))
                        continue
                    name = use.get("name")
                    if target is not None and str(target) in index:
                        queue.append((target, f"{path}::{name}"))
                    elif str(target) not in seen:
                        # An item of another crate (a macro of webfw-macros,
                        # a type of webfw-http): once, at its shortest path.
                        seen.add(str(target))
                        out.append(("extern", f"{path}::{name}"))
                elif c.get("name"):
                    queue.append((child, f"{path}::{c['name']}"))
        elif kind in ("struct", "enum", "union"):
            if kind == "enum":
                for v in inner.get("variants", []):
                    vi = index.get(str(v))
                    if vi is not None and not hidden(vi):
                        out.append(("variant", f"{path}::{vi['name']}"))
            for impl_id in inner.get("impls", []):
                impl = index.get(str(impl_id))
                if impl is None or hidden(impl):
                    continue
                im = impl["inner"]["impl"]
                if im.get("trait") is not None or im.get("is_synthetic") or im.get("blanket_impl"):
                    continue
                for m in im.get("items", []):
                    mi = index.get(str(m))
                    if mi is not None and mi.get("visibility") == "public" and not hidden(mi):
                        out.append((kind_of(mi), f"{path}::{mi['name']}"))
        elif kind == "trait":
            for m in inner.get("items", []):
                mi = index.get(str(m))
                if mi is not None and not hidden(mi):
                    out.append((kind_of(mi), f"{path}::{mi['name']}"))
    return sorted(f"{k} {p}" for k, p in out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", metavar="FILE")
    ap.add_argument("--default-features", action="store_true",
                    help="count what a default build exposes (the list is of every feature)")
    args = ap.parse_args()
    lines = walk(rustdoc_json(all_features=not args.default_features))
    if args.check:
        with open(args.check, encoding="utf-8") as f:
            want = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
        if want != lines:
            sys.stdout.writelines(difflib.unified_diff(
                [l + "\n" for l in want], [l + "\n" for l in lines], args.check, "the code"))
            print(f"\nThe public API changed ({len(lines)} items; {args.check} lists {len(want)}). "
                  f"If that is meant, run: tools/public_api.py > {args.check}", file=sys.stderr)
            return 1
        print(f"public API: {len(lines)} items, as {args.check} lists", file=sys.stderr)
        return 0
    print(f"# webfw's public API, from tools/public_api.py ({len(lines)} items)")
    for l in lines:
        print(l)
    print(f"{len(lines)} public items", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
