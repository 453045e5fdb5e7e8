//! The middleware: puts the session on the request, and writes its cookies
//! just before the head leaves (cookie-session's `on-headers` hook).

use std::sync::{Arc, Mutex};

use super::cookies::{self, Cookie};
use super::options::CookieSessionOptions;
use super::session::{CookieSession, Sess, State, encode};
use crate::handler::{Flow, Handler, HandlerFuture};
use crate::http::cookie::latin1;
use crate::http::keygrip;
use crate::request::Request;
use crate::response::Response;

/// The middleware [`cookie_session`](crate::cookie_session()) returns.
///
/// ```
/// use webfw::cookie_session::CookieSessionOptions;
/// let mut app = webfw::app();
/// app.use_(webfw::cookie_session(CookieSessionOptions::new().keys(["k1"])));
/// ```
#[derive(Debug)]
pub struct CookieSessionMiddleware {
    options: Arc<CookieSessionOptions>,
}

impl CookieSessionMiddleware {
    pub(crate) fn new(options: CookieSessionOptions) -> CookieSessionMiddleware {
        assert!(
            !options.signed || !options.keys.is_empty(),
            ".keys required: a signed cookie session needs \
             CookieSessionOptions::new().keys([\"a secret\"]) (or .secret(\"…\")), \
             or .signed(false) for an unsigned one"
        );
        CookieSessionMiddleware {
            options: Arc::new(options),
        }
    }
}

impl Handler for CookieSessionMiddleware {
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        // Node joins repeated Cookie headers with "; ".
        let mut cookie_header = String::new();
        for v in req.headers().get_all(http::header::COOKIE) {
            if !cookie_header.is_empty() {
                cookie_header.push_str("; ");
            }
            cookie_header.push_str(&latin1(v.as_bytes()));
        }
        let state = State {
            options: self.options.clone(),
            per_request: None,
            sess: Sess::Unread,
            secure_request: req.protocol() == "https" || req.connection_encrypted(),
            cookie_header,
            pending: Vec::new(),
        };
        let session = CookieSession {
            state: Arc::new(Mutex::new(state)),
        };
        let hook = session.clone();
        res.on_headers(move |res| write_cookies(&hook, res));
        req.extensions_mut().insert(session);
        HandlerFuture::ready(Ok(Flow::Next))
    }
}

/// cookie-session's `setHeaders`: nothing when the session was never read;
/// the cookies expired after `req.session = null`; the session written
/// when it changed and is not a new empty one. A cookie the `cookies`
/// package would refuse (a secure one over HTTP, an invalid name) is
/// skipped, as the package's error is swallowed there.
fn write_cookies(session: &CookieSession, res: &mut Response) {
    let st = session.lock();
    let value = match &st.sess {
        Sess::Unread => return,
        Sess::Null => Some(String::new()),
        Sess::Live { data, is_new, val } => {
            let body = encode(data);
            let changed = *is_new || val.as_deref() != Some(body.as_str());
            ((!*is_new || !data.is_empty()) && changed).then_some(body)
        }
    };
    if st.pending.is_empty() && value.is_none() {
        return;
    }
    let mut lines: Vec<String> = res
        .get_all("set-cookie")
        .into_iter()
        .map(str::to_owned)
        .collect();
    lines.extend(st.pending.iter().cloned());
    if let Some(value) = value {
        set(&mut lines, &st, &value);
    }
    drop(st);
    res.set_all("Set-Cookie", lines);
}

/// `cookies.set(name, value, req.sessionOptions)`.
fn set(lines: &mut Vec<String>, st: &State, value: &str) {
    let opts = st.options();
    let Ok(cookie) = Cookie::from_options(opts, st.secure_request, value.is_empty()) else {
        return;
    };
    let Some(line) = cookie.header(&opts.name, value) else {
        return;
    };
    if opts.signed && opts.keys.is_empty() {
        return;
    }
    cookies::push(lines, &opts.name, line, opts.overwrite);
    if opts.signed {
        let sig_name = format!("{}.sig", opts.name);
        let sig = keygrip::sign(&format!("{}={value}", opts.name), &opts.keys[0]);
        if let Some(line) = cookie.header(&sig_name, &sig) {
            cookies::push(lines, &sig_name, line, opts.overwrite);
        }
    }
}
