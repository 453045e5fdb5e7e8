// An Express app sharing sessions with webfw through Redis: express-session
// with connect-redis, the same secret and cookie name. Started by
// tests/suite/session_redis.rs, which reads the port from the first line printed.
const express = require('express');
const session = require('express-session');
const { createClient } = require('redis');
const RedisStore = require('connect-redis').default;

const client = createClient({ url: process.env.REDIS_URL });
client.on('error', () => {});

client.connect().then(() => {
  const app = express();
  app.use(session({
    store: new RedisStore({ client }),
    secret: process.env.SESSION_SECRET,
    resave: false,
    saveUninitialized: false,
  }));
  app.get('/set', (req, res) => {
    req.session.user = req.query.user;
    req.session.visits = (req.session.visits || 0) + 1;
    res.send('ok');
  });
  app.get('/get', (req, res) => {
    req.session.visits = (req.session.visits || 0) + 1;
    res.json({ user: req.session.user || null, visits: req.session.visits });
  });
  const server = app.listen(0, '127.0.0.1', () => {
    console.log('listening ' + server.address().port);
  });
});
