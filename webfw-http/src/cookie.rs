//! The `Cookie` header parser and `Set-Cookie` serializer of the `cookie`
//! 0.7 package: its validation rules, its error messages and its attribute
//! order (`Max-Age`, `Domain`, `Path`, `Expires`, `HttpOnly`, `Secure`,
//! `Partitioned`, `Priority`, `SameSite`).
//!
//! ```
//! use webfw_http::cookie::{Attributes, parse, serialize};
//! let set = serialize("id", "42", &Attributes { path: Some("/"), ..Default::default() }).unwrap();
//! assert_eq!(set, "id=42; Path=/");
//! assert_eq!(parse("id=42"), [("id".to_owned(), "42".to_owned())]);
//! ```

use std::fmt;
use std::str::FromStr;

/// Why a cookie could not be serialized; the texts are the package's
/// `TypeError` messages.
///
/// ```
/// use webfw_http::cookie::{Attributes, CookieError, serialize};
/// let err = serialize("bad name", "v", &Attributes::default()).unwrap_err();
/// assert_eq!(err, CookieError::Name);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CookieError {
    /// The name is not an RFC 6265 token.
    Name,
    /// The encoded value has a character a cookie value cannot hold.
    Value,
    /// `maxAge` is not a finite number.
    MaxAge,
    /// The domain is not a host name.
    Domain,
    /// The path has a control character or `;`.
    Path,
    /// The expiry date is outside JavaScript's date range.
    Expires,
    /// The priority is not `low`, `medium` or `high`.
    Priority,
    /// `sameSite` is not `strict`, `lax`, `none` or a boolean.
    SameSite,
}

impl fmt::Display for CookieError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CookieError::Name => "argument name is invalid",
            CookieError::Value => "argument val is invalid",
            CookieError::MaxAge => "option maxAge is invalid",
            CookieError::Domain => "option domain is invalid",
            CookieError::Path => "option path is invalid",
            CookieError::Expires => "option expires is invalid",
            CookieError::Priority => "option priority is invalid",
            CookieError::SameSite => "option sameSite is invalid",
        })
    }
}

impl std::error::Error for CookieError {}

/// The `SameSite` attribute (`sameSite: true` is `Strict`).
///
/// ```
/// use webfw_http::cookie::SameSite;
/// assert_eq!("Lax".parse::<SameSite>(), Ok(SameSite::Lax));
/// assert!("sideways".parse::<SameSite>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SameSite {
    /// `SameSite=Strict`.
    Strict,
    /// `SameSite=Lax`.
    Lax,
    /// `SameSite=None` (browsers require `Secure` with it).
    None,
}

impl FromStr for SameSite {
    type Err = CookieError;

    /// Case-insensitive `strict`, `lax` or `none`, as the package accepts.
    ///
    /// ```
    /// use webfw_http::cookie::SameSite;
    /// assert_eq!("Lax".parse::<SameSite>(), Ok(SameSite::Lax));
    /// assert!("sideways".parse::<SameSite>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<SameSite, CookieError> {
        match s.to_lowercase().as_str() {
            "strict" => Ok(SameSite::Strict),
            "lax" => Ok(SameSite::Lax),
            "none" => Ok(SameSite::None),
            _ => Err(CookieError::SameSite),
        }
    }
}

/// The `Priority` attribute (a Chrome extension).
///
/// ```
/// use webfw_http::cookie::{Attributes, Priority, serialize};
/// let attrs = Attributes { priority: Some(Priority::High), ..Default::default() };
/// assert_eq!(serialize("a", "b", &attrs).unwrap(), "a=b; Priority=High");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    /// `Priority=Low`.
    Low,
    /// `Priority=Medium`.
    Medium,
    /// `Priority=High`.
    High,
}

impl FromStr for Priority {
    type Err = CookieError;

