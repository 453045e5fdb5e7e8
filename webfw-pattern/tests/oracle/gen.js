// Regenerates tests/oracle/cases.json from the real path-to-regexp 0.1.13 on
// Node.js (the golden data of tests/oracle.rs):
//   PTR=/path/to/node_modules/path-to-regexp node tests/oracle/gen.js > tests/oracle/cases.json
'use strict';
const ptr = require(process.env.PTR || 'path-to-regexp');

const paths = [
  '', '/', '//', '/foo', '/foo/', '/foo//', '/foo/bar', '/foo//bar', '/foobar', '/FOO', '/Foo/',
  '/foo.json', '/foo-bar', '/foo/bar/', '/user', '/user/', '/user/42', '/USER/42', '/user/42/',
  '/user/42//', '/user/42/x', '/user/abc', '/user/a/b/c', '/file/a.b.c', '/file/abc', '/file/a.b',
  '/file/.b', '/a', '/A', '/a/', '/a/b', '/a/b/', '/a/b/c', '/a/x/b/y', '/a/x/b/', '/abcd', '/acd',
  '/abbbcd', '/abXYZcd', '/abcde', '/abe', '/ae', '/abcd/', '/ad', '/abcbcd', '/1-5', '/a-b-c',
  '/x-y/z', '/xabc', '/a.b.c', '/a.b', '/a:', '/:/x', '/a:b', '/1', '/123', '/12', '/a1', '/aa',
  '/aaa', '/ab', '/ba', '/b', '/c/d', '/files/', '/files', '/files/a/b', '/star/', '/star',
  '/idstar/a/b/c', '/idstar/a', '/plus/a', '/plus/a/b', '/routing/range/1-5',
  '/routing/range/a-b-c', '/routing/num/12', '/routing/num/x', '/routing/opt/1',
  '/routing/opt/1/2', '/routing/star/a/b', '/routing/ab', '/routing/abcd', '/routing/acd',
  '/routing/abbcd', '/routing/abxcd', '/routing/abcde', '/routing/abe', '/routing/re/abc-12',
  '/routing/re/abc-x', '/routing/named/2024/05', '/routing/named/24/05', '/routing/arr/one',
  '/routing/arr/two/7', '/routing/arr/two', '/caf\u00e9', '/CAF\u00c9', '/kelvin\u212a',
  '/kelvink', '/\u017f', '/s', '/S', '/\u03c3', '/\u03a3', '/\u03c2', '/a\nb', '/a b', '/%20',
  '/a%2Fb', '/dot.json', '/dot', '/DOT/x', '/x', '/x/', '/y', '/a/b/c/d', '/bfoo', '/foo x',
  '/mount/7/x/9', '/0/a', '/a/b/c/d/e', '/x-1', '/a-12', '/b-3', '/ay', '/by', '/ax', '/a-1/b-2',
  'foo', 'a', 'aa', 'ab', 'b', '/a/a', '/ab/ab', '/Ab/aB', '/aab', '/xa', '/xy', '/xz',
];

const strings = [
  '', '/', '/foo', '/foo/', '/Foo', '/foo/bar', '/foo.json', '/foo-bar', '/a:', '/:/x', '/a:b',
  '/ab?cd', '/ab+cd', '/ab*cd', '/ab(cd)?e', '/a(bc)?d', '/a/(foo|bar)', '/grp/(\\d+)',
  '/user/:id', '/user/:id/', '/user/:id?', '/user/:id(\\d+)', '/user/:id(\\d+)?', '/user/:id*',
  '/user/:id+', '/user/:id*?', '/files/*', '/files/*?', '*', '/*', '/a/*/b/*', '/file/:name.:ext?',
  '/file/:name.:ext', '/:from-:to', '/:a-:b-:c', '/x:id', '/a.b:c', '/:a.:b.:c',
  '/routing/range/:from-:to', '/routing/num/:id(\\d+)', '/routing/opt/:a/:b?', '/routing/star/*',
  '/routing/ab?cd', '/routing/ab+cd', '/routing/ab*cd', '/routing/ab(cd)?e',
  '/routing/users/:id/books/:bookId', '/:path(*)', '/:path(.*)', '/:path(.*)?', '/:id(\\d*)',
  '/:id([a-z]+)', '/:id(a|b)', '/:id((a)b)', '/:id(?:\\d+)', '/:id(?<n>\\d+)', '/a-(?<n>\\d+)',
  '/(?<n>x)', '/\\:id', '/a\\.b', '/a\\/b', '/a\\*b', '/:id\\.json', '/[abc]', '/[a-z]+/:id',
  '/a{2}', '/a{', '/(a', '/a)', '+a', '?', '/a**', '/:id(\\d+', '/:id(\\d+))', '/:id([a-)',
  '/([z-a])', '/(?i:a)', '/:id(?<=a)', '/a\\', '/:id(\\1)', '/(a)\\1', '/a(a)-\\1', '/\\bfoo',
  '/:foo\\b', '/dot.json', '/a/:b/c/:d*', '/:id.:ext*', '/caf\u00e9', '/kelvin\u212a', '/\u017f',
  '/s', '/\u03c3', '/plus/:id+', '/star/*', '/idstar/:id*', '/a|/b', '^/a', '/a$', '/a$b',
  '/a/:b(\\w+)/c(\\d)', '/:0/*', '/:id/:id', '/(a)(b)/:c', '/a(b(c))', '/:a(b)(c)', '/a\nb',
  '/a b', '/%20', '/a+', '/:id{2}', '/:x(\\d{2,3})', '/mount/:m', '/dot', '/x/:y?/z',
  '/a/:b?/:c?', '/:a?-:b?', '/a(?:b|c)d', '/a(b|)*c', '/(?:(a)|b)+', '/a(.*)?', '/a-(b*)?',
  '/x(?=y)', '/x(?!y)', '/a/:b(?!c)', '/a\\d+', '/a\\w\\s\\W', '/[^a]', '/[\\d-z]', '/a.+b',
  '/a\\x41\\u0042', '/a\\cJ', '/a\\0', '/a[\\b]', '/[]', '/[^]', '/\\k<n>', '/(?<n>a)\\k<n>x',
  '/a(?<x>b)-(?<x>c)', '/:id([0-9]+)-:name', '/:a([^/]+?)/:b', '/a\\', '/{1}', '/a{2,1}',
  '/a{,2}', '/a{1}{2}', '/(?<=b)a', '/(?<!b)a', '/(?=a)*a', '/a(?=b)?b',
];

