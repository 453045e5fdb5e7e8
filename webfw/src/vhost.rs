//! `vhost(hostname, handler)`: the `vhost` 3.0 middleware.
//!
//! Express: `app.use(vhost('*.example.com', subApp))`;
//! webfw: `app.use_(webfw::vhost("*.example.com", sub_app))`.
//!
//! The handler (a function, a [`Router`], an
//! [`App`](crate::App), any [`IntoMiddleware`] value) runs only for requests
//! whose `Host` header, port left out, matches `hostname`; the others pass
//! on. A string hostname matches case-insensitively as a whole, each `*`
//! standing for one label (`*.example.com` matches `api.example.com`, not
//! `example.com` nor `a.b.example.com`); a [`Regex`] is anchored at both
//! ends when it is not already. What matched is [`Request::vhost`]
//! (`req.vhost`): the host, the hostname and what each `*` or group caught.
//!
//! ```
//! use webfw::prelude::*;
//!
//! fn tenant(req: &mut Request, res: &mut Response) -> Result {
//!     let name = req.vhost().and_then(|v| v.get(0)).unwrap_or("").to_owned();
//!     res.send(format!("tenant {name}"))
//! }
//! let mut app = webfw::app();
//! app.use_(webfw::vhost("*.example.com", tenant));
//! app.use_(webfw::vhost(webfw::vhost::Regex::new(r"^(\w+)-(\d+)\.example\.org$").unwrap(), tenant));
//! ```

pub use regex::Regex;

use crate::handler::{IntoMiddleware, Middleware, next, next_router};
use crate::request::Request;
use crate::response::Response;
use crate::router::{Router, RouterOptions};

/// What `vhost` matches: a hostname pattern with `*` wildcards, or a
/// regular expression.
///
/// ```
/// use webfw::vhost::Hostname;
/// let _: Hostname = "*.example.com".into();
/// let _: Hostname = webfw::vhost::Regex::new(r"^(\w+)\.example\.com$").unwrap().into();
/// ```
#[derive(Clone, Debug)]
pub struct Hostname {
    regex: Regex,
}

impl Hostname {
    /// A hostname pattern: `*` stands for one label, everything else is
    /// literal. Panics on an empty pattern (vhost's `TypeError: argument
    /// hostname is required`).
    ///
    /// ```
    /// let h = webfw::vhost::Hostname::pattern("*.example.com");
    /// assert!(h.captures("API.example.com").is_some());
    /// assert!(h.captures("example.com").is_none());
    /// ```
    pub fn pattern(pattern: &str) -> Hostname {
        assert!(
            !pattern.is_empty(),
            "vhost: argument hostname is required: give a hostname such as \"*.example.com\""
        );
        Hostname::from_source(&pattern_source(pattern))
    }

    /// A regular expression, anchored at the ends it leaves open and
    /// matched case-insensitively, as vhost compiles a `RegExp`.
    ///
    /// ```
    /// let re = webfw::vhost::Regex::new(r"(\w+)\.example\.com").unwrap();
    /// let h = webfw::vhost::Hostname::regex(&re);
    /// assert!(h.captures("a.example.com.evil").is_none());
    /// ```
    pub fn regex(re: &Regex) -> Hostname {
        Hostname::from_source(re.as_str())
    }

    fn from_source(source: &str) -> Hostname {
        let anchored = anchored(source);
        let regex = Regex::new(&format!("(?i){anchored}"))
            .unwrap_or_else(|e| panic!("vhost: hostname pattern {source:?} does not compile: {e}"));
        Hostname { regex }
    }

    /// The groups of a hostname that matches (`None` for a group that took
    /// no part), else `None`.
    ///
    /// ```
    /// let h = webfw::vhost::Hostname::pattern("*.*.example.com");
    /// let caught = h.captures("a.b.example.com").unwrap();
    /// assert_eq!(caught, vec![Some("a".to_owned()), Some("b".to_owned())]);
    /// ```
    pub fn captures(&self, hostname: &str) -> Option<Vec<Option<String>>> {
        let caps = self.regex.captures(hostname)?;
        Some(
            caps.iter()
                .skip(1)
                .map(|m| m.map(|m| m.as_str().to_owned()))
                .collect(),
        )
    }
}

