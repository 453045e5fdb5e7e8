//! `Content-Security-Policy`: helmet's directives, their checks and their
//! serialisation.

use std::sync::Arc;

use crate::request::Request;
use crate::response::Response;

type SourceFn = dyn Fn(&Request, &Response) -> String + Send + Sync;

/// One source of a directive: text, or a function computing it per request
/// (a nonce, say).
///
/// ```
/// use webfw::helmet::Source;
/// let fixed = Source::from("'self'");
/// let nonce = Source::function(|_req, res| format!("'nonce-{}'", res.locals()["nonce"].as_str().unwrap_or("")));
/// ```
#[derive(Clone)]
pub enum Source {
    /// A fixed source.
    Text(String),
    /// A source computed for each request.
    Function(Arc<SourceFn>),
}

impl Source {
    /// A source computed for each request from the request and the
    /// response.
    ///
    /// ```
    /// let _ = webfw::helmet::Source::function(|req, _res| format!("https://{}", req.hostname().unwrap_or("")));
    /// ```
    pub fn function<F>(f: F) -> Source
    where
        F: Fn(&Request, &Response) -> String + Send + Sync + 'static,
    {
        Source::Function(Arc::new(f))
    }
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Text(t) => write!(f, "{t:?}"),
            Source::Function(_) => f.write_str("<function>"),
        }
    }
}

impl From<&str> for Source {
    fn from(s: &str) -> Source {
        Source::Text(s.to_owned())
    }
}

impl From<String> for Source {
    fn from(s: String) -> Source {
        Source::Text(s)
    }
}

/// The value of one directive: one source or a list (possibly empty, for
/// a directive without value such as `upgrade-insecure-requests`).
///
/// ```
/// use webfw::helmet::Sources;
/// let _: Sources = "'self'".into();
/// let _: Sources = ["'self'", "cdn.example"].into();
/// let none: [&str; 0] = [];
/// let _: Sources = none.into();
/// ```
#[derive(Clone, Debug)]
pub struct Sources(Vec<Source>);

impl From<&str> for Sources {
    fn from(s: &str) -> Sources {
        Sources(vec![s.into()])
    }
}

impl From<String> for Sources {
    fn from(s: String) -> Sources {
        Sources(vec![s.into()])
    }
}

impl From<Source> for Sources {
    fn from(s: Source) -> Sources {
        Sources(vec![s])
    }
}

impl<S: Into<Source>> From<Vec<S>> for Sources {
    fn from(v: Vec<S>) -> Sources {
        Sources(v.into_iter().map(Into::into).collect())
    }
}

impl<S: Into<Source>, const N: usize> From<[S; N]> for Sources {
    fn from(v: [S; N]) -> Sources {
        Sources(v.into_iter().map(Into::into).collect())
    }
}

#[derive(Clone, Debug)]
enum Given {
    Sources(Sources),
    /// `null`: leave a default directive out.
    Off,
    /// `dangerouslyDisableDefaultSrc`.
    NoDefaultSrc,
}

/// helmet's `contentSecurityPolicy` options: helmet's default directives
/// (unless [`use_defaults(false)`](ContentSecurityPolicy::use_defaults))
/// with yours set over them, in camelCase (`scriptSrc`) or dashed
/// (`script-src`).
///
/// ```
/// use webfw::helmet::ContentSecurityPolicy;
/// let csp = ContentSecurityPolicy::new()
///     .directive("defaultSrc", ["'self'"])
///     .directive("script-src", ["'self'", "cdn.example"])
///     .directive_off("upgradeInsecureRequests");
/// ```
#[derive(Clone, Debug)]
pub struct ContentSecurityPolicy {
    use_defaults: bool,
    report_only: bool,
    directives: Vec<(String, Given)>,
}

impl Default for ContentSecurityPolicy {
    fn default() -> ContentSecurityPolicy {
        ContentSecurityPolicy {
            use_defaults: true,
            report_only: false,
            directives: Vec::new(),
        }
    }
}

