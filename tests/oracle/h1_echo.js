// Oracle for webfw's HTTP/1 codec (tests/suite/http1_node.rs): a plain
// Node 20 `http` server with Node's defaults that answers every request 200
// with what llhttp parsed, as JSON:
//
//   {method, url, version, headers: [[name, value], ...], body, trailers: [...]}
//
// `headers` is Node's `req.headers` (repeated names folded as Node folds
// them, which webfw's header map mirrors), one pair per value of
// `set-cookie`, sorted by name; `trailers` is `req.rawTrailers`, names
// lower-cased, sorted by name (each name's values in order); `body` is the
// body's bytes as a Latin-1 string (one char per byte).
//
// No 'clientError', 'upgrade' or 'connect' listener is attached, as in an
// Express app: Node's own refusals (`HTTP/1.1 400 Bad Request` …) and its
// handling of Upgrade/CONNECT are part of the oracle.
//
//   node tests/oracle/h1_echo.js   prints `listening <port>` on 127.0.0.1
'use strict'
const http = require('http')

function pairs (list) {
  const out = []
  for (let i = 0; i < list.length; i += 2) out.push([list[i].toLowerCase(), list[i + 1]])
  return sorted(out)
}

function sorted (list) {
  // Array.prototype.sort is stable: each name's values keep their order.
  return list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
}

function answer (req, res, chunks) {
  const headers = []
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.push([name, v])
    else headers.push([name, value])
  }
  const body = JSON.stringify({
    method: req.method,
    url: req.url,
    version: req.httpVersion,
    headers: sorted(headers),
    body: Buffer.concat(chunks).toString('latin1'),
    trailers: pairs(req.rawTrailers)
  })
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body)
  })
  res.end(body)
}

const server = http.createServer((req, res) => {
  // A request framed without a body is answered at once, as an Express
  // route that reads no body answers it: before llhttp parses the bytes
  // behind it (so a refusal of those comes after this answer, not instead
  // of it). A request with a body is answered once the body has ended.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
    answer(req, res, [])
    req.resume()
    return
  }
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => answer(req, res, chunks))
})

server.listen(0, '127.0.0.1', () => {
  console.log('listening ' + server.address().port)
})
