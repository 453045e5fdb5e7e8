//! The session middleware: loads the session on the way in and writes the
//! cookie and the store just before the head leaves.

use std::sync::{Arc, Mutex};

use super::handle::{Session, Shared, State, hash};
use super::options::{SessionOptions, Unset};
use super::store::SessionRecord;
use crate::error::Error;
use crate::handler::{Flow, Handler, HandlerFuture};
use crate::http::cookie::{self, encode_uri_component};
use crate::http::cookie_signature;
use crate::request::Request;
use crate::response::Response;

/// The middleware [`session`](crate::session()) returns.
///
/// ```
/// let mut app = webfw::app();
/// app.use_(webfw::session(webfw::session::SessionOptions::new("keyboard cat")));
/// ```
pub struct SessionMiddleware {
    options: Arc<SessionOptions>,
}

impl std::fmt::Debug for SessionMiddleware {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionMiddleware")
            .field("options", &self.options)
            .finish()
    }
}

/// The store write the response waits for.
enum Write {
    Set(String, SessionRecord),
    Touch(String, SessionRecord),
    Destroy(String),
}

impl SessionMiddleware {
    pub(crate) fn new(options: SessionOptions) -> SessionMiddleware {
        SessionMiddleware {
            options: Arc::new(options),
        }
    }

    /// The session id the request's cookie carries, when its signature is
    /// one of the secrets' (`getcookie`): a tampered cookie gives none.
    fn cookie_id(&self, req: &Request) -> Option<String> {
        let header = req.headers().get(http::header::COOKIE)?;
        let pairs = cookie::parse(&cookie::latin1(header.as_bytes()));
        let raw = pairs.into_iter().find(|(k, _)| *k == self.options.name)?.1;
        let signed = raw.strip_prefix("s:")?;
        self.options
            .secrets
            .iter()
            .find_map(|secret| cookie_signature::unsign(signed, secret))
            .map(str::to_owned)
    }

    /// `issecure(req, trustProxy)`.
    fn is_secure(&self, req: &Request) -> bool {
        if req.connection_encrypted() {
            return true;
        }
        match self.options.proxy {
            Some(false) => false,
            None => req.secure(),
            Some(true) => req
                .headers()
                .get("x-forwarded-proto")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.split(',').next().unwrap_or("").trim() == "https"),
        }
    }

    /// Puts the session on the request and hooks the response head.
    fn install(&self, req: &mut Request, res: &mut Response, state: State) {
        let shared = Arc::new(Shared {
            options: self.options.clone(),
            state: Mutex::new(state),
        });
        let hook = shared.clone();
        res.on_headers(move |res| on_head(&hook, res));
        req.extensions_mut().insert(Session { shared });
    }
}

impl Handler for SessionMiddleware {
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        // Already run (an app mounted twice, say): keep the first session.
        if req.try_session().is_some() {
            return HandlerFuture::ready(Ok(Flow::Next));
        }
        let original = req.original_url();
        let path = original.split(['?', '#']).next().unwrap_or("");
        if !path.starts_with(self.options.cookie.path.as_str()) {
            return HandlerFuture::ready(Ok(Flow::Next));
        }
        let cookie_id = self.cookie_id(req);
        let mut state = State {
            id: String::new(),
            cookie_id: cookie_id.clone(),
            present: false,
            record: SessionRecord {
                cookie: super::SessionCookie::new(&self.options.cookie, false),
                data: serde_json::Map::new(),
            },
            original_id: String::new(),
            original_hash: String::new(),
            saved_hash: None,
            touched: false,
            secure_request: self.is_secure(req),
        };
        let Some(id) = cookie_id else {
            state.generate_first(&self.options);
            self.install(req, res, state);
            return HandlerFuture::ready(Ok(Flow::Next));
        };
        HandlerFuture::boxed(Box::pin(async move {
            let found = self.options.store.get(&id).await?;
            state.id = id;
            match found {
                Some(record) => state.inflate(record, &self.options),
                None => state.generate_first(&self.options),
            }
            self.install(req, res, state);
            Ok(Flow::Next)
        }))
    }
}

/// What express-session does in `res.end` and in its `on-headers` hook:
/// decide the store write, then set the cookie. The write runs before the
/// head leaves.
fn on_head(shared: &Shared, res: &mut Response) {
    let opts = &*shared.options;
    let mut st = shared.state.lock().unwrap_or_else(|p| p.into_inner());
    let write = if opts.unset == Unset::Destroy && !st.present {
        Some(Write::Destroy(st.id.clone()))
    } else if !st.present {
        None
    } else {
        if !st.touched {
            st.touch();
            st.touched = true;
        }
        if st.should_save(opts) {
            st.saved_hash = Some(hash(&st.record));
            Some(Write::Set(st.id.clone(), st.record.clone()))
        } else if st.should_touch(opts) {
            Some(Write::Touch(st.id.clone(), st.record.clone()))
        } else {
            None
        }
    };
    let mut failed = None;
    // A secure cookie only goes out over HTTPS.
    let may_send = st.secure_request || !st.record.cookie.secure();
    if st.present && may_send && st.should_set_cookie(opts) {
        let signed = format!("s:{}", cookie_signature::sign(&st.id, &opts.secrets[0]));
        match cookie::serialize(
            &opts.name,
            &encode_uri_component(&signed),
            &st.record.cookie.attributes(),
        ) {
            Ok(line) => {
                res.append("Set-Cookie", line);
            }
            Err(e) => {
                failed = Some(Error::new(format!("session cookie: {e}")).with_name("TypeError"))
            }
        }
    }
    drop(st);
    if write.is_none() && failed.is_none() {
        return;
    }
    let store = opts.store.clone();
    res.outbox.set_gate(Box::pin(async move {
        if let Some(e) = failed {
            return Err(e);
        }
        match write {
            Some(Write::Set(id, record)) => store.set(&id, &record).await,
            Some(Write::Touch(id, record)) => store.touch(&id, &record).await,
            Some(Write::Destroy(id)) => store.destroy(&id).await,
            None => Ok(()),
        }
    }));
}
