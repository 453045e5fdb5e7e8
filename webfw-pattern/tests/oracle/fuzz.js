// Random patterns and paths checked against the real path-to-regexp 0.1.13:
//   PTR=/path/to/path-to-regexp SEED=7 N=2000 node tests/oracle/fuzz.js > tests/oracle/fuzz.json
//   PTR=... SEED=7 N=1000 MODE=segments node tests/oracle/fuzz.js > tests/oracle/fuzz-segments.json
'use strict';
const ptr = require(process.env.PTR || 'path-to-regexp');
let seed = Number(process.env.SEED || 1);
function rnd(n) { // mulberry32
  seed = (seed + 0x6D2B79F5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
}
function pick(a) { return a[rnd(a.length)]; }

const tokens = ['/', '/', '/', 'a', 'b', 'ab', ':x', ':y', ':id', '(\\d+)', '*', '?', '+', '.', '-',
  '(', ')', '|', '[a-c]', '\\.', ':z(a|b)', '{2}', '(?:', '(?=a)', '(?!b)', 'A', '\\d', '\\w+',
  '.:ext', ':n?', ':m*', ':p+', '(a*)', '(b)?', '\\', ':q(\\w*)', '$', '^', '[^/]', '\\/', 'x', 'K'];
const rtokens = ['/', '\\/', 'a', 'b', '(', ')', '(?:', '(?<n>', '(?<m>', '|', '*', '+', '?', '*?',
  '[ab]', '[^/]', '\\d', '\\w', '.', '^', '$', '(?=', '(?!', '(?<=', '\\1', '\\2', '{1,2}', 'x', '-',
  '(a|)', '(a*)?', '(?:(a)|b)+', '(a)?', '\\b', '\\B', '\\s', '[\\w-]', '\u00e9', '\u00c9', '\u017f', '\u212a',
  'k', 's', '\\k<n>', '{0}', '{0,1}', '??', '+?', '(?:a|ab)', '(b|)+', '[^a]', '\\S', '(?:)', '(?<!'];
const pathChars = ['/', '/', 'a', 'b', 'A', 'B', '.', '-', '1', '2', 'x', 'K', 'y', '%2F', '_',
  '\u00e9', '\u00c9', '\u017f', '\u212a', 'k', 's', 'S', ' ', 'a', 'b'];

function randPath() {
  let s = '';
  const n = rnd(9);
  for (let i = 0; i < n; i++) s += pick(pathChars);
  return rnd(5) ? (s.startsWith('/') ? s : '/' + s) : s;
}

function exec(re, keys, p) {
  const m = re.exec(p);
  if (!m) return null;
  const params = {};
  for (let i = 1; i < m.length; i++) {
    const key = keys[i - 1];
    if (!key) return { len: Buffer.byteLength(m[0]), crash: true };
    if (m[i] !== undefined || !Object.prototype.hasOwnProperty.call(params, key.name)) params[key.name] = m[i];
  }
  const defined = {};
  for (const k of Object.keys(params)) if (params[k] !== undefined) defined[k] = params[k];
  return { len: Buffer.byteLength(m[0]), params: defined };
}

// MODE=segments: only the shapes of the regex-free matchers (literal text, /:name, /:name?)
const stokens = ['/', '/', 'a', 'b', 'B', 'ab', '/:x', '/:y', '/:x?', '/:id?', '.', '-', '_', 'K'];
const segments = process.env.MODE === 'segments';
const cases = [];
const N = Number(process.env.N || 1500);
for (let c = 0; c < N; c++) {
  const kind = segments ? 'path' : rnd(4) === 0 ? 'regex' : (rnd(8) === 0 ? 'many' : 'path');
  const make = () => { let s = ''; const n = 1 + rnd(6); for (let i = 0; i < n; i++) s += pick(segments ? stokens : kind === 'regex' ? rtokens : tokens); return s; };
  const input = kind === 'many' ? [make(), make()] : [make()];
  const opts = { end: rnd(3) !== 0, strict: rnd(4) === 0, sensitive: rnd(4) === 0 };
  const keys = [];
  let re;
  const out = { kind, input, opts };
  try { re = ptr(kind === 'regex' ? new RegExp(input[0]) : (kind === 'many' ? input : input[0]), keys, opts); }
  catch (e) { out.error = String(e.message); cases.push(out); continue; }
  out.source = re.source; out.flags = re.flags; out.keys = keys.map(k => k.name);
  out.matches = [];
  const seen = new Set();
  // paths derived from the pattern itself, then random ones
  const derive = (s) => {
    let p = s.replace(/:\w+(\([^)]*\))?[?*+]?/g, () => pick(['', 'v', 'a.b', 'x-y', '12', 'A', pick(pathChars)]));
    p = p.replace(/[()?*+|^$\\[\]{}]/g, () => (rnd(2) ? '' : pick(pathChars)));
    if (rnd(3) === 0) p = p.toUpperCase();
    return p + pick(['', '', '/', '//', '/x', 'x', '.json', '/a/b']);
  };
  for (let i = 0; i < 45; i++) {
    const p = kind === 'regex' || i >= 15 ? randPath() : derive(input[rnd(input.length)]);
    if (seen.has(p)) continue;
    seen.add(p);
    out.matches.push([p, exec(re, keys, p)]);
  }
  cases.push(out);
}
process.stdout.write(JSON.stringify({ cases }) + '\n');