const regexes = [
  '^\\/routing\\/re\\/(\\w+)-(\\d+)$', '^\\/routing\\/named\\/(?<year>\\d{4})\\/(?<month>\\d{2})$',
  'abc', 'a', '', '^/a/(\\d+)?', '\\/a(?=\\/|$)', '(a)|(b)', '^\\/x(?!y)', '(?<=\\/)a', '[(]a(b)',
  '(?<=a)(?<n>b)', '^(?:(a)|b)+$', '^(.*)?$', '^\\/([a-z])\\1$', '(\\w+)\\s(\\w+)', '^\\/ab',
  '\\bfoo\\b', '(?<x>a)|(?<y>b)', '^\\/A', '/a/', '(?:)', '^\\/(a*)*$', '^\\/(a|)*b', 'a(', '[z-a]',
  '^\\/\\w+$', '^\\/[a-z]+$', '^\\/(?<a>x)|^\\/(?<a>y)', '^(\\/a)(?=\\/b)', 'y$',
];

const manies = [
  ['/routing/arr/one', '/routing/arr/two/:x'], ['/a/*', '/b/*'], ['/:id', '/x/:id'],
  ['/a/:x?', '/b/:x'], [], ['/'], ['/a(b)', '/c/:d'], ['/a-(?<n>a)', '/b-(?<n>b)'],
  ['/a', '/(b'], ['/:a', '/:b'], ['/ab', '/ac'], ['/a-:x', '/:x-b'], ['/foo', '*'],
];

const combos = [];
for (const end of [true, false]) for (const strict of [false, true]) for (const sensitive of [false, true]) combos.push({ end, strict, sensitive });

function run(input, opts, isRegex) {
  const keys = [];
  let re;
  try {
    re = ptr(isRegex ? new RegExp(input) : input, keys, opts);
  } catch (e) {
    return { error: String(e.message) };
  }
  const out = { source: re.source, flags: re.flags, keys: keys.map(k => k.name), matches: {} };
  for (const p of paths) {
    const m = re.exec(p);
    if (!m) continue;
    // Express Layer.match: params[keys[i-1].name] = m[i] unless undefined and already present
    const params = {};
    let crash = false;
    for (let i = 1; i < m.length; i++) {
      const key = keys[i - 1];
      if (!key) { crash = true; break; }
      const prop = key.name;
      if (m[i] !== undefined || !Object.prototype.hasOwnProperty.call(params, prop)) params[prop] = m[i];
    }
    const defined = {};
    for (const k of Object.keys(params)) if (params[k] !== undefined) defined[k] = params[k];
    out.matches[p] = crash ? { len: m[0].length, crash: true } : { len: Buffer.byteLength(m[0]), params: defined };
  }
  return out;
}

const cases = [];
for (const s of strings) for (const o of combos) cases.push({ kind: 'path', input: [s], opts: o, ...run(s, o, false) });
for (const r of regexes) cases.push({ kind: 'regex', input: [r], opts: combos[0], ...run(r, combos[0], true) });
for (const m of manies) for (const o of combos) cases.push({ kind: 'many', input: m, opts: o, ...run(m, o, false) });
process.stdout.write(JSON.stringify({ paths, cases }) + '\n');
