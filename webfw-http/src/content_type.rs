//! `Content-Type` parsing and formatting as the `content-type` 1.0.5 package does it, plus the
//! two charset rules Express applies on top (`res.send` strings and `res.set('Content-Type')`).
//! [`parse_lenient`] is content-type 2.1's parser, which Express 5 uses and which never fails.
//!
//! ```
//! use webfw_http::content_type::{InvalidMediaType, parse};
//! assert_eq!(parse("text/html; charset").unwrap_err(), InvalidMediaType::ParameterFormat);
//! ```

pub mod v2;

use super::is_js_whitespace;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

/// Why a `Content-Type` value was refused; the texts are the package's `TypeError` messages.
///
/// ```
/// use webfw_http::content_type::{InvalidMediaType, parse};
/// assert_eq!(parse("text/html; charset").unwrap_err(), InvalidMediaType::ParameterFormat);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InvalidMediaType {
    /// The text before the first `;` is not `type/subtype` (`invalid media type`).
    MediaType,
    /// The text after the type is not a sequence of `; name=value` (`invalid parameter format`).
    ParameterFormat,
    /// A parameter value cannot be written even quoted (`invalid parameter value`).
    ParameterValue,
    /// [`ContentType::format`] was given a bad type (`invalid type`).
    Type,
    /// [`ContentType::format`] was given a bad parameter name (`invalid parameter name`).
    ParameterName,
    /// [`parse`] was given an empty string (`argument string is required`).
    ArgumentRequired,
}

impl fmt::Display for InvalidMediaType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            InvalidMediaType::MediaType => "invalid media type",
            InvalidMediaType::ParameterFormat => "invalid parameter format",
            InvalidMediaType::ParameterValue => "invalid parameter value",
            InvalidMediaType::Type => "invalid type",
            InvalidMediaType::ParameterName => "invalid parameter name",
            InvalidMediaType::ArgumentRequired => "argument string is required",
        })
    }
}

impl std::error::Error for InvalidMediaType {}

/// A parsed `Content-Type`: lower-cased `type/subtype` and parameters by lower-cased name.
///
/// Parameters live in a sorted map because the package formats them in sorted order and a
/// repeated name keeps its last value.
///
/// ```
/// let ct = webfw_http::content_type::parse("text/plain; charset=latin1").unwrap();
/// assert_eq!((ct.media_type.as_str(), ct.parameters["charset"].as_str()), ("text/plain", "latin1"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContentType {
    /// `type/subtype`, lower-cased by [`parse`].
    pub media_type: String,
    /// Parameter values (unquoted, unescaped) by lower-cased name.
    pub parameters: BTreeMap<String, String>,
}

impl ContentType {
    /// Serialises as `type; name=value; …` with names sorted and values quoted when they are
    /// not tokens.
    ///
    /// ```
    /// use webfw_http::content_type::parse;
    /// let ct = parse(r#"Text/HTML; Zed=1; alpha="x y""#).unwrap();
    /// assert_eq!(ct.format().unwrap(), r#"text/html; alpha="x y"; zed=1"#);
    /// ```
    pub fn format(&self) -> Result<String, InvalidMediaType> {
        if !is_media_type(&self.media_type) {
            return Err(InvalidMediaType::Type);
        }
        let mut out = String::with_capacity(self.media_type.len() + 16 * self.parameters.len());
        out.push_str(&self.media_type);
        for (name, value) in &self.parameters {
            if !is_token(name) {
                return Err(InvalidMediaType::ParameterName);
            }
            push_param(&mut out, name, value)?;
        }
        Ok(out)
    }
}

/// Parses a `Content-Type` value the way `contentType.parse` does.
///
/// The type is trimmed and lower-cased, parameter names lower-cased, quoted values unquoted
/// and unescaped.
///
/// ```
/// use webfw_http::content_type::parse;
/// let ct = parse("application/JSON; Charset=\"UTF-8\"").unwrap();
/// assert_eq!(ct.media_type, "application/json");
/// assert_eq!(ct.parameters["charset"], "UTF-8");
/// assert_eq!(parse("nope").unwrap_err().to_string(), "invalid media type");
/// ```
pub fn parse(value: &str) -> Result<ContentType, InvalidMediaType> {
    if value.is_empty() {
        return Err(InvalidMediaType::ArgumentRequired);
    }
    let (media_type, params) = split_type(value)?;
    let mut parameters = BTreeMap::new();
    for param in params {
        let (name, value) = param?;
        parameters.insert(name.into_owned(), value.into_owned());
    }
    Ok(ContentType {
        media_type: media_type.to_ascii_lowercase(),
        parameters,
    })
}

