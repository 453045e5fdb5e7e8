//! HTTP status texts from the `statuses` 2.0.2 table (same table Node uses for the status line).
//!
//! ```
//! use webfw_http::status::status_text;
//! assert_eq!(status_text(404), Some("Not Found"));
//! assert_eq!(status_text(418), Some("I'm a Teapot"));
//! assert_eq!(status_text(299), None);
//! ```

/// Returns the status text `statuses` 2.0.2 knows for `code`, or `None` for codes outside its table.
///
/// Express prints `undefined` where this is `None` (e.g. the body of a redirect with status 999).
///
/// ```
/// use webfw_http::status::status_text;
/// assert_eq!(status_text(404), Some("Not Found"));
/// assert_eq!(status_text(418), Some("I'm a Teapot"));
/// assert_eq!(status_text(299), None);
/// ```
pub fn status_text(code: u16) -> Option<&'static str> {
    let text = match code {
        100 => "Continue",
        101 => "Switching Protocols",
        102 => "Processing",
        103 => "Early Hints",
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        203 => "Non-Authoritative Information",
        204 => "No Content",
        205 => "Reset Content",
        206 => "Partial Content",
        207 => "Multi-Status",
        208 => "Already Reported",
        226 => "IM Used",
        300 => "Multiple Choices",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        304 => "Not Modified",
        305 => "Use Proxy",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        402 => "Payment Required",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        407 => "Proxy Authentication Required",
        408 => "Request Timeout",
        409 => "Conflict",
        410 => "Gone",
        411 => "Length Required",
        412 => "Precondition Failed",
        413 => "Payload Too Large",
        414 => "URI Too Long",
        415 => "Unsupported Media Type",
        416 => "Range Not Satisfiable",
        417 => "Expectation Failed",
        418 => "I'm a Teapot",
        421 => "Misdirected Request",
        422 => "Unprocessable Entity",
        423 => "Locked",
        424 => "Failed Dependency",
        425 => "Too Early",
        426 => "Upgrade Required",
        428 => "Precondition Required",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        451 => "Unavailable For Legal Reasons",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        505 => "HTTP Version Not Supported",
        506 => "Variant Also Negotiates",
        507 => "Insufficient Storage",
        508 => "Loop Detected",
        509 => "Bandwidth Limit Exceeded",
        510 => "Not Extended",
        511 => "Network Authentication Required",
        _ => return None,
    };
    Some(text)
}

/// Returns the reason phrase Node writes on the status line: the table text, or `unknown`.
///
/// ```
/// use webfw_http::status::reason_phrase;
/// assert_eq!(reason_phrase(200), "OK");
/// assert_eq!(reason_phrase(299), "unknown");
/// ```
pub fn reason_phrase(code: u16) -> &'static str {
    status_text(code).unwrap_or("unknown")
}