/// helmet's `getDefaultDirectives()`.
const DEFAULTS: [(&str, &[&str]); 11] = [
    ("default-src", &["'self'"]),
    ("base-uri", &["'self'"]),
    ("font-src", &["'self'", "https:", "data:"]),
    ("form-action", &["'self'"]),
    ("frame-ancestors", &["'self'"]),
    ("img-src", &["'self'", "data:"]),
    ("object-src", &["'none'"]),
    ("script-src", &["'self'"]),
    ("script-src-attr", &["'none'"]),
    ("style-src", &["'self'", "https:", "'unsafe-inline'"]),
    ("upgrade-insecure-requests", &[]),
];

/// Keywords that only mean something quoted.
const SHOULD_BE_QUOTED: [&str; 9] = [
    "none",
    "self",
    "strict-dynamic",
    "report-sample",
    "inline-speculation-rules",
    "unsafe-inline",
    "unsafe-eval",
    "unsafe-hashes",
    "wasm-unsafe-eval",
];

impl ContentSecurityPolicy {
    /// helmet's defaults.
    ///
    /// ```
    /// let csp = webfw::helmet::ContentSecurityPolicy::new();
    /// ```
    pub fn new() -> ContentSecurityPolicy {
        ContentSecurityPolicy::default()
    }

    /// `useDefaults`: start from helmet's directives (the default) or
    /// from none.
    ///
    /// ```
    /// let csp = webfw::helmet::ContentSecurityPolicy::new()
    ///     .use_defaults(false)
    ///     .directive("default-src", "'self'");
    /// ```
    pub fn use_defaults(mut self, on: bool) -> Self {
        self.use_defaults = on;
        self
    }

    /// `reportOnly`: send `Content-Security-Policy-Report-Only` instead.
    ///
    /// ```
    /// let csp = webfw::helmet::ContentSecurityPolicy::new().report_only(true);
    /// ```
    pub fn report_only(mut self, on: bool) -> Self {
        self.report_only = on;
        self
    }

    /// Sets a directive (replacing a default of the same name in place).
    ///
    /// ```
    /// let csp = webfw::helmet::ContentSecurityPolicy::new().directive("imgSrc", ["'self'", "img.example"]);
    /// ```
    pub fn directive(mut self, name: &str, sources: impl Into<Sources>) -> Self {
        self.directives
            .push((name.to_owned(), Given::Sources(sources.into())));
        self
    }

    /// Leaves out a default directive (helmet's `null` value).
    ///
    /// ```
    /// let csp = webfw::helmet::ContentSecurityPolicy::new().directive_off("upgrade-insecure-requests");
    /// ```
    pub fn directive_off(mut self, name: &str) -> Self {
        self.directives.push((name.to_owned(), Given::Off));
        self
    }

    /// Leaves out `default-src` (helmet's
    /// `contentSecurityPolicy.dangerouslyDisableDefaultSrc`).
    ///
    /// ```
    /// let csp = webfw::helmet::ContentSecurityPolicy::new().dangerously_disable_default_src();
    /// ```
    pub fn dangerously_disable_default_src(mut self) -> Self {
        self.directives
            .push(("default-src".to_owned(), Given::NoDefaultSrc));
        self
    }

    /// The header name (lower case) and the policy, checked as helmet
    /// checks it.
    pub(crate) fn compile(&self) -> Result<(&'static str, Policy), String> {
        let name = if self.report_only {
            "content-security-policy-report-only"
        } else {
            "content-security-policy"
        };
        Ok((name, parse_directives(self)?))
    }
}

/// A checked policy: its text, or its directives when a source is a
/// function.
#[derive(Clone, Debug)]
pub(crate) enum Policy {
    Fixed(String),
    Dynamic(Vec<(String, Vec<Source>)>),
}

impl Policy {
    /// The header value for this request; a function's source that helmet
    /// refuses is an error for the request.
    pub(crate) fn value(&self, req: &Request, res: &Response) -> Result<String, String> {
        let directives = match self {
            Policy::Fixed(text) => return Ok(text.clone()),
            Policy::Dynamic(d) => d,
        };
        let mut out = Vec::with_capacity(directives.len());
        for (name, sources) in directives {
            let mut value = String::new();
            for source in sources {
                value.push(' ');
                match source {
                    Source::Text(t) => value.push_str(t),
                    Source::Function(f) => {
                        let made = f(req, res);
                        entry_check(name, &made)?;
                        value.push_str(&made);
                    }
                }
            }
            value_check(name, &value)?;
            out.push(format!("{name}{value}"));
        }
        Ok(out.join(";"))
    }
}

fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// helmet's `parseDirectiveName`: checked, then camelCase dashed.
fn directive_name(raw: &str) -> Result<String, String> {
    let b = raw.as_bytes();
    let ok = b.first().is_some_and(u8::is_ascii_lowercase)
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
        && (b.len() == 1 || b.last().is_some_and(u8::is_ascii_alphanumeric));
    if !ok {
        return Err(format!(
            "Content-Security-Policy received an invalid directive name {}",
            quoted(raw)
        ));
    }
    let mut out = String::with_capacity(raw.len() + 4);
    for c in raw.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    Ok(out)
}

fn value_check(name: &str, value: &str) -> Result<(), String> {
    if value.contains([';', ',']) {
        return Err(format!(
            "Content-Security-Policy received an invalid directive value for {}",
            quoted(name)
        ));
    }
    Ok(())
}

fn entry_check(name: &str, entry: &str) -> Result<(), String> {
    let unquoted = SHOULD_BE_QUOTED.contains(&entry)
        || ["nonce-", "sha256-", "sha384-", "sha512-"]
            .iter()
            .any(|p| entry.starts_with(p));
    if unquoted {
        return Err(format!(
            "Content-Security-Policy received an invalid directive value for {}. {} should be quoted",
            quoted(name),
            quoted(entry)
        ));
    }
    Ok(())
}

const NEEDS_DEFAULT_SRC: &str = "Content-Security-Policy needs a default-src but none was provided. If you really want to disable it, set it to `contentSecurityPolicy.dangerouslyDisableDefaultSrc`.";