/// Express's `setCharset`: parses `content_type`, sets (or replaces) its `charset` parameter and
/// re-serialises it with parameters sorted by name.
///
/// An empty `content_type` or `charset` returns `content_type` unchanged without parsing.
/// The common per-request values (`text/html`, `application/json`,
/// `text/plain; charset=utf-8`) are handled without building a parameter map.
///
/// ```
/// use webfw_http::content_type::set_charset;
/// assert_eq!(set_charset("text/html", "utf-8").unwrap(), "text/html; charset=utf-8");
/// assert_eq!(set_charset(r#"text/html; zed=1; Alpha="x y""#, "utf-8").unwrap(),
///            r#"text/html; alpha="x y"; charset=utf-8; zed=1"#);
/// assert_eq!(set_charset("TEXT", "utf-8").unwrap_err().to_string(), "invalid media type");
/// ```
pub fn set_charset(content_type: &str, charset: &str) -> Result<String, InvalidMediaType> {
    if content_type.is_empty() || charset.is_empty() {
        return Ok(content_type.to_owned());
    }
    let (media_type, params) = split_type(content_type)?;

    // One pass to validate; the map is only needed when parameters other than charset exist.
    let mut only_charset = true;
    for param in params.clone() {
        let (name, _) = param?;
        only_charset &= name == "charset";
    }

    let mut out = String::with_capacity(content_type.len() + charset.len() + 12);
    push_ascii_lowercase(&mut out, media_type);
    if only_charset {
        push_param(&mut out, "charset", charset)?;
        return Ok(out);
    }

    let mut map: BTreeMap<Cow<'_, str>, Cow<'_, str>> = BTreeMap::new();
    for param in params {
        let (name, value) = param?;
        map.insert(name, value);
    }
    map.insert(Cow::Borrowed("charset"), Cow::Borrowed(charset));
    for (name, value) in &map {
        push_param(&mut out, name, value)?;
    }
    Ok(out)
}

/// The rule `res.set('Content-Type', value)` applies: without a `;\s*charset\s*=` in the value,
/// a value starting with `text/`, `application/javascript` or `application/json` (case-sensitive;
/// so `application/json-seq` too) gets `; charset=utf-8` appended.
///
/// ```
/// use webfw_http::content_type::with_default_charset;
/// assert_eq!(with_default_charset("text/plain"), "text/plain; charset=utf-8");
/// assert_eq!(with_default_charset("application/json; charset=latin1"), "application/json; charset=latin1");
/// assert_eq!(with_default_charset("image/png"), "image/png");
/// ```
pub fn with_default_charset(value: &str) -> Cow<'_, str> {
    if has_charset_param(value) {
        return Cow::Borrowed(value);
    }
    // mime 1.6's `charsets.lookup` on `value.split(';')[0]`; the prefixes hold no `;`, so testing
    // the whole value is the same.
    let utf8 = ["text/", "application/javascript", "application/json"]
        .iter()
        .any(|prefix| value.starts_with(prefix));
    if utf8 {
        Cow::Owned(format!("{value}; charset=utf-8"))
    } else {
        Cow::Borrowed(value)
    }
}

/// `/;\s*charset\s*=/` (case-sensitive, JS whitespace).
fn has_charset_param(value: &str) -> bool {
    value.match_indices(';').any(|(i, _)| {
        let rest = value[i + 1..].trim_start_matches(is_js_whitespace);
        rest.strip_prefix("charset")
            .is_some_and(|r| r.trim_start_matches(is_js_whitespace).starts_with('='))
    })
}

type Param<'a> = Result<(Cow<'a, str>, Cow<'a, str>), InvalidMediaType>;

/// Validates the type and returns it (trimmed, original case) with a lazy parameter parser.
fn split_type(value: &str) -> Result<(&str, Params<'_>), InvalidMediaType> {
    let semi = value.find(';');
    let media_type = value[..semi.unwrap_or(value.len())].trim_matches(is_js_whitespace);
    if !is_media_type(media_type) {
        return Err(InvalidMediaType::MediaType);
    }
    let rest = semi.map_or("", |i| &value[i..]);
    Ok((media_type, Params { rest }))
}

/// Parses `; name=value` pieces back to back, as the package's sticky regex loop does:
/// `/; *(token) *= *("quoted"|token) */`, each match starting where the last one ended.
#[derive(Clone)]
struct Params<'a> {
    rest: &'a str,
}

