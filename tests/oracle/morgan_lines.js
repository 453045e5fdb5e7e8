// Oracle for webfw's logger: runs morgan 1.12.1 (the conformance kit's copy)
// over a table of requests and formats and writes morgan_lines.json, which
// tests/suite/logger_lines.rs compares webfw's lines against byte for byte.
//
//   node tests/oracle/morgan_lines.js   (from the repository root)
//
// Requests are Node IncomingMessage objects built with Node's own header
// folding (_addHeaderLines); header values are Latin-1 strings (one char per
// byte), as Node decodes them. Time is frozen: Date and process.hrtime.
'use strict'
const path = require('path')
const fs = require('fs')
const http = require('http')
const MOD = path.resolve(__dirname, '../../../shared/conformance/reference/node_modules')
const morgan = require(path.join(MOD, 'morgan'))

const NOW_MS = 1795337442123 // Sun, 22 Nov 2026 08:50:42.123 GMT
const RealDate = Date
global.Date = class extends RealDate {
  constructor (...a) { if (a.length) super(...a); else super(NOW_MS) }
  static now () { return NOW_MS }
}

// Custom tokens (the Rust test defines the same ones).
morgan.token('trace', function (req) { return req.headers['x-trace'] || 'no-trace' })
morgan.token('echo', function (req, res, arg) { return arg === undefined ? undefined : 'arg=' + arg + '\n' })
morgan.token('empty', function () { return '' })

const FORMATS = [
  'combined', 'common', 'default', 'short', 'tiny', 'dev',
  ':method :url :status :res[content-length] :res[content-type] ":req[user-agent]" :req[accept] ' +
    ':trace [:date[iso]] [:date[web]] :response-time[1] ms :total-time[0] ms HTTP/:http-version ' +
    ':remote-addr :remote-user ":referrer"',
  ':req[x-a] | :req[cookie] | :req[user-agent] | :req[referer] | :req[x-latin] | :res[set-cookie] | :res[x-multi] | :res[X-Json]',
  ':response-time :response-time[0] :response-time[5] :total-time :total-time[2] :total-time[0]',
  '::method :x :url: \\ " \t|:status|:date[clf]|:date',
  ':echo[a"b] :echo[x\\y] :echo :empty :trace',
  '',
]

// [s, ns] after [100, 0].
function hr (ns) { return [100 + Math.floor(ns / 1e9), ns % 1e9] }

const CASES = [
  {
    name: 'plain get',
    method: 'GET', url: '/log/ok?x=1',
    headers: [['Host', 'example.com'], ['User-Agent', 'conformance-kit/1.0'], ['Referer', 'http://ref.example/start'],
      ['Accept', 'text/plain'], ['X-Trace', 'trace-1'], ['Authorization', 'Basic dXNlcjpwYXNz']],
    sent: true, status: 200, resHeaders: [['Content-Type', 'text/html; charset=utf-8'], ['Content-Length', '2']],
    headNs: 7151234, totalNs: 9876543,
  },
  {
    name: 'not sent',
    method: 'POST', url: '/slow',
    headers: [['Host', 'x']],
    sent: false, status: 200, resHeaders: [['Content-Length', '5']],
    headNs: null, totalNs: 1500000,
  },
  {
    name: 'escapes in headers',
    method: 'GET', url: '/a%22b?q=%0A',
    headers: [['User-Agent', 'evil" \\agent\t\x85\xe9'], ['Referrer', 'back\\slash'], ['X-Latin', 'caf\xe9 \x9f'],
      ['Accept', '"quoted"'], ['X-Trace', '']],
    sent: true, status: 404, resHeaders: [['Content-Type', 'text/plain; x="1"'], ['X-Multi', 'a'], ['X-Multi', 'b\\c']],
    headNs: 500000, totalNs: 2500000,
  },
  {
    name: 'duplicates',
    method: 'DELETE', url: '/dup',
    headers: [['X-A', '1'], ['x-a', '2'], ['Cookie', 'a=1'], ['cookie', 'b=2'], ['User-Agent', 'first'], ['User-Agent', 'second'],
      ['Referer', 'r1'], ['Referer', 'r2'], ['Authorization', 'Basic YQpiOmM=']],
    sent: true, status: 302, resHeaders: [['Set-Cookie', 'a=1; Path=/'], ['Set-Cookie', 'b=2'], ['Location', '/x']],
    headNs: 2500000, totalNs: 1250000000,
  },
  {
    name: 'auth variants',
    method: 'PUT', url: '/auth',
    headers: [['Authorization', '  bAsIc   dXNl.cjpwYXNz  '], ['Referer', ''], ['Referrer', 'fallback']],
    sent: true, status: 500, resHeaders: [['X-Json', '{"a":"b"}']],
    headNs: 125000, totalNs: 125000,
  },
  {
    name: 'auth newline in password',
    method: 'GET', url: '/',
    headers: [['Authorization', 'Basic YTpiCmM=']],
    sent: true, status: 101, resHeaders: [],
    headNs: 999999999, totalNs: 1000000001,
  },
  {
    name: 'auth control chars in user, empty user',
    method: 'GET', url: '/u',
    headers: [['Authorization', 'Basic YQFiOmM='], ['X-Trace', 'x\x9fy']],
    sent: true, status: 204, resHeaders: [],
    headNs: 0, totalNs: 0,
  },
  {
    name: 'empty user',
    method: 'OPTIONS', url: '*',
    headers: [['Authorization', 'Basic OnBhc3M=']],
    sent: true, status: 304, resHeaders: [],
    headNs: 3000, totalNs: 3000,
  },
]

function buildReq (c) {
  const req = new http.IncomingMessage(null)
  const raw = []
  for (const [k, v] of c.headers) raw.push(k, v)
  req._addHeaderLines(raw, raw.length)
  req.method = c.method
  req.url = c.url
  req.originalUrl = c.url
  req.httpVersionMajor = 1
  req.httpVersionMinor = 1
  req.ip = '127.0.0.1'
  req._startAt = [100, 0]
  return req
}

function buildRes (c) {
  const h = {}
  for (const [k, v] of c.resHeaders) {
    const key = k.toLowerCase()
    if (key in h) h[key] = [].concat(h[key], v)
    else h[key] = v
  }
  return {
    headersSent: c.sent,
    statusCode: c.status,
    getHeader: (name) => h[name.toLowerCase()],
    _startAt: c.sent && c.headNs !== null ? hr(c.headNs) : undefined,
  }
}

const realHrtime = process.hrtime
const lines = FORMATS.map(function (fmt) {
  const fn = typeof morgan[fmt] === 'function' ? morgan[fmt] : morgan.compile(morgan[fmt] || fmt)
  return CASES.map(function (c) {
    process.hrtime = function (prev) {
      const now = hr(c.totalNs)
      if (!prev) return now
      let s = now[0] - prev[0]; let ns = now[1] - prev[1]
      if (ns < 0) { s -= 1; ns += 1e9 }
      return [s, ns]
    }
    try {
      const line = fn(morgan, buildReq(c), buildRes(c))
      return line == null ? null : line
    } finally {
      process.hrtime = realHrtime
    }
  })
})

fs.writeFileSync(path.join(__dirname, 'morgan_lines.json'),
  JSON.stringify({ now_ms: NOW_MS, formats: FORMATS, cases: CASES, lines: lines }, null, 1) + '\n')
console.log('wrote', lines.length * CASES.length, 'lines')
