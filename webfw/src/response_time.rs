//! `response_time(options)`: the `response-time` 2.3 middleware.
//!
//! Express: `app.use(responseTime({ digits: 3, header: 'X-Response-Time', suffix: true }))`;
//! webfw: `app.use_(webfw::response_time(ResponseTimeOptions::new().digits(3)))`.
//!
//! The time from the middleware to the moment the response's head is
//! written, in milliseconds with `digits` decimals (`12.345ms`), goes in a
//! header, unless a handler set that header already. The callback form
//! ([`callback`]) hands the time to your code instead.
//!
//! ```
//! use webfw::prelude::*;
//! use webfw::response_time::ResponseTimeOptions;
//! let mut app = webfw::app();
//! app.use_(webfw::response_time(()));
//! app.get("/slow", (
//!     webfw::response_time(ResponseTimeOptions::new().digits(0).suffix(false).header("X-Elapsed")),
//!     |_req: &mut Request, res: &mut Response| res.send("timed"),
//! ));
//! ```

use std::sync::Arc;
use std::time::{Duration, Instant};

use http::{HeaderName, HeaderValue};

use crate::handler::{Flow, Handler, HandlerFuture};
use crate::request::Request;
use crate::response::Response;

/// The options of [`response_time`](crate::response_time()): `digits` (3),
/// `header` (`X-Response-Time`), `suffix` (`ms`, on).
///
/// ```
/// use webfw::response_time::ResponseTimeOptions;
/// let opts = ResponseTimeOptions::new().digits(1).header("X-Time").suffix(false);
/// ```
#[derive(Clone, Debug)]
pub struct ResponseTimeOptions {
    digits: usize,
    header: HeaderName,
    suffix: bool,
}

impl Default for ResponseTimeOptions {
    fn default() -> ResponseTimeOptions {
        ResponseTimeOptions {
            digits: 3,
            header: HeaderName::from_static("x-response-time"),
            suffix: true,
        }
    }
}

impl From<()> for ResponseTimeOptions {
    fn from((): ()) -> ResponseTimeOptions {
        ResponseTimeOptions::default()
    }
}

impl ResponseTimeOptions {
    /// response-time's defaults.
    ///
    /// ```
    /// let opts = webfw::response_time::ResponseTimeOptions::new();
    /// ```
    pub fn new() -> ResponseTimeOptions {
        ResponseTimeOptions::default()
    }

    /// `digits`: decimals of the milliseconds, 0 to 100 (`toFixed`'s
    /// range; more panics).
    ///
    /// ```
    /// let opts = webfw::response_time::ResponseTimeOptions::new().digits(0);
    /// ```
    pub fn digits(mut self, digits: usize) -> Self {
        assert!(
            digits <= 100,
            "response-time: digits must be between 0 and 100, got {digits}"
        );
        self.digits = digits;
        self
    }

    /// `header`: the header's name. Panics on a name HTTP does not allow.
    ///
    /// ```
    /// let opts = webfw::response_time::ResponseTimeOptions::new().header("X-Elapsed");
    /// ```
    pub fn header(mut self, name: &str) -> Self {
        self.header = HeaderName::from_bytes(name.as_bytes()).unwrap_or_else(|_| {
            panic!(
                "response-time: {name:?} is not a valid header name; use letters, digits and '-'"
            )
        });
        self
    }

    /// `suffix`: whether the value ends with `ms`.
    ///
    /// ```
    /// let opts = webfw::response_time::ResponseTimeOptions::new().suffix(false);
    /// ```
    pub fn suffix(mut self, on: bool) -> Self {
        self.suffix = on;
        self
    }

    fn value(&self, elapsed: Duration) -> String {
        let mut v = to_fixed(elapsed.as_secs_f64() * 1e3, self.digits);
        if self.suffix {
            v.push_str("ms");
        }
        v
    }
}

type Callback = dyn Fn(&Request) -> Box<dyn FnOnce(&mut Response, Duration) + Send> + Send + Sync;

/// The middleware [`response_time`](crate::response_time()) and [`callback`] return.
///
/// ```
/// let timer: webfw::response_time::ResponseTime = webfw::response_time(());
/// let mut app = webfw::app();
/// app.use_(timer);
/// ```
#[derive(Clone)]
pub struct ResponseTime(Kind);

#[derive(Clone)]
enum Kind {
    Header(Arc<ResponseTimeOptions>),
    Callback(Arc<Callback>),
}