/// helmet's `parseDirectives`.
fn parse_directives(csp: &ContentSecurityPolicy) -> Result<Policy, String> {
    let mut result: Vec<(String, Vec<Source>)> = if csp.use_defaults {
        DEFAULTS
            .iter()
            .map(|(n, v)| {
                (
                    (*n).to_owned(),
                    v.iter().map(|s| Source::from(*s)).collect(),
                )
            })
            .collect()
    } else {
        Vec::new()
    };
    let mut no_default_src = false;
    let mut seen: Vec<String> = Vec::new();
    for (raw, given) in &csp.directives {
        let name = directive_name(raw)?;
        if seen.contains(&name) {
            return Err(format!(
                "Content-Security-Policy received a duplicate directive {}",
                quoted(&name)
            ));
        }
        seen.push(name.clone());
        let sources = match given {
            Given::Off if name == "default-src" => {
                return Err("Content-Security-Policy needs a default-src but it was set to `null`. If you really want to disable it, set it to `contentSecurityPolicy.dangerouslyDisableDefaultSrc`.".to_owned());
            }
            Given::Off => {
                result.retain(|(n, _)| *n != name);
                continue;
            }
            Given::NoDefaultSrc if name == "default-src" => {
                no_default_src = true;
                result.retain(|(n, _)| *n != name);
                continue;
            }
            Given::NoDefaultSrc => {
                return Err(format!(
                    "Content-Security-Policy: tried to disable {} as if it were default-src; simply omit the key",
                    quoted(&name)
                ));
            }
            Given::Sources(s) => s.0.clone(),
        };
        for source in &sources {
            if let Source::Text(t) = source {
                value_check(&name, t)?;
                entry_check(&name, t)?;
            }
        }
        match result.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = sources,
            None => result.push((name, sources)),
        }
    }
    if result.is_empty() {
        return Err(
            "Content-Security-Policy has no directives. Either set some or disable the header"
                .to_owned(),
        );
    }
    if !no_default_src && !result.iter().any(|(n, _)| n == "default-src") {
        return Err(NEEDS_DEFAULT_SRC.to_owned());
    }
    let dynamic = result
        .iter()
        .any(|(_, s)| s.iter().any(|s| matches!(s, Source::Function(_))));
    if dynamic {
        return Ok(Policy::Dynamic(result));
    }
    let text = result
        .iter()
        .map(|(name, sources)| {
            let joined = sources
                .iter()
                .map(|s| match s {
                    Source::Text(t) => t.as_str(),
                    Source::Function(_) => "",
                })
                .collect::<Vec<_>>()
                .join(" ");
            if joined.is_empty() {
                name.clone()
            } else {
                format!("{name} {joined}")
            }
        })
        .collect::<Vec<_>>()
        .join(";");
    Ok(Policy::Fixed(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(csp: ContentSecurityPolicy) -> Result<String, String> {
        match csp.compile()?.1 {
            Policy::Fixed(t) => Ok(t),
            Policy::Dynamic(_) => Err("dynamic".into()),
        }
    }

    #[test]
    fn defaults_serialise_in_helmets_order() {
        assert_eq!(
            text(ContentSecurityPolicy::new()).unwrap(),
            "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline';upgrade-insecure-requests"
        );
    }

    #[test]
    fn given_directives_replace_in_place_and_append() {
        let csp = ContentSecurityPolicy::new()
            .directive("defaultSrc", ["'self'"])
            .directive("scriptSrc", ["'self'", "cdn.example"])
            .directive_off("upgradeInsecureRequests")
            .directive("reportUri", "/r");
        let t = text(csp).unwrap();
        assert!(t.contains(";script-src 'self' cdn.example;script-src-attr"));
        assert!(t.ends_with(";style-src 'self' https: 'unsafe-inline';report-uri /r"));
    }

    #[test]
    fn helmets_checks_and_messages() {
        let err = |csp| text(csp).unwrap_err();
        assert_eq!(
            err(ContentSecurityPolicy::new().directive("Bad", "x")),
            r#"Content-Security-Policy received an invalid directive name "Bad""#
        );
        assert_eq!(
            err(ContentSecurityPolicy::new()
                .directive("scriptSrc", "a")
                .directive("script-src", "b")),
            r#"Content-Security-Policy received a duplicate directive "script-src""#
        );
        assert_eq!(
            err(ContentSecurityPolicy::new().directive("script-src", "self")),
            r#"Content-Security-Policy received an invalid directive value for "script-src". "self" should be quoted"#
        );
        assert_eq!(
            err(ContentSecurityPolicy::new().directive("script-src", "a;b")),
            r#"Content-Security-Policy received an invalid directive value for "script-src""#
        );
        assert_eq!(
            err(ContentSecurityPolicy::new().use_defaults(false)),
            "Content-Security-Policy has no directives. Either set some or disable the header"
        );
        assert_eq!(
            err(ContentSecurityPolicy::new()
                .use_defaults(false)
                .directive("img-src", "x")),
            NEEDS_DEFAULT_SRC
        );
        assert!(err(ContentSecurityPolicy::new().directive_off("default-src")).contains("`null`"));
        assert_eq!(
            text(
                ContentSecurityPolicy::new()
                    .use_defaults(false)
                    .dangerously_disable_default_src()
                    .directive("img-src", [""])
            )
            .unwrap(),
            "img-src"
        );
    }

    #[test]
    fn function_sources_are_computed_per_request() {
        let csp = ContentSecurityPolicy::new().use_defaults(false).directive(
            "default-src",
            vec![
                Source::from("'self'"),
                Source::function(|_, _| "'nonce-abc'".into()),
            ],
        );
        let policy = csp.compile().unwrap().1;
        let req = crate::testing::request(http::Method::GET, "/");
        let res = crate::testing::response(&req);
        assert_eq!(
            policy.value(&req, &res).unwrap(),
            "default-src 'self' 'nonce-abc'"
        );
        let bad = ContentSecurityPolicy::new()
            .directive("script-src", Source::function(|_, _| "self".into()))
            .compile()
            .unwrap()
            .1;
        assert!(
            bad.value(&req, &res)
                .unwrap_err()
                .contains("should be quoted")
        );
    }
}
