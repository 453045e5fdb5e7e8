//! The final handler (Express's `finalhandler`): the 404 page when nothing
//! answered, and the error page for an unhandled error.

use http::HeaderValue;
use http::header::{
    CONTENT_ENCODING, CONTENT_LANGUAGE, CONTENT_LENGTH, CONTENT_RANGE, CONTENT_TYPE,
};

use crate::error::Error;
use crate::http::{encodeurl::encode_url, escape_html::escape_html, status::status_text};
use crate::request::{Request, pathname};
use crate::response::Response;

/// The HTML page Express's finalhandler and `send` use for errors.
pub(crate) fn error_page(message: &str) -> String {
    let escaped = escape_html(message).replace('\n', "<br>");
    // finalhandler turns each pair of spaces into " &nbsp;", left to right.
    let body = escaped.replace("  ", " &nbsp;");
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Error</title>\n</head>\n<body>\n<pre>{body}</pre>\n</body>\n</html>\n"
    )
}

/// Answers a request that no handler finished: 404 without an error, else
/// the error's status page. `env` decides whether details are shown.
pub(crate) fn respond(req: &Request, res: &mut Response, err: Option<Error>, env: &str) {
    if res.headers_sent() {
        // Too late for a page: end what was started (Node would destroy the socket).
        if let Some(e) = &err {
            log_error(res, e, env);
        }
        if !res.finished() {
            let _ = res.end();
        }
        return;
    }
    let (status, message, err_headers) = match &err {
        None => {
            let path = pathname(req.original_url());
            (
                404,
                format!("Cannot {} {}", req.method(), encode_url(path)),
                Vec::new(),
            )
        }
        Some(e) => {
            log_error(res, e, env);
            let (status, from_err) = match e.error_status() {
                Some(s) => (s, true),
                None => match res.status_code() {
                    s @ 400..=599 => (s, false),
                    _ => (500, false),
                },
            };
            let message = if env == "production" {
                status_text(status).unwrap_or("undefined").to_owned()
            } else {
                e.stack()
            };
            let headers = if from_err {
                e.headers().to_vec()
            } else {
                Vec::new()
            };
            (status, message, headers)
        }
    };
    let body = error_page(&message);
    res.status(status);
    let h = res.headers_mut();
    h.remove(CONTENT_ENCODING);
    h.remove(CONTENT_LANGUAGE);
    h.remove(CONTENT_RANGE);
    for (name, value) in err_headers {
        h.insert(name, value);
    }
    set_page_headers(h, body.len());
    let _ = if *req.method() == http::Method::HEAD {
        res.end()
    } else {
        res.end_with(body)
    };
}

/// finalhandler's `onerror`: the stack on standard error, except under
/// `test`; an event in the request's span instead when a `tracing`
/// subscriber listens. finalhandler defers it to the next tick, so the
/// access-log line of an error page (finished at once) comes first; here it
/// waits for the response to finish, after the logger's own hook.
fn log_error(res: &mut Response, err: &Error, env: &str) {
    if env == "test" {
        return;
    }
    let err = err.clone();
    res.on_finish(move |req, _res| {
        #[cfg(feature = "tracing")]
        if crate::trace::unhandled_in(req, &err) {
            return;
        }
        #[cfg(not(feature = "tracing"))]
        let _ = req;
        eprintln!("{}", err.stack());
    });
}

/// An error no handler can answer any more (a failed head gate, a tower
/// layer's failure): an event when a `tracing` subscriber listens, else
/// its stack on standard error.
pub(crate) fn report_unhandled(err: &Error) {
    #[cfg(feature = "tracing")]
    if crate::trace::unhandled(err) {
        return;
    }
    eprintln!("{}", err.stack());
}

/// The response for a request whose chain panicked before sending anything.
pub(crate) fn panic_response() -> (u16, http::HeaderMap, bytes::Bytes) {
    let body = error_page("Internal Server Error");
    let mut h = http::HeaderMap::new();
    set_page_headers(&mut h, body.len());
    (500, h, bytes::Bytes::from(body))
}

/// The headers finalhandler sets on its pages.
fn set_page_headers(h: &mut http::HeaderMap, len: usize) {
    h.insert(
        "content-security-policy",
        HeaderValue::from_static("default-src 'none'"),
    );
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(CONTENT_LENGTH, HeaderValue::from(len));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_length_is_127_plus_body() {
        assert_eq!(error_page("Cannot GET /num/ab").len(), 145);
    }

    #[test]
    fn stack_lines_become_breaks_and_nbsp() {
        let page = error_page("Error: x\n    at foo");
        assert!(page.contains("<pre>Error: x<br> &nbsp; &nbsp;at foo</pre>"));
    }
}