impl std::fmt::Debug for ResponseTime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Kind::Header(o) => f.debug_tuple("ResponseTime").field(o).finish(),
            Kind::Callback(_) => f.write_str("ResponseTime(callback)"),
        }
    }
}

/// `responseTime(options)`: the response time in a header (see the
/// [module](self)). `()` for the defaults.
///
/// ```
/// let mut app = webfw::app();
/// app.use_(webfw::response_time(()));
/// ```
pub fn response_time(options: impl Into<ResponseTimeOptions>) -> ResponseTime {
    ResponseTime(Kind::Header(Arc::new(options.into())))
}

/// `responseTime((req, res, time) => …)`: `f` runs when the middleware
/// does, with the request, and returns what runs when the head is written,
/// with the response and the time taken. (The request is borrowed by the
/// handlers by then: take from it what the second step needs.)
///
/// ```
/// use webfw::prelude::*;
/// let mut app = webfw::app();
/// app.use_(webfw::response_time::callback(|req: &Request| {
///     let method = req.method().clone();
///     move |res: &mut Response, time: std::time::Duration| {
///         res.set("X-Timed", format!("{method} {}", time.as_micros()));
///     }
/// }));
/// ```
pub fn callback<F, G>(f: F) -> ResponseTime
where
    F: Fn(&Request) -> G + Send + Sync + 'static,
    G: FnOnce(&mut Response, Duration) + Send + 'static,
{
    ResponseTime(Kind::Callback(Arc::new(move |req| Box::new(f(req)))))
}

impl Handler for ResponseTime {
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        let start = Instant::now();
        match &self.0 {
            Kind::Header(opts) => {
                let opts = opts.clone();
                res.on_headers(move |res| {
                    let elapsed = start.elapsed();
                    if res.get(opts.header.as_str()).is_some_and(|v| !v.is_empty()) {
                        return;
                    }
                    if let Ok(v) = HeaderValue::from_str(&opts.value(elapsed)) {
                        res.insert_header(opts.header.clone(), v);
                    }
                });
            }
            Kind::Callback(f) => {
                let then = f(req);
                res.on_headers(move |res| then(res, start.elapsed()));
            }
        }
        HandlerFuture::ready(Ok(Flow::Next))
    }
}

/// JavaScript's `Number.prototype.toFixed`: rounded to `digits` decimals,
/// an exact half away from zero (Rust's formatting rounds it to even).
fn to_fixed(x: f64, digits: usize) -> String {
    // An exact tie has at most `digits + 1` binary, hence decimal, places.
    let exact = (x * 2f64.powi(digits as i32 + 1)).fract() == 0.0;
    if exact {
        let longer = format!("{x:.*}", digits + 1);
        if let Some(rest) = longer.strip_suffix('5') {
            return round_up(rest.strip_suffix('.').unwrap_or(rest));
        }
    }
    format!("{x:.digits$}")
}

/// Adds one unit in the last place to a decimal's magnitude.
fn round_up(digits: &str) -> String {
    let mut out: Vec<u8> = digits.as_bytes().to_vec();
    for i in (0..out.len()).rev() {
        match out[i] {
            b'9' => out[i] = b'0',
            b'0'..=b'8' => {
                out[i] += 1;
                return String::from_utf8(out).unwrap_or_default();
            }
            _ => {}
        }
    }
    // Every digit carried: one more in front, after a sign.
    let at = usize::from(out.first() == Some(&b'-'));
    out.insert(at, b'1');
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_fixed_rounds_exact_halves_up_as_javascript() {
        assert_eq!(to_fixed(0.5, 0), "1");
        assert_eq!(to_fixed(2.5, 0), "3");
        assert_eq!(to_fixed(0.125, 2), "0.13");
        assert_eq!(to_fixed(9.995, 2), "9.99"); // not exact: below the half
        assert_eq!(to_fixed(9.5, 0), "10");
        assert_eq!(to_fixed(99.875, 2), "99.88");
        assert_eq!(to_fixed(-0.5, 0), "-1");
        assert_eq!(to_fixed(1.23456, 3), "1.235");
        assert_eq!(to_fixed(12.0, 3), "12.000");
    }

    #[test]
    fn value_has_the_suffix_unless_turned_off() {
        let d = Duration::from_micros(1_500);
        assert_eq!(ResponseTimeOptions::new().value(d), "1.500ms");
        assert_eq!(
            ResponseTimeOptions::new().digits(0).suffix(false).value(d),
            "2"
        );
    }
}