impl<'a> Iterator for Params<'a> {
    type Item = Param<'a>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let parsed = parse_param(self.rest);
        match parsed {
            Some((name, value, rest)) => {
                self.rest = rest;
                Some(Ok((name, value)))
            }
            None => {
                // Stop after the first error.
                self.rest = "";
                Some(Err(InvalidMediaType::ParameterFormat))
            }
        }
    }
}

/// One `; name=value` at the start of `s`; returns the name (lower-cased), the value and the rest.
fn parse_param(s: &str) -> Option<(Cow<'_, str>, Cow<'_, str>, &str)> {
    let s = s.strip_prefix(';')?.trim_start_matches(' ');
    let name_len = s.find(|c: char| !is_token_char(c)).unwrap_or(s.len());
    if name_len == 0 {
        return None;
    }
    let (name, s) = s.split_at(name_len);
    let s = s
        .trim_start_matches(' ')
        .strip_prefix('=')?
        .trim_start_matches(' ');
    let (value, s) = if let Some(quoted) = s.strip_prefix('"') {
        parse_quoted(quoted)?
    } else {
        let len = s.find(|c: char| !is_token_char(c)).unwrap_or(s.len());
        if len == 0 {
            return None;
        }
        let (value, s) = s.split_at(len);
        (Cow::Borrowed(value), s)
    };
    let name = if name.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(name.to_ascii_lowercase())
    } else {
        Cow::Borrowed(name)
    };
    Some((name, value, s.trim_start_matches(' ')))
}

/// The inside of a quoted-string (after the opening quote): qdtext and `\`-escapes up to the
/// closing quote. Returns the unescaped value and the text after the closing quote.
fn parse_quoted(s: &str) -> Option<(Cow<'_, str>, &str)> {
    let mut unescaped: Option<String> = None;
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => {
                let value = unescaped.map_or(Cow::Borrowed(&s[..i]), Cow::Owned);
                return Some((value, &s[i + 1..]));
            }
            '\\' => {
                let (_, escaped) = chars.next()?;
                if !is_quoted_pair_char(escaped) {
                    return None;
                }
                unescaped
                    .get_or_insert_with(|| s[..i].to_owned())
                    .push(escaped);
            }
            c if is_qdtext(c) => {
                if let Some(buf) = unescaped.as_mut() {
                    buf.push(c);
                }
            }
            _ => return None,
        }
    }
    None
}

/// Appends `; name=value`, quoting the value unless it is a token (package `qstring`).
fn push_param(out: &mut String, name: &str, value: &str) -> Result<(), InvalidMediaType> {
    out.push_str("; ");
    out.push_str(name);
    out.push('=');
    if is_token(value) {
        out.push_str(value);
        return Ok(());
    }
    if !value.chars().all(is_text_char) {
        return Err(InvalidMediaType::ParameterValue);
    }
    out.push('"');
    for c in value.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    Ok(())
}

fn push_ascii_lowercase(out: &mut String, s: &str) {
    out.extend(s.chars().map(|c| c.to_ascii_lowercase()));
}

/// `type/subtype`, both tokens.
fn is_media_type(s: &str) -> bool {
    s.split_once('/')
        .is_some_and(|(t, sub)| is_token(t) && is_token(sub))
}

fn is_token(s: &str) -> bool {
    !s.is_empty() && s.chars().all(is_token_char)
}

/// A `tchar`, as a `char`.
fn is_token_char(c: char) -> bool {
    c.is_ascii() && crate::is_tchar(c as u8)
}

/// `[\u000b\u0020\u0021\u0023-\u005b\u005d-\u007e\u0080-\u00ff]`
fn is_qdtext(c: char) -> bool {
    matches!(c, '\u{b}' | ' ' | '!' | '#'..='[' | ']'..='~' | '\u{80}'..='\u{ff}')
}

/// `[\u000b\u0020-\u00ff]` (what may follow a backslash).
fn is_quoted_pair_char(c: char) -> bool {
    matches!(c, '\u{b}' | ' '..='\u{ff}')
}

/// `[\u000b\u0020-\u007e\u0080-\u00ff]` (what `qstring` can quote).
fn is_text_char(c: char) -> bool {
    matches!(c, '\u{b}' | ' '..='~' | '\u{80}'..='\u{ff}')
}

mod lenient;
pub use lenient::{media_type_lenient, parse_lenient, valid_media_type};

#[cfg(test)]
mod tests;
