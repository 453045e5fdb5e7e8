// Oracle for webfw-http's MIME lookups: asks mime 1.6.0 (send's; `res.type`,
// files) and mime-types 2.1.35 (`req.accepts`, `req.is`) about every
// extension they know (each in one of five shapes: bare, upper case, with a
// dot, in a path, upper case in a dotted path) and about the odd shapes each
// one's own parsing meets, and writes mime.json (`[input, mime, mime-types]`
// rows), which webfw-http/tests/mime.rs compares both lookups against.
//
//   (cd tests/interop && npm ci) && node webfw-http/tests/oracle/mime.js
"use strict";
const path = require("path");
const fs = require("fs");
const dir = path.join(__dirname, "../../../tests/interop/node_modules");
const mime = require(path.join(dir, "mime"));
const types = require(path.join(dir, "mime-types"));

const exts = [...new Set([...Object.keys(mime.types), ...Object.keys(types.types)])].sort();
const inputs = [];
const shapes = [(e) => e, (e) => e.toUpperCase(), (e) => "." + e, (e) => "dir/file." + e, (e) => "a.b/c." + e.toUpperCase()];
exts.forEach((e, i) => inputs.push(shapes[i % shapes.length](e)));
inputs.push(
    "", ".", "..", "...", "/", "//", "a/", "/a", "a/.b", "a/..", "a/...", "a/b.", "b.",
    ".html", "html//", "a.b/c.d/", "dir/file", "x.html/", "a\\b.png", "a\\b", "c:\\dir\\f.JPG",
    "a\nb.png", "a.png\nb", "a\rb/c.json", "a\u2028b.css", "nope", "unknown.ext", "UNKNOWN",
    "json.", "png/", "file.tar.gz", "archive.TAR.GZ", "x.jsonx", "x.js.map", "é.html", "a.ht ml",
    "a b.html", " html", "html ", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "a".repeat(40) + ".TXT",
);
const cases = inputs.map((input) => [input, mime.lookup(input), types.lookup(input) || null]);
fs.writeFileSync(path.join(__dirname, "mime.json"), "[\n" + cases.map((c) => JSON.stringify(c)).join(",\n") + "\n]\n");
console.log(`${cases.length} cases`);