    /// Case-insensitive `low`, `medium` or `high`.
    ///
    /// ```
    /// use webfw_http::cookie::Priority;
    /// assert_eq!("HIGH".parse::<Priority>(), Ok(Priority::High));
    /// assert!("urgent".parse::<Priority>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Priority, CookieError> {
        match s.to_lowercase().as_str() {
            "low" => Ok(Priority::Low),
            "medium" => Ok(Priority::Medium),
            "high" => Ok(Priority::High),
            _ => Err(CookieError::Priority),
        }
    }
}

/// The attributes [`serialize`] writes, as the package takes them.
///
/// ```
/// use webfw_http::cookie::{Attributes, serialize};
/// let attrs = Attributes { max_age: Some(60.0), secure: true, ..Default::default() };
/// assert_eq!(serialize("a", "b", &attrs).unwrap(), "a=b; Max-Age=60; Secure");
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Attributes<'a> {
    /// `Max-Age`, in seconds (floored; must be finite).
    pub max_age: Option<f64>,
    /// `Domain` (left out when empty).
    pub domain: Option<&'a str>,
    /// `Path` (left out when empty).
    pub path: Option<&'a str>,
    /// `Expires`, in milliseconds since the Unix epoch.
    pub expires: Option<f64>,
    /// `HttpOnly`.
    pub http_only: bool,
    /// `Secure`.
    pub secure: bool,
    /// `Partitioned`.
    pub partitioned: bool,
    /// `Priority`.
    pub priority: Option<Priority>,
    /// `SameSite`.
    pub same_site: Option<SameSite>,
}

/// `cookie-octet`s, optionally inside one pair of double quotes.
fn is_valid_value(v: &str) -> bool {
    let b = v.as_bytes();
    let inner = if b.len() >= 2 && b[0] == b'"' && b[b.len() - 1] == b'"' {
        &b[1..b.len() - 1]
    } else {
        b
    };
    inner
        .iter()
        .all(|&c| matches!(c, 0x21 | 0x23..=0x2b | 0x2d..=0x3a | 0x3c..=0x5b | 0x5d..=0x7e))
}

/// Labels of letters, digits and inner hyphens (up to 63 characters), joined
/// by dots, with an optional leading dot.
fn is_valid_domain(d: &str) -> bool {
    let d = d.strip_prefix('.').unwrap_or(d);
    !d.is_empty()
        && d.split('.').all(|label| {
            let b = label.as_bytes();
            (1..=63).contains(&b.len())
                && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
                && b[0] != b'-'
                && b[b.len() - 1] != b'-'
        })
}

fn is_valid_path(p: &str) -> bool {
    p.bytes().all(|c| (0x20..=0x7e).contains(&c) && c != b';')
}

/// JavaScript's `encodeURIComponent`: everything but letters, digits and
/// `-_.!~*'()` as `%XX` of its UTF-8 bytes.
///
/// ```
/// use webfw_http::cookie::encode_uri_component;
/// assert_eq!(encode_uri_component("a b;c=d,\u{e9}"), "a%20b%3Bc%3Dd%2C%C3%A9");
/// ```
pub fn encode_uri_component(s: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        }
    }
    out
}

pub use crate::date::utc_string;

