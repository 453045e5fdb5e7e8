// The oracle of tests/h1_llhttp.rs: Node 20's own HTTP parser (llhttp in
// strict mode, as `http.createServer` initialises it) run over test inputs.
//
// stdin: one hex-encoded request byte string per line. stdout: one JSON
// object per line, what llhttp made of it:
//   { msgs: [{ method, url, major, minor, headers: [[name, value]...],
//              keepAlive, upgrade, headEnd, body, trailers, end }],
//     error: { code, offset } | null, upgraded }
// Strings are hex (latin1 bytes, as Node's parser hands them over); headEnd
// and end are offsets just past the head and the whole message.
//
// Bytes are fed one at a time so that every callback's position is known
// (llhttp is a streaming parser: its decisions do not depend on how the
// input is cut, and Node's header-size count is a sum over the same spans).
// The one effect of that: HPE_HEADER_OVERFLOW is raised at the byte where
// the count reaches the limit, as it would be on a short TCP read.
'use strict';

const { HTTPParser, methods } = process.binding('http_parser');

const kOnHeaders = HTTPParser.kOnHeaders | 0;
const kOnHeadersComplete = HTTPParser.kOnHeadersComplete | 0;
const kOnBody = HTTPParser.kOnBody | 0;
const kOnMessageComplete = HTTPParser.kOnMessageComplete | 0;

const hex = (s) => Buffer.from(s, 'latin1').toString('hex');
const pairs = (flat) => {
  const out = [];
  for (let i = 0; i < flat.length; i += 2) out.push([hex(flat[i]), hex(flat[i + 1])]);
  return out;
};

function run(input) {
  const parser = new HTTPParser();
  // As lib/_http_server.js does: server.maxHeaderSize || 0 (0: the
  // --max-http-header-size default, 16384), kLenientNone.
  parser.initialize(HTTPParser.REQUEST, {}, 0, HTTPParser.kLenientNone);
  const msgs = [];
  let cur = null;
  let pending = []; // header pairs flushed by kOnHeaders
  let pendingUrl = '';
  let pos = 0;
  let upgraded = false;
  parser[kOnHeaders] = (headers, url) => {
    pending.push(...headers);
    pendingUrl += url;
  };
  parser[kOnHeadersComplete] = (major, minor, headers, method, url, _s, _m, upgrade, keepAlive) => {
    if (headers === undefined) headers = pending;
    if (url === undefined) url = pendingUrl;
    pending = [];
    pendingUrl = '';
    cur = {
      method: methods[method], url: hex(url), major, minor, headers: pairs(headers),
      keepAlive, upgrade, headEnd: pos + 1, body: '', trailers: [], end: null,
    };
    msgs.push(cur);
    // parserOnIncoming returns 2 (upgrade, no body) for CONNECT, and for an
    // Upgrade when the server has an 'upgrade' listener: modelled as present.
    return upgrade ? 2 : 0;
  };
  parser[kOnBody] = (b) => { cur.body += b.toString('hex'); };
  parser[kOnMessageComplete] = () => {
    cur.trailers = pairs(pending);
    pending = [];
    pendingUrl = '';
    cur.end = pos + 1;
    if (cur.upgrade) upgraded = true;
  };
  let error = null;
  for (; pos < input.length && !upgraded; pos++) {
    const ret = parser.execute(input.subarray(pos, pos + 1));
    if (ret instanceof Error) {
      error = { code: ret.code, offset: pos + ret.bytesParsed };
      break;
    }
  }
  return { msgs, error, upgraded };
}

const lines = require('fs').readFileSync(0, 'latin1').split('\n');
if (lines[lines.length - 1] === '') lines.pop();
const out = [];
for (const line of lines) {
  out.push(JSON.stringify(run(Buffer.from(line, 'hex'))));
}
process.stdout.write(out.join('\n') + '\n');
