//! Hit counts in Redis, kept as `rate-limit-redis` 6 keeps them, so that
//! limiters in several processes (webfw or Express) share one count.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use super::store::{ClientRateLimitInfo, RateLimitStore};
use crate::error::Error;
use crate::handler::BoxFuture;

/// rate-limit-redis's increment script: a new window starts with `SET 1 PX
/// window`, else `INCR`; it answers the count and the milliseconds left.
const INCREMENT: &str = r#"local windowMs = tonumber(ARGV[1])
local timeToExpire = redis.call("PTTL", KEYS[1])
if timeToExpire <= 0 then
redis.call("SET", KEYS[1], 1, "PX", windowMs)
return { 1, windowMs }
end
local totalHits = redis.call("INCR", KEYS[1])
return { totalHits, timeToExpire }"#;

/// rate-limit-redis's get script.
const GET: &str = r#"local totalHits = redis.call("GET", KEYS[1])
local timeToExpire = redis.call("PTTL", KEYS[1])
return { totalHits, timeToExpire }"#;

/// The options of a [`RedisStore`]: rate-limit-redis's `prefix`, and the
/// bound on each command.
///
/// ```
/// use webfw::rate_limit::RedisStoreOptions;
/// let o = RedisStoreOptions::new().prefix("api:");
/// assert_eq!(o.prefix, "api:");
/// assert_eq!(RedisStoreOptions::default().prefix, "rl:");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RedisStoreOptions {
    /// Prepended to the client's key (default `rl:`). Limiters sharing a
    /// server need a prefix each.
    pub prefix: String,
    /// How long one command may take, reconnection included (default 2 s).
    pub timeout: Duration,
}

impl Default for RedisStoreOptions {
    fn default() -> Self {
        RedisStoreOptions {
            prefix: "rl:".into(),
            timeout: Duration::from_secs(2),
        }
    }
}

impl RedisStoreOptions {
    /// rate-limit-redis's defaults.
    ///
    /// ```
    /// assert_eq!(webfw::rate_limit::RedisStoreOptions::new().prefix, "rl:");
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// `prefix`.
    ///
    /// ```
    /// let o = webfw::rate_limit::RedisStoreOptions::new().prefix("login:");
    /// assert_eq!(o.prefix, "login:");
    /// ```
    pub fn prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// The bound on each command.
    ///
    /// ```
    /// use std::time::Duration;
    /// let o = webfw::rate_limit::RedisStoreOptions::new().timeout(Duration::from_millis(500));
    /// assert_eq!(o.timeout, Duration::from_millis(500));
    /// ```
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
}

/// A [`RateLimitStore`] in Redis (features `rate-limit` and `redis`): the
/// key `<prefix><client key>` holds the count and expires with the window
/// (`PX`), exactly as rate-limit-redis writes it, so webfw and Express
/// processes pointed at one server count together. One multiplexed
/// connection serves all requests and reconnects by itself; while Redis is
/// away a request fails (or passes, with
/// [`pass_on_store_error`](super::RateLimitOptions::pass_on_store_error)).
///
/// ```no_run
/// # async fn run() -> webfw::Result<()> {
/// use webfw::rate_limit::{RateLimitOptions, RedisStore};
/// let store = RedisStore::connect("redis://127.0.0.1:6379/").await?;
/// let mut app = webfw::app();
/// app.use_(webfw::rate_limit(RateLimitOptions::new().limit(100).store(store)));
/// # Ok(()) }
/// ```
pub struct RedisStore {
    conn: ConnectionManager,
    options: RedisStoreOptions,
    window_ms: AtomicU64,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

fn redis_error(e: redis::RedisError) -> Error {
    Error::new(format!("rate limit store (redis): {e}")).with_source(e)
}

impl RedisStore {
    /// Connects to the Redis server at `url` (`redis://host:port/db`).
    ///
    /// ```no_run
    /// # async fn run() -> webfw::Result<()> {
    /// let store = webfw::rate_limit::RedisStore::connect("redis://127.0.0.1/").await?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// When the URL is malformed or the server cannot be reached.
    pub async fn connect(url: &str) -> crate::Result<RedisStore> {
        RedisStore::connect_with(url, RedisStoreOptions::default()).await
    }

