//! Sessions in Redis, written exactly as connect-redis writes them, so a
//! webfw service and an Express service sharing the secret share logins.

use std::future::Future;
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use super::store::{SessionRecord, SessionStore};
use crate::error::Error;
use crate::handler::BoxFuture;

/// The options of a [`RedisStore`]: connect-redis's `prefix` and `ttl`, and
/// the bound on each command.
///
/// ```
/// use std::time::Duration;
/// use webfw::session::RedisStoreOptions;
/// let opts = RedisStoreOptions::new().prefix("myapp:");
/// assert_eq!(opts.ttl, Duration::from_secs(86400));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RedisStoreOptions {
    /// Prepended to the session id to make the key (default `sess:`).
    pub prefix: String,
    /// The TTL of sessions whose cookie has no expiry (default one day).
    pub ttl: Duration,
    /// How long one command may take, reconnection included, before the
    /// request fails with a 500 (default 2 s).
    pub timeout: Duration,
}

impl Default for RedisStoreOptions {
    fn default() -> Self {
        RedisStoreOptions {
            prefix: "sess:".to_owned(),
            ttl: Duration::from_secs(86_400),
            timeout: Duration::from_secs(2),
        }
    }
}

impl RedisStoreOptions {
    /// connect-redis's defaults: prefix `sess:`, a one-day TTL.
    ///
    /// ```
    /// assert_eq!(webfw::session::RedisStoreOptions::new().prefix, "sess:");
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// `prefix`.
    ///
    /// ```
    /// let o = webfw::session::RedisStoreOptions::new().prefix("app:");
    /// assert_eq!(o.prefix, "app:");
    /// ```
    pub fn prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// `ttl`: for sessions whose cookie has no expiry.
    ///
    /// ```
    /// use std::time::Duration;
    /// let o = webfw::session::RedisStoreOptions::new().ttl(Duration::from_secs(600));
    /// assert_eq!(o.ttl, Duration::from_secs(600));
    /// ```
    pub fn ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// The bound on each command.
    ///
    /// ```
    /// use std::time::Duration;
    /// let o = webfw::session::RedisStoreOptions::new().timeout(Duration::from_millis(500));
    /// assert_eq!(o.timeout, Duration::from_millis(500));
    /// ```
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
}

/// A [`SessionStore`] in Redis (cargo feature `redis`): `SET <prefix><id>
/// <json> EX <ttl>` with the TTL from the cookie's expiry (else one day),
/// `EXPIRE` on touch, `DEL` on destroy: what connect-redis 7 does. One
/// multiplexed connection serves all requests and reconnects by itself; while
/// Redis is down requests using sessions get 500s, then work again.
///
/// ```no_run
/// # async fn run() -> Result<(), webfw::Error> {
/// use webfw::session::{RedisStore, SessionOptions};
/// let store = RedisStore::connect("redis://127.0.0.1:6379/").await?;
/// let mut app = webfw::app();
/// app.use_(webfw::session(SessionOptions::new("keyboard cat").store(store)));
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct RedisStore {
    conn: ConnectionManager,
    options: RedisStoreOptions,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

fn redis_error(e: redis::RedisError) -> Error {
    Error::new(format!("session store (redis): {e}")).with_source(e)
}

impl RedisStore {
    /// Connects to the Redis server at `url` (`redis://host:port/db`) with
    /// the default options.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), webfw::Error> {
    /// let store = webfw::session::RedisStore::connect("redis://127.0.0.1/").await?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// When the URL is malformed or the server cannot be reached.
    pub async fn connect(url: &str) -> Result<RedisStore, Error> {
        RedisStore::connect_with(url, RedisStoreOptions::default()).await
    }

    /// Connects to the Redis server at `url` with `options`.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), webfw::Error> {
    /// use webfw::session::{RedisStore, RedisStoreOptions};
    /// let opts = RedisStoreOptions::new().prefix("app:sess:");
    /// let store = RedisStore::connect_with("redis://127.0.0.1/", opts).await?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// When the URL is malformed or the server cannot be reached.
    pub async fn connect_with(url: &str, options: RedisStoreOptions) -> Result<RedisStore, Error> {
        let client = redis::Client::open(url).map_err(redis_error)?;
        // Reconnection is bounded by the per-command timeout: a request waits
        // at most that long for a server that is away.
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
        .map_err(|_| Error::new(format!("session store (redis): no answer from {url}")))?
        .map_err(redis_error)?;
        Ok(RedisStore { conn, options })
    }

    fn key(&self, id: &str) -> String {
        format!("{}{id}", self.options.prefix)
    }

    /// Runs `cmd`, bounded by the timeout.
    async fn run<T: redis::FromRedisValue>(&self, cmd: redis::Cmd) -> Result<T, Error> {
        let mut conn = self.conn.clone();
        bounded(self.options.timeout, async move {
            cmd.query_async::<T>(&mut conn).await.map_err(redis_error)
        })
        .await
    }
}

async fn bounded<T>(
    limit: Duration,
    fut: impl Future<Output = Result<T, Error>>,
) -> Result<T, Error> {
    tokio::time::timeout(limit, fut)
        .await
        .unwrap_or_else(|_| Err(Error::new("session store (redis): no answer in time")))
}

impl SessionStore for RedisStore {
    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<SessionRecord>, Error>> {
        Box::pin(async move {
            let json: Option<String> = self
                .run(redis::cmd("GET").arg(self.key(id)).clone())
                .await?;
            match json {
                None => Ok(None),
                Some(json) => SessionRecord::from_json(&json).map(Some).ok_or_else(|| {
                    Error::new(format!(
                        "session store (redis): {} is not a JSON session",
                        self.key(id)
                    ))
                }),
            }
        })
    }

    fn set<'a>(
        &'a self,
        id: &'a str,
        session: &'a SessionRecord,
    ) -> BoxFuture<'a, Result<(), Error>> {
        Box::pin(async move {
            let ttl = session.ttl_secs(self.options.ttl);
            if ttl <= 0 {
                return self.destroy(id).await;
            }
            let mut cmd = redis::cmd("SET");
            cmd.arg(self.key(id))
                .arg(session.to_json())
                .arg("EX")
                .arg(ttl);
            self.run::<()>(cmd).await
        })
    }

    fn destroy<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(), Error>> {
        Box::pin(async move {
            self.run::<()>(redis::cmd("DEL").arg(self.key(id)).clone())
                .await
        })
    }

    fn touch<'a>(
        &'a self,
        id: &'a str,
        session: &'a SessionRecord,
    ) -> BoxFuture<'a, Result<(), Error>> {
        Box::pin(async move {
            let ttl = session.ttl_secs(self.options.ttl);
            let mut cmd = redis::cmd("EXPIRE");
            cmd.arg(self.key(id)).arg(ttl);
            self.run::<()>(cmd).await
        })
    }
}