/// The class name `http-errors` gives `createError(status)`: the status text
/// as an identifier, ending in `Error` (`NotFoundError`, `ImATeapotError`,
/// `InternalServerError`); a 4xx or 5xx code without a text takes its class's
/// (`BadRequestError`, `InternalServerError`); other codes make a plain `Error`.
#[doc(hidden)]
pub fn http_error_name(code: u16) -> std::borrow::Cow<'static, str> {
    let text = match (code, status_text(code)) {
        (400..=599, Some(text)) => text,
        (400..=499, None) => "Bad Request",
        (500..=599, None) => "Internal Server Error",
        _ => return std::borrow::Cow::Borrowed("Error"),
    };
    // toidentifier: each space-separated word capitalised, then only
    // letters, digits and `_` kept.
    let mut name: String = text
        .split(' ')
        .flat_map(|word| {
            let mut chars = word.chars();
            let first = chars.next().map(|c| c.to_ascii_uppercase());
            first.into_iter().chain(chars)
        })
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if !name.ends_with("Error") {
        name.push_str("Error");
    }
    std::borrow::Cow::Owned(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference table (§1.4), in order.
    const TABLE: &[(u16, &str)] = &[
        (100, "Continue"),
        (101, "Switching Protocols"),
        (102, "Processing"),
        (103, "Early Hints"),
        (200, "OK"),
        (201, "Created"),
        (202, "Accepted"),
        (203, "Non-Authoritative Information"),
        (204, "No Content"),
        (205, "Reset Content"),
        (206, "Partial Content"),
        (207, "Multi-Status"),
        (208, "Already Reported"),
        (226, "IM Used"),
        (300, "Multiple Choices"),
        (301, "Moved Permanently"),
        (302, "Found"),
        (303, "See Other"),
        (304, "Not Modified"),
        (305, "Use Proxy"),
        (307, "Temporary Redirect"),
        (308, "Permanent Redirect"),
        (400, "Bad Request"),
        (401, "Unauthorized"),
        (402, "Payment Required"),
        (403, "Forbidden"),
        (404, "Not Found"),
        (405, "Method Not Allowed"),
        (406, "Not Acceptable"),
        (407, "Proxy Authentication Required"),
        (408, "Request Timeout"),
        (409, "Conflict"),
        (410, "Gone"),
        (411, "Length Required"),
        (412, "Precondition Failed"),
        (413, "Payload Too Large"),
        (414, "URI Too Long"),
        (415, "Unsupported Media Type"),
        (416, "Range Not Satisfiable"),
        (417, "Expectation Failed"),
        (418, "I'm a Teapot"),
        (421, "Misdirected Request"),
        (422, "Unprocessable Entity"),
        (423, "Locked"),
        (424, "Failed Dependency"),
        (425, "Too Early"),
        (426, "Upgrade Required"),
        (428, "Precondition Required"),
        (429, "Too Many Requests"),
        (431, "Request Header Fields Too Large"),
        (451, "Unavailable For Legal Reasons"),
        (500, "Internal Server Error"),
        (501, "Not Implemented"),
        (502, "Bad Gateway"),
        (503, "Service Unavailable"),
        (504, "Gateway Timeout"),
        (505, "HTTP Version Not Supported"),
        (506, "Variant Also Negotiates"),
        (507, "Insufficient Storage"),
        (508, "Loop Detected"),
        (509, "Bandwidth Limit Exceeded"),
        (510, "Not Extended"),
        (511, "Network Authentication Required"),
    ];

    #[test]
    fn every_reference_code_has_its_exact_text() {
        for &(code, text) in TABLE {
            assert_eq!(status_text(code), Some(text), "{code}");
            assert_eq!(reason_phrase(code), text, "{code}");
        }
    }

    #[test]
    fn table_has_exactly_the_reference_codes() {
        let known = (0..=u16::MAX).filter(|&c| status_text(c).is_some()).count();
        assert_eq!(known, TABLE.len());
        assert_eq!(TABLE.len(), 63);
    }

    #[test]
    fn teapot_uses_statuses_capitalisation() {
        assert_eq!(status_text(418), Some("I'm a Teapot"));
    }

    #[test]
    fn unlisted_codes_have_no_text_and_reason_unknown() {
        for code in [
            0,
            99,
            199,
            299,
            306,
            420,
            427,
            430,
            499,
            512,
            599,
            999,
            u16::MAX,
        ] {
            assert_eq!(status_text(code), None, "{code}");
            assert_eq!(reason_phrase(code), "unknown", "{code}");
        }
    }

    #[test]
    fn http_errors_class_names() {
        // Node: Object.keys(require('http-errors')) and createError(code).name
        for (code, name) in [
            (400, "BadRequestError"),
            (403, "ForbiddenError"),
            (404, "NotFoundError"),
            (418, "ImATeapotError"),
            (431, "RequestHeaderFieldsTooLargeError"),
            (499, "BadRequestError"),
            (500, "InternalServerError"),
            (505, "HTTPVersionNotSupportedError"),
            (599, "InternalServerError"),
            (302, "Error"),
        ] {
            assert_eq!(http_error_name(code), name, "{code}");
        }
    }
}