    /// Connects with `options`.
    ///
    /// ```no_run
    /// # async fn run() -> webfw::Result<()> {
    /// use webfw::rate_limit::{RedisStore, RedisStoreOptions};
    /// let opts = RedisStoreOptions::new().prefix("login:");
    /// let store = RedisStore::connect_with("redis://127.0.0.1/", opts).await?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// When the URL is malformed or the server cannot be reached.
    pub async fn connect_with(url: &str, options: RedisStoreOptions) -> crate::Result<RedisStore> {
        let client = redis::Client::open(url).map_err(redis_error)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(options.timeout)
            .set_response_timeout(options.timeout)
            .set_number_of_retries(2)
            .set_factor(50)
            .set_max_delay(500);
        let conn = tokio::time::timeout(
            options.timeout,
            ConnectionManager::new_with_config(client, config),
        )
        .await
        .map_err(|_| Error::new(format!("rate limit store (redis): no answer from {url}")))?
        .map_err(redis_error)?;
        Ok(RedisStore {
            conn,
            options,
            window_ms: AtomicU64::new(60_000),
        })
    }

    fn key(&self, key: &str) -> String {
        format!("{}{key}", self.options.prefix)
    }

    async fn run<T: redis::FromRedisValue>(&self, cmd: redis::Cmd) -> crate::Result<T> {
        let mut conn = self.conn.clone();
        tokio::time::timeout(self.options.timeout, async move {
            cmd.query_async::<T>(&mut conn).await.map_err(redis_error)
        })
        .await
        .unwrap_or_else(|_| Err(Error::new("rate limit store (redis): no answer in time")))
    }

    /// `parseScriptResponse`: the count (none: 0) and the reset time.
    fn parse(reply: (Option<i64>, i64)) -> ClientRateLimitInfo {
        let left = Duration::from_millis(reply.1.max(0) as u64);
        ClientRateLimitInfo {
            total_hits: reply.0.unwrap_or(0).max(0) as u64,
            reset_time: Some(SystemTime::now() + left),
        }
    }
}

impl RateLimitStore for RedisStore {
    fn init(&self, window: Duration) {
        let ms = u64::try_from(window.as_millis()).unwrap_or(u64::MAX).max(1);
        self.window_ms.store(ms, Ordering::Relaxed);
    }

    fn increment<'a>(&'a self, key: &'a str) -> BoxFuture<'a, crate::Result<ClientRateLimitInfo>> {
        Box::pin(async move {
            let mut cmd = redis::cmd("EVAL");
            cmd.arg(INCREMENT)
                .arg(1)
                .arg(self.key(key))
                .arg(self.window_ms.load(Ordering::Relaxed));
            let reply: (Option<i64>, i64) = self.run(cmd).await?;
            Ok(Self::parse(reply))
        })
    }

    fn decrement<'a>(&'a self, key: &'a str) -> BoxFuture<'a, crate::Result<()>> {
        Box::pin(async move {
            self.run::<()>(redis::cmd("DECR").arg(self.key(key)).clone())
                .await
        })
    }

    fn reset_key<'a>(&'a self, key: &'a str) -> BoxFuture<'a, crate::Result<()>> {
        Box::pin(async move {
            self.run::<()>(redis::cmd("DEL").arg(self.key(key)).clone())
                .await
        })
    }

    fn get<'a>(
        &'a self,
        key: &'a str,
    ) -> BoxFuture<'a, crate::Result<Option<ClientRateLimitInfo>>> {
        Box::pin(async move {
            let mut cmd = redis::cmd("EVAL");
            cmd.arg(GET).arg(1).arg(self.key(key));
            let reply: (Option<i64>, i64) = self.run(cmd).await?;
            Ok(Some(Self::parse(reply)))
        })
    }
}
