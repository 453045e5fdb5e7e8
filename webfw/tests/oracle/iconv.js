// Oracle for webfw's double-byte and UTF-16 decoders: asks iconv-lite 0.4.24
// (body-parser 1.20's) for `iconv.decode(bytes, label)` and writes
// iconv.json, which webfw/src/body/iconv_oracle.rs compares webfw's
// `decode_charset` against:
//   rows: [label, bytes as hex, text]: every double-byte codec under every
//     name iconv-lite knows it by, each lead byte with a spread of second
//     bytes, sequences cut off at the end, GB18030 four-byte sequences
//     inside, between and past its ranges, big5hkscs's two-code-point
//     characters, seeded random bytes, and UTF-16 in each byte order;
//   digests: [label, input, FNV-1a 64 of the text's UTF-8]: whole byte
//     spaces too large to keep as rows (inputs: "pairs", every lead byte
//     0x80-0xFF with every byte then a space; "triples", 0x8F with every two
//     bytes then a space; "four-byte", every GB18030 four-byte sequence).
// A lone surrogate, which a Rust string cannot hold, is recorded as U+FFFD.
//
//   (cd tests/interop && npm ci) && node webfw/tests/oracle/iconv.js
"use strict";
const path = require("path");
const fs = require("fs");
const { dir, iconv, resolve } = require("../../../tools/iconv_lite");

const decode = (bytes, label) => iconv.decode(Buffer.from(bytes), label).toWellFormed();
const rows = [];
const row = (label, bytes) => rows.push([label, Buffer.from(bytes).toString("hex"), decode(bytes, label)]);

// Every double-byte codec and each of its names.
const aliases = Object.keys(iconv.encodings).sort().filter((name) => {
    const [, codec] = resolve(name);
    return !name.startsWith("_") && codec && codec.type === "_dbcs";
});
const codecs = [...new Set(aliases.map((name) => resolve(name)[0]))].sort();

