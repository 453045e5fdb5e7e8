// Writes webfw/src/body/dbcs_tables.rs: every double-byte charset of
// iconv-lite 0.4.24 (the version body-parser 1.20 decodes with), every name
// it knows them by, and the table chunks each one's decode trie is built
// from, so webfw decodes exactly the bytes iconv-lite does.
//
//   (cd tests/interop && npm ci) && node tools/dbcs_tables.js > webfw/src/body/dbcs_tables.rs
//
// ICONV_LITE=DIR takes iconv-lite from another checkout's node_modules.
//
// A table is iconv-lite's own chunk list (encodings/tables/*.json: a hex
// start address, then strings and numbers) in one string literal, which
// rustc reads far faster than an array of numbers. Private-use characters of
// planes 15 and 16, which no table uses (checked below), mark its structure:
//   U+100000 + (address >> 8)  a chunk starts: the trie node it fills (the
//                              bytes before the last; 0 is the root),
//   U+F0100 + (address & 0xFF) then the last byte of its first sequence,
//   U+F0000 + n                a number n: n code points, each one above
//                              the code point before.
// The rest is the chunk's strings as they are, iconv-lite's own sequence
// marks (U+0FF1..U+0FFF, each followed by 0xFFF - mark + 2 characters)
// among them.
"use strict";
const path = require("path");
const assert = require("assert");
const { dir, iconv, resolve } = require("./iconv_lite");

const aliases = Object.keys(iconv.encodings).sort()
    .filter((name) => !name.startsWith("_"))
    .map((name) => [name, ...resolve(name)])
    .filter(([, , codec]) => codec && codec.type === "_dbcs");
const codecs = [...new Map(aliases.map(([, target, codec]) => [target, codec]))].sort(([a], [b]) => (a < b ? -1 : 1));
const codecIndex = new Map(codecs.map(([target], i) => [target, i]));
const names = aliases.map(([name, target]) => [name, codecIndex.get(target)]);
codecs.forEach(([name]) => iconv.getCodec(name)); // iconv-lite throws on chunks that overlap

// Which table files each codec concatenates, read from its `table` function
// and checked against what that function returns.
const tableFile = (file) => require(path.join(dir, "encodings/tables", file + ".json"));
const compositions = codecs.map(([name, codec]) => {
    const files = [...String(codec.table).matchAll(/require\('\.\/tables\/([\w-]+)\.json'\)/g)].map((m) => m[1]);
    assert.deepStrictEqual([].concat(...files.map(tableFile)), codec.table(), name);
    let gb18030 = null;
    if (typeof codec.gb18030 === "function") {
        const ranges = String(codec.gb18030).match(/require\('\.\/tables\/([\w-]+)\.json'\)/)[1];
        assert.deepStrictEqual(tableFile(ranges), codec.gb18030(), name);
        gb18030 = ranges;
    }
    return { name, files, gb18030 };
});
const files = [...new Set(compositions.flatMap((c) => c.files))];
const rangeFiles = [...new Set(compositions.map((c) => c.gb18030).filter(Boolean))];
if (rangeFiles.length !== 1) throw new Error(`expected one gb18030 ranges table, found ${rangeFiles}`);

const CHUNK = 0x100000, START = 0xf0100, RUN = 0xf0000;
const rust = (s) => [...s].map((c) => {
    const n = c.codePointAt(0);
    if (c === '"' || c === "\\") return "\\" + c;
    // Controls, format, private-use and unassigned characters (the sequence
    // marks among them) and spaces other than ' ' are escaped.
    return c !== " " && /[\p{C}\p{Z}]/u.test(c) ? `\\u{${n.toString(16)}}` : c;
}).join("");

