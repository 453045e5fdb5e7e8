//! content-type 2 (Express 5): a lenient parse that never throws, and a
//! format that keeps the parameters in the order they came.

/// A parsed media type: the type in lower case, the parameters with
/// lower-case names in order (the first of a repeated name wins).
///
/// ```
/// use webfw_http::content_type::v2::parse;
/// let ct = parse("Application/JSON;;charset=UTF-8; a=\"x\\\"y\"");
/// assert_eq!(ct.media_type, "application/json");
/// assert_eq!(ct.parameter("charset"), Some("UTF-8"));
/// assert_eq!(ct.parameter("a"), Some("x\"y"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContentType {
    /// The type and subtype, lower-cased, as given (not validated).
    pub media_type: String,
    /// `(name, value)` in the order they came; names lower-cased.
    pub parameters: Vec<(String, String)>,
}

impl ContentType {
    /// The value of a parameter (`name` in lower case).
    ///
    /// ```
    /// use webfw_http::content_type::v2::parse;
    /// assert_eq!(parse("text/plain; charset=utf-8").parameter("charset"), Some("utf-8"));
    /// ```
    pub fn parameter(&self, name: &str) -> Option<&str> {
        self.parameters
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a parameter in place, or appends it.
    ///
    /// ```
    /// use webfw_http::content_type::v2::parse;
    /// let mut ct = parse("text/plain; format=flowed");
    /// ct.set_parameter("charset", "utf-8");
    /// assert_eq!(ct.parameters.last().unwrap().0, "charset");
    /// ```
    pub fn set_parameter(&mut self, name: &str, value: &str) {
        match self.parameters.iter_mut().find(|(k, _)| k == name) {
            Some(slot) => slot.1 = value.to_owned(),
            None => self.parameters.push((name.to_owned(), value.to_owned())),
        }
    }
}

/// `contentType.parse(header)`: skips empty parameters and parameters
/// without `=`; a quoted value ends at its closing quote, `\` escaping the
/// next character.
///
/// ```
/// use webfw_http::content_type::v2::parse;
/// assert_eq!(parse(" text/HTML ").media_type, "text/html");
/// assert!(parse("text/plain; junk").parameters.is_empty());
/// ```
pub fn parse(header: &str) -> ContentType {
    let b = header.as_bytes();
    let len = b.len();
    let mut i = skip_ows(b, 0);
    let start = i;
    while i < len && b[i] != b';' {
        i += 1;
    }
    // JavaScript's `toLowerCase`: non-ASCII letters too (`É` of a latin1 header).
    let media_type = header[start..trailing_ows(b, start, i)].to_lowercase();
    let mut parameters: Vec<(String, String)> = Vec::new();
    let mut push = |k: String, v: String| {
        if !parameters.iter().any(|(n, _)| *n == k) {
            parameters.push((k, v));
        }
    };
    'param: while i < len {
        i = skip_ows(b, i + 1);
        let key_start = i;
        while i < len {
            match b[i] {
                b';' => continue 'param,
                b'=' => {
                    let key = header[key_start..trailing_ows(b, key_start, i)].to_lowercase();
                    i = skip_ows(b, i + 1);
                    if i < len && b[i] == b'"' {
                        i += 1;
                        let mut value = String::new();
                        let mut from = i;
                        while i < len {
                            match b[i] {
                                b'"' => {
                                    value.push_str(&header[from..i]);
                                    i += 1;
                                    while i < len && b[i] != b';' {
                                        i += 1;
                                    }
                                    push(key, value);
                                    continue 'param;
                                }
                                b'\\' if i + 1 < len => {
                                    value.push_str(&header[from..i]);
                                    let c = header[i + 1..].chars().next().unwrap_or('\\');
                                    value.push(c);
                                    i += 1 + c.len_utf8();
                                    from = i;
                                }
                                _ => i += 1,
                            }
                        }
                        // Unterminated: the value is lost, as the package
                        // stores it only at the closing quote.
                        continue 'param;
                    }
                    let value_start = i;
                    while i < len && b[i] != b';' {
                        i += 1;
                    }
                    let value = header[value_start..trailing_ows(b, value_start, i)].to_owned();
                    push(key, value);
                    continue 'param;
                }
                _ => i += 1,
            }
        }
    }
    ContentType {
        media_type,
        parameters,
    }
}

/// Why [`format()`] refused a media type.
///
/// ```
/// use webfw_http::content_type::v2::{format, ContentType};
/// let err = format(&ContentType { media_type: "text".into(), parameters: vec![] }).unwrap_err();
/// assert_eq!(err.to_string(), "Invalid type: text");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError(String);

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FormatError {}