/// `serialize(name, value, options)`: the `Set-Cookie` value for a value
/// already encoded (`encodeURIComponent` is the default encoding, see
/// [`encode_uri_component`]). The value is checked after encoding.
///
/// ```
/// use webfw_http::cookie::{Attributes, SameSite, serialize};
/// let attrs = Attributes { path: Some("/"), http_only: true, same_site: Some(SameSite::Lax), ..Default::default() };
/// assert_eq!(serialize("id", "42", &attrs).unwrap(), "id=42; Path=/; HttpOnly; SameSite=Lax");
/// assert!(serialize("bad name", "v", &attrs).is_err());
/// ```
pub fn serialize(name: &str, encoded: &str, attrs: &Attributes<'_>) -> Result<String, CookieError> {
    if name.is_empty() || !name.bytes().all(crate::is_tchar) {
        return Err(CookieError::Name);
    }
    if !is_valid_value(encoded) {
        return Err(CookieError::Value);
    }
    let mut out = format!("{name}={encoded}");
    if let Some(max_age) = attrs.max_age {
        let max_age = max_age.floor();
        if !max_age.is_finite() {
            return Err(CookieError::MaxAge);
        }
        out.push_str(&format!("; Max-Age={}", max_age as i64));
    }
    if let Some(domain) = attrs.domain.filter(|d| !d.is_empty()) {
        if !is_valid_domain(domain) {
            return Err(CookieError::Domain);
        }
        out.push_str("; Domain=");
        out.push_str(domain);
    }
    if let Some(path) = attrs.path.filter(|p| !p.is_empty()) {
        if !is_valid_path(path) {
            return Err(CookieError::Path);
        }
        out.push_str("; Path=");
        out.push_str(path);
    }
    if let Some(ms) = attrs.expires {
        out.push_str("; Expires=");
        out.push_str(&utc_string(ms).ok_or(CookieError::Expires)?);
    }
    if attrs.http_only {
        out.push_str("; HttpOnly");
    }
    if attrs.secure {
        out.push_str("; Secure");
    }
    if attrs.partitioned {
        out.push_str("; Partitioned");
    }
    match attrs.priority {
        Some(Priority::Low) => out.push_str("; Priority=Low"),
        Some(Priority::Medium) => out.push_str("; Priority=Medium"),
        Some(Priority::High) => out.push_str("; Priority=High"),
        None => {}
    }
    match attrs.same_site {
        Some(SameSite::Strict) => out.push_str("; SameSite=Strict"),
        Some(SameSite::Lax) => out.push_str("; SameSite=Lax"),
        Some(SameSite::None) => out.push_str("; SameSite=None"),
        None => {}
    }
    Ok(out)
}

/// `parse(header)`: the name/value pairs of a `Cookie` header, in order, the
/// first of a repeated name winning. Values lose one pair of surrounding
/// double quotes and are percent-decoded when that succeeds (kept as sent
/// otherwise); spaces and tabs around names and values are dropped; pieces
/// without `=` are skipped. `header` is the header as Node reads it (one
/// character per byte, see [`latin1`]).
///
/// ```
/// use webfw_http::cookie::parse;
/// assert_eq!(
///     parse("a=1; b=caf%C3%A9; a=2; junk; q=\"x\""),
///     [("a".to_owned(), "1".to_owned()), ("b".to_owned(), "café".to_owned()), ("q".to_owned(), "x".to_owned())]
/// );
/// ```
pub fn parse(header: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    // A 16 KiB header holds thousands of pairs: repeated names are found
    // by hash, not by a scan of those seen.
    let mut seen = std::collections::HashSet::new();
    if header.len() < 2 {
        return out;
    }
    let s = header;
    let trim = |t: &str| t.trim_matches([' ', '\t']).to_owned();
    let mut index = 0;
    while index < s.len() {
        let Some(eq) = s[index..].find('=').map(|i| index + i) else {
            break;
        };
        let end = s[index..].find(';').map_or(s.len(), |i| index + i);
        if eq > end {
            // This piece has no `=`: go on after the `;` before the `=`.
            index = s[..eq].rfind(';').map_or(0, |i| i + 1);
            continue;
        }
        let key = trim(&s[index..eq]);
        if key != "__proto__" && seen.insert(key.clone()) {
            let raw = s[eq + 1..end].trim_matches([' ', '\t']);
            let raw = if raw == "\"" {
                // One quote is both the opening and the closing one.
                ""
            } else if raw.len() >= 2 && raw.starts_with('"') && raw.ends_with('"') {
                &raw[1..raw.len() - 1]
            } else {
                raw
            };
            let value = super::qs::decode_uri_component(raw).unwrap_or_else(|| raw.to_owned());
            out.push((key, value));
        }
        index = end + 1;
    }
    out
}

/// A header value as Node reads it: each byte one character (Latin-1).
///
/// ```
/// assert_eq!(webfw_http::cookie::latin1(b"caf\xe9"), "café");
/// ```
pub fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

#[cfg(test)]
mod tests;