// One chunk a line (a `\` at a line's end joins the lines into one literal).
function table(file) {
    return tableFile(file).map((chunk) => {
        const address = parseInt(chunk[0], 16);
        if (address >> 8 > 0xffff) throw new Error(`${file}: address ${chunk[0]}`);
        let text = rust(String.fromCodePoint(CHUNK + (address >> 8), START + (address & 0xff)));
        let afterSequence = true; // no number may start a chunk or follow a sequence
        for (const part of chunk.slice(1)) {
            if (typeof part === "number") {
                if (afterSequence || part < 1 || part > 0xff) throw new Error(`${file} ${chunk[0]}: number ${part}`);
                text += rust(String.fromCodePoint(RUN + part));
                continue;
            }
            const chars = [...part];
            for (let i = 0; i < chars.length; i++) {
                const n = chars[i].codePointAt(0);
                if (n >= RUN || (n >= 0xd800 && n < 0xe000)) throw new Error(`${file} ${chunk[0]}: U+${n.toString(16)}`);
                afterSequence = n > 0xff0 && n <= 0xfff;
                if (afterSequence) {
                    // dbcs.rs writes a sequence's units as they are: none may be a surrogate half.
                    const seq = chars.slice(i + 1, i + 1 + 0xfff - n + 2).map((c) => c.codePointAt(0));
                    if (seq.length !== 0xfff - n + 2 || seq.some((u) => u > 0xffff || (u >= 0xd800 && u < 0xe000))) {
                        throw new Error(`${file} ${chunk[0]}: sequence`);
                    }
                    i += seq.length;
                }
            }
            text += rust(part);
        }
        return text;
    }).join("\\\n    ");
}

// gb18030-ranges.json: the four-byte sequence numbers where a run of code
// points starts, and those code points; dbcs.rs finds the run by binary search.
const ranges = tableFile(rangeFiles[0]);
assert.strictEqual(ranges.gbChars.length, ranges.uChars.length);
assert.strictEqual(ranges.gbChars[0], 0);
ranges.gbChars.forEach((gb, i) => {
    if (i > 0 && !(gb > ranges.gbChars[i - 1])) throw new Error(`ranges not ascending at ${i}`);
    // A run ending inside the surrogates would make a lone half (dbcs.rs
    // writes chars); the last run goes on past U+FFFF.
    const end = i + 1 < ranges.gbChars.length ? ranges.uChars[i] + ranges.gbChars[i + 1] - gb : ranges.uChars[i];
    if (end > 0xd800 && ranges.uChars[i] < 0xe000) throw new Error(`range ${i} reaches the surrogates`);
});

const constName = (file) => file.toUpperCase().replace(/-/g, "_");
const out = [];
out.push("//! iconv-lite 0.4.24's double-byte charsets, as body-parser 1.20 decodes");
out.push("//! them. Generated by `tools/dbcs_tables.js`; regenerate, do not edit.");
out.push("");
out.push("/// A codec as iconv-lite's `DBCSCodec` builds its decode trie.");
out.push("pub(super) struct Codec {");
out.push("    /// The tables whose chunks fill the trie, in order.");
out.push("    pub(super) tables: &'static [&'static str],");
out.push("    /// Whether GB18030's four-byte sequences are added ([`GB18030_RANGES`]).");
out.push("    pub(super) gb18030: bool,");
out.push("}");
out.push("");
out.push("/// The codecs, sorted by name.");
out.push("#[rustfmt::skip]");
out.push(`pub(super) static CODECS: [Codec; ${compositions.length}] = [`);
for (const c of compositions) {
    out.push(`    // ${c.name}`);
    out.push(`    Codec { tables: &[${c.files.map(constName).join(", ")}], gb18030: ${!!c.gb18030} },`);
}
out.push("];");
out.push("");
out.push("/// Every name of those codecs in iconv-lite's canonical form, sorted,");
out.push("/// with its index in [`CODECS`].");
out.push("#[rustfmt::skip]");
out.push(`pub(super) static NAMES: [(&str, u8); ${names.length}] = [`);
for (let i = 0; i < names.length; i += 6) {
    out.push("    " + names.slice(i, i + 6).map(([n, c]) => `("${n}", ${c}),`).join(" "));
}
out.push("];");
out.push("");
out.push(`/// \`${rangeFiles[0]}.json\`: ascending four-byte sequence numbers, each`);
out.push("/// with the code point its run starts at.");
out.push("#[rustfmt::skip]");
out.push(`pub(super) static GB18030_RANGES: [(u32, u32); ${ranges.gbChars.length}] = [`);
for (let i = 0; i < ranges.gbChars.length; i += 8) {
    out.push("    " + ranges.gbChars.slice(i, i + 8).map((gb, j) => `(${gb}, 0x${ranges.uChars[i + j].toString(16)}),`).join(" "));
}
out.push("];");
for (const file of files) {
    out.push("");
    out.push(`/// \`${file}.json\`'s chunks: U+100000 + (address >> 8) and U+F0100 +`);
    out.push("/// (address & 0xFF) start one, U+F0000 + n is the number n.");
    out.push("#[rustfmt::skip]");
    out.push(`static ${constName(file)}: &str = "\\\n    ${table(file)}";`);
}
process.stdout.write(out.join("\n") + "\n");
