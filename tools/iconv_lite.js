// iconv-lite 0.4.24, the version body-parser 1.20 decodes with, for the
// scripts that generate webfw's charset tables and oracle from it.
// ICONV_LITE=DIR takes it from another checkout's node_modules.
"use strict";
const path = require("path");
const dir = process.env.ICONV_LITE || path.join(__dirname, "../tests/interop/node_modules/iconv-lite");
const iconv = require(dir);
if (require(path.join(dir, "package.json")).version !== "0.4.24") {
    throw new Error("expected iconv-lite 0.4.24 (body-parser 1.20's)");
}
iconv.getCodec("utf8"); // loads iconv.encodings

// A charset name's codec, following aliases: [its own name, the codec].
function resolve(name) {
    let codec = iconv.encodings[name];
    while (typeof codec === "string") {
        name = codec;
        codec = iconv.encodings[name];
    }
    return [name, codec];
}

module.exports = { dir, iconv, resolve };