impl From<&str> for Hostname {
    fn from(pattern: &str) -> Hostname {
        Hostname::pattern(pattern)
    }
}

impl From<String> for Hostname {
    fn from(pattern: String) -> Hostname {
        Hostname::pattern(&pattern)
    }
}

impl From<Regex> for Hostname {
    fn from(re: Regex) -> Hostname {
        Hostname::regex(&re)
    }
}

impl From<&Regex> for Hostname {
    fn from(re: &Regex) -> Hostname {
        Hostname::regex(re)
    }
}

/// The regular expression source of a hostname pattern: literal text
/// escaped, each `*` one label.
fn pattern_source(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 8);
    for c in pattern.chars() {
        if c == '*' {
            out.push_str(r"([^\.]+)");
        } else {
            out.push_str(&regex::escape(c.encode_utf8(&mut [0; 4])));
        }
    }
    out
}

/// `source` with `^` in front unless it starts so, and `$` at the end
/// unless it ends with an unescaped `$`.
fn anchored(source: &str) -> String {
    let mut out = String::with_capacity(source.len() + 2);
    if !source.starts_with('^') {
        out.push('^');
    }
    out.push_str(source);
    if !ends_anchored(source) {
        out.push('$');
    }
    out
}

/// Whether `source` ends with `$` after an even number of backslashes.
fn ends_anchored(source: &str) -> bool {
    let Some(rest) = source.strip_suffix('$') else {
        return false;
    };
    let slashes = rest.bytes().rev().take_while(|&b| b == b'\\').count();
    slashes % 2 == 0
}

/// The hostname of a `Host` header: the port left out, IPv6 brackets kept.
fn hostname_of(host: &str) -> &str {
    let offset = if host.starts_with('[') {
        host.find(']').map_or(0, |i| i + 1)
    } else {
        0
    };
    match host[offset..].find(':') {
        Some(i) => &host[..offset + i],
        None => host,
    }
}

/// `req.vhost`: what the matching [`vhost`] found.
///
/// ```
/// use webfw::prelude::*;
/// fn show(req: &mut Request, res: &mut Response) -> Result {
///     let v = req.vhost().expect("mounted through vhost");
///     let body = format!("{} {} {}", v.host(), v.hostname(), v.len());
///     res.send(body)
/// }
/// let mut app = webfw::app();
/// app.use_(webfw::vhost("*.example.com", show));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vhost {
    host: String,
    hostname: String,
    captures: Vec<Option<String>>,
}

impl Vhost {
    /// `req.vhost.host`: the `Host` header, port included.
    ///
    /// ```
    /// # let v = webfw::testing::vhost("a.example.com:80", &["a"]);
    /// assert_eq!(v.host(), "a.example.com:80");
    /// ```
    pub fn host(&self) -> &str {
        &self.host
    }

    /// `req.vhost.hostname`: the host without its port.
    ///
    /// ```
    /// # let v = webfw::testing::vhost("a.example.com:80", &["a"]);
    /// assert_eq!(v.hostname(), "a.example.com");
    /// ```
    pub fn hostname(&self) -> &str {
        &self.hostname
    }

    /// `req.vhost.length`: how many wildcards or groups the pattern has.
    ///
    /// ```
    /// # let v = webfw::testing::vhost("a.example.com", &["a"]);
    /// assert_eq!(v.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.captures.len()
    }

    /// Whether the pattern has no wildcard or group.
    ///
    /// ```
    /// # let v = webfw::testing::vhost("a.example.com", &["a"]);
    /// assert!(!v.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.captures.is_empty()
    }

    /// `req.vhost[i]`: what the `i`-th wildcard or group caught (`None`
    /// past the end or for a group that took no part).
    ///
    /// ```
    /// # let v = webfw::testing::vhost("a.example.com", &["a"]);
    /// assert_eq!(v.get(0), Some("a"));
    /// assert_eq!(v.get(1), None);
    /// ```
    pub fn get(&self, i: usize) -> Option<&str> {
        self.captures.get(i)?.as_deref()
    }

    /// Every capture in order.
    ///
    /// ```
    /// # let v = webfw::testing::vhost("a.example.com", &["a"]);
    /// assert_eq!(v.captures(), &[Some("a".to_owned())]);
    /// ```
    pub fn captures(&self) -> &[Option<String>] {
        &self.captures
    }

    /// A value as a match of `host` would give ([`crate::testing::vhost`]).
    pub(crate) fn of(host: &str, captures: &[&str]) -> Vhost {
        Vhost {
            host: host.to_owned(),
            hostname: hostname_of(host).to_owned(),
            captures: captures.iter().map(|c| Some((*c).to_owned())).collect(),
        }
    }
}

