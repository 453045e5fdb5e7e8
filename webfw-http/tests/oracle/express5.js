// Oracle for webfw-http's Express 5 helpers: asks mime-types 3.0.2
// (`lookup`, `contentType`, `charset`), range-parser 1.3.0 and fresh 2.0.0
// about every extension and type they know and about odd shapes, and writes
// express5.json, which webfw-http/tests/express5.rs compares against.
//
//   node webfw-http/tests/oracle/express5.js
//
// The packages come from ../shared/conformance/reference5/node_modules
// beside the repository; NODE_MODULES=DIR takes them from elsewhere.
"use strict";
const path = require("path");
const fs = require("fs");
const dir =
    process.env.NODE_MODULES ||
    path.join(__dirname, "../../../../shared/conformance/reference5/node_modules");
const load = (name, version) => {
    const found = require(path.join(dir, name, "package.json")).version;
    if (found !== version) throw new Error(`expected ${name} ${version}, found ${found}`);
    return require(path.join(dir, name));
};
const mime = load("mime-types", "3.0.2");
const db = load("mime-db", "1.54.0");
const rangeParser = load("range-parser", "1.3.0");
const fresh = load("fresh", "2.0.0");

const orNull = (v) => (v === false ? null : v);

// mime: [input, lookup, contentType, charset, send 1's type of the input as a path]
const inputs = [];
const shapes = [(e) => e, (e) => e.toUpperCase(), (e) => "." + e, (e) => "dir/file." + e, (e) => "a.b/c." + e.toUpperCase()];
Object.keys(mime.types).sort().forEach((e, i) => inputs.push(shapes[i % shapes.length](e)));
const typeShapes = [(t) => t, (t) => t.toUpperCase(), (t) => " " + t + "; x=y", (t) => t + " ;charset=latin1", (t) => t + "; foo=charset"];
Object.keys(db).sort().forEach((t, i) => inputs.push(typeShapes[i % typeShapes.length](t)));
inputs.push(
    "", ".", "..", "/", "a/", "a/.b", "b.", "html//", "dir/file", "x.html/", "nope", "UNKNOWN",
    "text/x-charset-info", "text/plain; Charset=latin1", "text/plain; format=flowed", "TEXT/HTML",
    "\ttext/html", "text/html\u00a0x", "text/\u212aml", "\u212aml", "te\u212at/plain", "textual/x",
    "text/", "text", "application/json;", "; text/plain", "application/manifest+json",
    "application/news-groupinfo", "image/png; charset=binary", "x".repeat(40), "a".repeat(30) + ".TXT",
    "file.tar.gz", "x.js.map", "é.html", "a b.html", " html", "html ", "..a", "...", "a/..", "a/.b.txt",
    "a/b.charset", "a/B.\u212aml", "a/.", "a/b.txt/",
);
const sendType = (p) => mime.contentType(path.extname(p)) || "application/octet-stream";
const mimeRows = inputs.map((v) => [v, orNull(mime.lookup(v)), orNull(mime.contentType(v)), orNull(mime.charset(v)), sendType(v)]);

// range: [size, header, combine, result]; result -1, -2 or [[start, end], ...]
const parts = ["0-0", "0-5", "5-0", "10-", "-10", "-", "", " 1 - 2 ", "x", "x-y", "0x10-20", "1-2-3",
    "+1-2", "1x-2", "007-8", "500-2000", "-2000", "2000-", "\u00a01-2", "1-\t2", "9".repeat(30) + "-", "1.5-2", "1e2-3"];
const headers = ["bytes", "bytes=", "items=0-1", " bytes=0-1", "bytes=0-1=2"];
for (const a of parts) {
    headers.push("bytes=" + a);
    for (const b of ["0-1", "5-9", "x", "-3", "3-2"]) headers.push("bytes=" + a + "," + b);
}
const rangeRows = [];
for (const size of [0, 1, 10, 1000]) {
    for (const h of headers) {
        for (const combine of [false, true]) {
            const r = rangeParser(size, h, { combine });
            rangeRows.push([size, h, combine, typeof r === "number" ? r : r.map((x) => [x.start, x.end])]);
        }
    }
}

// fresh: [if-none-match, if-modified-since, cache-control, etag, last-modified, fresh]
const ETAG = '"foo"';
const LM = "Sat, 01 Jan 2000 00:00:00 GMT";
const inms = [null, "", "*", "* ", ETAG, "W/" + ETAG, '"bar"', '"bar", "foo"', ' "foo" ,', "foo"];
const imss = [null, "", LM, "Fri, 31 Dec 1999 23:59:59 GMT", "Sat, 01 Jan 2000 01:00:00 GMT", "garbage"];
const ccs = [null, "no-cache", "max-age=0", "max-age=0, no-cache"];
const etags = [null, ETAG, "W/" + ETAG];
const lms = [null, LM];
const freshRows = [];
for (const inm of inms) for (const ims of imss) for (const cc of ccs) for (const etag of etags) for (const lm of lms) {
    const req = {};
    if (inm !== null) req["if-none-match"] = inm;
    if (ims !== null) req["if-modified-since"] = ims;
    if (cc !== null) req["cache-control"] = cc;
    const res = {};
    if (etag !== null) res.etag = etag;
    if (lm !== null) res["last-modified"] = lm;
    freshRows.push([inm, ims, cc, etag, lm, fresh(req, res)]);
}

const out = { mime: mimeRows, range: rangeRows, fresh: freshRows };
const lines = (rows) => rows.map((r) => JSON.stringify(r)).join(",\n");
fs.writeFileSync(
    path.join(__dirname, "express5.json"),
    `{"mime": [\n${lines(mimeRows)}\n],\n"range": [\n${lines(rangeRows)}\n],\n"fresh": [\n${lines(freshRows)}\n]}\n`,
);
console.log(`${mimeRows.length} mime, ${rangeRows.length} range, ${freshRows.length} fresh cases`);