/// `contentType.format(obj)`: the type, then `; name=value` for each
/// parameter in order, a value bare when it is a token, else quoted.
///
/// ```
/// use webfw_http::content_type::v2::{format, parse};
/// let mut ct = parse("text/plain; format=flowed");
/// ct.set_parameter("charset", "utf-8");
/// assert_eq!(format(&ct).unwrap(), "text/plain; format=flowed; charset=utf-8");
/// ```
pub fn format(ct: &ContentType) -> Result<String, FormatError> {
    let valid_type = ct
        .media_type
        .split_once('/')
        .is_some_and(|(a, b)| is_token(a) && is_token(b));
    if !valid_type {
        return Err(FormatError(format!("Invalid type: {}", ct.media_type)));
    }
    let mut out = ct.media_type.clone();
    for (name, value) in &ct.parameters {
        if !is_token(name) {
            return Err(FormatError(format!("Invalid parameter name: {name}")));
        }
        out.push_str("; ");
        out.push_str(name);
        out.push('=');
        if is_token(value) {
            out.push_str(value);
        } else if value
            .chars()
            .all(|c| c == '\t' || (' '..='~').contains(&c) || ('\u{80}'..='\u{ff}').contains(&c))
        {
            out.push('"');
            for c in value.chars() {
                if c == '"' || c == '\\' {
                    out.push('\\');
                }
                out.push(c);
            }
            out.push('"');
        } else {
            return Err(FormatError(format!("Invalid parameter value: {value}")));
        }
    }
    Ok(out)
}

/// Express 5's `setCharset(type, charset)`: parse, set `charset`, format.
///
/// ```
/// use webfw_http::content_type::v2::set_charset;
/// assert_eq!(
///     set_charset("text/plain; format=flowed", "utf-8").unwrap(),
///     "text/plain; format=flowed; charset=utf-8"
/// );
/// assert_eq!(set_charset("Text/HTML; Charset=latin1", "utf-8").unwrap(), "text/html; charset=utf-8");
/// ```
pub fn set_charset(value: &str, charset: &str) -> Result<String, FormatError> {
    let mut ct = parse(value);
    ct.set_parameter("charset", charset);
    format(&ct)
}

fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+.^_`|~-".contains(&b))
}

fn skip_ows(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
        i += 1;
    }
    i
}

fn trailing_ows(b: &[u8], start: usize, mut end: usize) -> usize {
    while end > start && (b[end - 1] == b' ' || b[end - 1] == b'\t') {
        end -= 1;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::{format, parse};

    /// Input, type, parameters, and the format with `charset=utf-8`.
    type Case = (
        &'static str,
        &'static str,
        &'static [(&'static str, &'static str)],
        &'static str,
    );

    /// Parsed and re-formatted with `charset=utf-8` by content-type 2.1.0
    /// itself (Node 20).
    #[test]
    fn agrees_with_content_type_2() {
        let cases: &[Case] = &[
            (
                "application/json;;charset=utf-8",
                "application/json",
                &[("charset", "utf-8")],
                "application/json; charset=utf-8",
            ),
            (
                "text/plain; format=flowed",
                "text/plain",
                &[("format", "flowed")],
                "text/plain; format=flowed; charset=utf-8",
            ),
            (
                "TEXT/Plain ; A=1; a=2; b=\"q\\\\\"x\"",
                "text/plain",
                &[("a", "1"), ("b", "q\\")],
                "text/plain; a=1; b=\"q\\\\\"; charset=utf-8",
            ),
            (
                "text/html; charset",
                "text/html",
                &[],
                "text/html; charset=utf-8",
            ),
            (
                "text/html; charset=\"unterminated",
                "text/html",
                &[],
                "text/html; charset=utf-8",
            ),
            (
                "a/b; x = y ; z=\"w;v\"",
                "a/b",
                &[("x", "y"), ("z", "w;v")],
                "a/b; x=y; z=\"w;v\"; charset=utf-8",
            ),
            (" ;x=1", "", &[("x", "1")], "Invalid type: "),
            (
                "text/plain; c=\"é\"",
                "text/plain",
                &[("c", "é")],
                "text/plain; c=\"é\"; charset=utf-8",
            ),
        ];
        for &(input, media_type, params, formatted) in cases {
            let mut ct = parse(input);
            assert_eq!(ct.media_type, media_type, "{input}");
            let got: Vec<(&str, &str)> = ct
                .parameters
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            assert_eq!(got, params, "{input}");
            ct.set_parameter("charset", "utf-8");
            let out = format(&ct).unwrap_or_else(|e| e.to_string());
            assert_eq!(out, formatted, "{input}");
        }
    }
}