impl Request {
    /// `req.vhost`: set by a matching [`vhost`] for its handler.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert!(req.vhost().is_none());
    /// ```
    pub fn vhost(&self) -> Option<&Vhost> {
        self.extensions().get::<Vhost>()
    }
}

/// `vhost(hostname, handle)`: runs `handler` for requests to `hostname`
/// (see the [module](self)); the others pass on to what follows.
///
/// ```
/// use webfw::prelude::*;
/// let mut api = webfw::router();
/// api.get("/", |_req: &mut Request, res: &mut Response| res.send("api"));
/// let mut app = webfw::app();
/// app.use_(webfw::vhost("api.example.com", api));
/// app.get("/", |_req: &mut Request, res: &mut Response| res.send("www"));
/// ```
pub fn vhost<M>(hostname: impl Into<Hostname>, handler: impl IntoMiddleware<M>) -> Middleware {
    let hostname = hostname.into();
    let matcher = move |req: &mut Request, _res: &mut Response| {
        let Some(found) = vhost_of(req, &hostname) else {
            return next_router();
        };
        req.extensions_mut().insert(found);
        next()
    };
    // A router of one layer: the matcher leaves it (`next('router')`) for
    // another host, so the handler sits where vhost's closure calls it.
    let mut wrap = Router::with_options(RouterOptions::new().merge_params(true));
    wrap.use_((matcher, handler.into_middleware()));
    wrap.into_middleware()
}

/// The match of the request's `Host` header (read as Node reads it, one
/// byte a character), if any.
fn vhost_of(req: &Request, hostname: &Hostname) -> Option<Vhost> {
    let raw = req.headers().get(http::header::HOST)?;
    let host = crate::http::cookie::latin1(raw.as_bytes());
    let name = hostname_of(&host);
    if name.is_empty() {
        return None;
    }
    let captures = hostname.captures(name)?;
    Some(Vhost {
        hostname: name.to_owned(),
        host,
        captures,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caught(pattern: impl Into<Hostname>, host: &str) -> Option<Vec<Option<String>>> {
        pattern.into().captures(hostname_of(host))
    }

    #[test]
    fn wildcards_stand_for_one_label() {
        assert_eq!(
            caught("*.api.example", "tobi.api.example:8080"),
            Some(vec![Some("tobi".into())])
        );
        assert_eq!(caught("*.api.example", "api.example"), None);
        assert_eq!(caught("*.api.example", "a.b.api.example"), None);
        assert_eq!(caught("www.example", "WWW.Example"), Some(vec![]));
        // A dot is literal, not any character.
        assert_eq!(caught("www.example", "wwwxexample"), None);
    }

    #[test]
    fn regex_sources_are_anchored_once() {
        assert_eq!(anchored("a"), "^a$");
        assert_eq!(anchored("^a$"), "^a$");
        assert_eq!(anchored(r"a\$"), r"^a\$$");
        assert_eq!(anchored(r"a\\$"), r"^a\\$");
        let re = Regex::new(r"(\w+)-(\d+)?\.re").unwrap();
        assert_eq!(caught(re, "ab-.re"), Some(vec![Some("ab".into()), None]));
    }

    #[test]
    fn hostname_drops_the_port_but_keeps_ipv6_brackets() {
        assert_eq!(hostname_of("a.example:80"), "a.example");
        assert_eq!(hostname_of("[::1]:3000"), "[::1]");
        assert_eq!(hostname_of("[::1]"), "[::1]");
        assert_eq!(hostname_of(":80"), "");
    }
}