// A seeded generator (mulberry32), so the random rows stay the same.
let seed = 0x1cea11e;
function random() {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const randomByte = () => Math.floor(random() * 256);

// Each name, as a request might spell it, with text of several scripts
// (what the codec cannot encode is iconv-lite's `?`), an invalid pair, a
// lone lead byte in the middle and one at the end.
const spellings = {
    shiftjis: "Shift_JIS", windows31j: "Windows-31J", csshiftjis: "csShiftJIS", xsjis: "x-sjis", mskanji: "MS_Kanji",
    eucjp: "EUC-JP", gb2312: "GB2312", gb231280: "GB_2312-80", csiso58gb231280: "csISO58GB231280", euccn: "EUC-CN",
    gb18030: "GB18030:2005", gbk: "GBK", xgbk: "x-gbk", isoir58: "iso-ir-58", euckr: "EUC-KR", ksc56011987: "KS_C_5601-1987",
    isoir149: "ISO-IR-149", cseuckr: "csEUCKR", big5: "Big5", big5hkscs: "Big5-HKSCS", cnbig5: "cn-big5", xxbig5: "x-x-big5",
    windows949: "windows-949", cp936: "CP936", "936": "936",
};
const sample = "Aé ¥€ 日本語 かな ｶﾅ 中文简体 繁體 한국어 ÊĀ";
for (const name of aliases) {
    const [codec] = resolve(name);
    const text = iconv.encode(sample, codec);
    const lead = codec === "eucjp" ? 0x8f : 0x81;
    row(spellings[name] || name, [...text, lead, 0x20, 0xe9, 0xff, 0x41, lead]);
}

const trails = [0x00, 0x20, 0x30, 0x39, 0x40, 0x5c, 0x7e, 0x7f, 0x80, 0xa0, 0xa1, 0xfe, 0xff];
for (const codec of codecs) {
    // Every byte alone, each followed by a space.
    row(codec, [...Array(256).keys()].flatMap((b) => [b, 0x20]));
    // Every lead byte with a spread of second bytes and a random one, each
    // pair followed by a space; then back to back, without spaces.
    for (let lead = 0x80; lead <= 0xff; lead++) {
        row(codec, [...trails, randomByte()].flatMap((t) => [lead, t, 0x20]));
    }
    for (let lead = 0x80; lead <= 0xff; lead += 8) {
        row(codec, [...trails.slice(4), randomByte()].flatMap((t) => [lead, t]));
    }
    // Cut off at the end.
    for (const tail of [[0x81], [0x8e], [0x8f], [0xa1], [0xc8], [0xfe], [0x81, 0x81], [0xa4, 0xa1, 0xa4], [0x8f, 0xa2],
        [0x8f, 0xa2, 0xaf], [0x8f, 0xa2, 0x8f, 0xa2], [0x81, 0x30], [0x81, 0x30, 0x81], [0x81, 0x30, 0x81, 0x30]]) {
        row(codec, tail);
        row(codec, [0x61, ...tail]);
    }
    // Not BOM-aware: the bytes of a UTF-8 BOM are text.
    row(codec, [0xef, 0xbb, 0xbf, 0x41]);
    // Seeded random bytes: high bytes, digits and ASCII mixed.
    for (let n = 0; n < 24; n++) {
        const pick = () => {
            const r = random();
            return r < 0.55 ? 0x80 + Math.floor(random() * 0x80) : r < 0.75 ? 0x30 + Math.floor(random() * 10) : randomByte();
        };
        row(codec, Array.from({ length: 1 + Math.floor(random() * 48) }, pick));
    }
}

// GB18030's four-byte sequences: number n is the bytes
// 0x81 + n / 12600, 0x30 + n / 1260 % 10, 0x81 + n / 10 % 126, 0x30 + n % 10.
const fourByte = (n) => [0x81 + Math.floor(n / 12600), 0x30 + (Math.floor(n / 1260) % 10), 0x81 + (Math.floor(n / 10) % 126), 0x30 + (n % 10)];
const ranges = require(path.join(dir, "encodings/tables/gb18030-ranges.json"));
const numbers = new Set();
for (const gb of ranges.gbChars) [gb - 1, gb, gb + 1].forEach((n) => numbers.add(n));
// Past the BMP ranges, U+10000 on (189000), the last code point, past it, the last sequence.
const last = 126 * 12600 - 1;
for (const n of [39419, 39420, 100000, 188999, 189000, 189001, 189000 + 0xfffff - 1, 189000 + 0xfffff, 189000 + 0x100000, 1000000, last]) numbers.add(n);
const sorted = [...numbers].filter((n) => n >= 0 && n <= last).sort((a, b) => a - b);
for (let i = 0; i < sorted.length; i += 16) {
    const bytes = sorted.slice(i, i + 16).flatMap(fourByte);
    row("gb18030", bytes);
    if (i % 64 === 0) {
        row("gbk", bytes);
        row("cp936", bytes);
    }
}
// Broken four-byte sequences in the middle of text.
for (const seq of [[0x81, 0x30, 0x20, 0x30], [0x81, 0x30, 0x81, 0x20], [0x81, 0x30, 0xff, 0x30], [0x81, 0x30, 0x81, 0x3a],
    [0x81, 0x3a, 0x81, 0x30], [0x80, 0x30, 0x81, 0x30], [0xff, 0x30, 0x81, 0x30], [0x81, 0x30, 0x81, 0x81, 0x30], [0xfe, 0x39, 0xfe, 0x39]]) {
    row("gb18030", [0x61, ...seq, 0x62]);
}

// big5hkscs's characters written as two code points, alone, in text and cut off.
for (const pair of [[0x88, 0x62], [0x88, 0x64], [0x88, 0xa3], [0x88, 0xa5]]) {
    for (const label of ["big5hkscs", "big5", "cp950"]) {
        row(label, pair);
        row(label, [0x61, ...pair, 0x88, 0x62, 0x62, 0x88]);
    }
}

// UTF-16: odd lengths, lone and paired surrogates, byte-order marks, and
// the byte-order guess of `utf16`.
const utf16 = [
    "", "41", "4100", "410042", "00d8", "00d84100", "00dc", "00dc00d8", "00d800dc", "3dd800de", "3dd800de41", "00d800d8",
    "fffe", "feff", "ff", "fffe4100", "feff0041", "fffefffe4100", "feff4100", "0041", "00410042", "41004200",
    "0041420043", "00d8410042004300440045004600470048004900", "d83dde00", "d800", "dc00d800dc00",
    "0041".repeat(20), "0041".repeat(16) + "4100".repeat(20), "4100".repeat(15) + "0041".repeat(17), "00".repeat(16),
];
for (const label of ["utf16le", "UCS-2", "utf-16be", "UTF-16"]) {
    for (const hex of utf16) row(label, Buffer.from(hex, "hex"));
}

// FNV-1a 64 of the text's UTF-8.
function fnv(text) {
    let h = 0xcbf29ce484222325n;
    for (const b of Buffer.from(text, "utf8")) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
    return h.toString(16).padStart(16, "0");
}
const inputs = {
    pairs: () => [...Array(0x80).keys()].flatMap((a) => [...Array(256).keys()].flatMap((b) => [0x80 + a, b, 0x20])),
    triples: () => [...Array(256).keys()].flatMap((b) => [...Array(256).keys()].flatMap((c) => [0x8f, b, c, 0x20])),
    "four-byte": () => {
        const out = Buffer.alloc(126 * 12600 * 4);
        for (let n = 0; n < 126 * 12600; n++) out.set(fourByte(n), n * 4);
        return out;
    },
};
const digests = [];
for (const codec of codecs) digests.push([codec, "pairs"]);
digests.push(["eucjp", "triples"], ["gb18030", "four-byte"], ["gbk", "four-byte"]);
for (const d of digests) d.push(fnv(decode(inputs[d[1]](), d[0])));

const lines = (list) => list.map((c) => JSON.stringify(c)).join(",\n");
fs.writeFileSync(path.join(__dirname, "iconv.json"), `{"rows": [\n${lines(rows)}\n],\n"digests": [\n${lines(digests)}\n]}\n`);
console.log(`${rows.length} rows, ${digests.length} digests`);
