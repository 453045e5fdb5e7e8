// An Express app with cookie-session and express-rate-limit (over
// rate-limit-redis), for tests/suite/eco_interop.rs: the same keys and options as
// the webfw side, so cookies and counts pass between the two. Prints
// `listening <port>` first.
const express = require('express');
const cookieSession = require('cookie-session');
const { rateLimit } = require('express-rate-limit');
const { RedisStore } = require('rate-limit-redis');
const { createClient } = require('redis');

const client = createClient({ url: process.env.REDIS_URL });
client.on('error', () => {});

client.connect().then(() => {
  const app = express();
  const cs = express.Router();
  cs.use(cookieSession({ name: 'session', keys: ['key-new', 'key-old'], maxAge: 3600000 }));
  cs.get('/count', (req, res) => {
    req.session.n = (req.session.n || 0) + 1;
    res.json({ n: req.session.n, isNew: req.session.isNew });
  });
  cs.get('/read', (req, res) => res.json({ session: req.session, isNew: req.session.isNew }));
  cs.get('/set-obj', (req, res) => {
    req.session.user = { name: 'tobi', roles: ['admin'], note: 'café ✓' };
    res.send('set');
  });
  app.use('/cs', cs);

  app.get('/rl', rateLimit({
    windowMs: 3600000,
    limit: 3,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    keyGenerator: (req) => req.get('X-Client') || 'anonymous',
    store: new RedisStore({ sendCommand: (...args) => client.sendCommand(args) }),
  }), (req, res) => res.send('ok'));

  const server = app.listen(0, '127.0.0.1', () => {
    console.log('listening ' + server.address().port);
  });
});
