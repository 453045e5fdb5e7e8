//! Application settings: string-keyed outside (`app.set("etag", "strong")`),
//! typed inside. Values are validated and compiled when set; inheritance for
//! mounted sub-apps is resolved when the app tree is frozen at `listen`.

use std::collections::HashMap;
use std::fmt;
use std::net::IpAddr;
use std::sync::Arc;

use serde_json::Value;

use crate::http::proxy_addr::Trust;

/// The environment variable that sets the `env` setting (`NODE_ENV` is read
/// when it is unset, so apps behave like Express under the same environment).
///
/// ```
/// assert_eq!(webfw::ENV_VAR, "WEBFW_ENV");
/// ```
pub const ENV_VAR: &str = "WEBFW_ENV";

/// A custom ETag generator: `(body) -> Some(tag)` or `None` for no header.
///
/// ```
/// let mut app = webfw::app();
/// app.set("etag", webfw::Setting::etag_fn(|body| Some(format!("\"{:x}\"", body.len()))));
/// ```
pub type EtagFn = Arc<dyn Fn(&[u8]) -> Option<String> + Send + Sync>;
/// A custom query parser: the raw query string (without `?`, `None` when
/// absent) to `req.query`.
///
/// ```
/// let mut app = webfw::app();
/// app.set("query parser", webfw::Setting::query_fn(|raw| serde_json::json!({ "raw": raw })));
/// ```
pub type QueryFn = Arc<dyn Fn(Option<&str>) -> Value + Send + Sync>;
/// A `json replacer`: `(key, value) -> Some(new value)`, or `None` to drop the
/// property (JavaScript's `undefined`).
///
/// ```
/// let mut app = webfw::app();
/// app.set("json replacer", webfw::Setting::replacer(|key, v| (key != "password").then(|| v.clone())));
/// ```
pub type ReplacerFn = Arc<dyn Fn(&str, &Value) -> Option<Value> + Send + Sync>;

/// A setting value, as given to `app.set`.
///
/// ```
/// use webfw::Setting;
/// let s: Setting = "strong".into();
/// assert_eq!(s.as_str(), Some("strong"));
/// let t: Setting = true.into();
/// assert_eq!(t.as_bool(), Some(true));
/// ```
#[derive(Clone)]
pub enum Setting {
    /// A JSON-like value: booleans, numbers, strings, arrays.
    Value(Value),
    /// `trust proxy` as a function `(addr, hop) -> bool`.
    TrustFn(Arc<dyn Fn(IpAddr, usize) -> bool + Send + Sync>),
    /// `etag` as a function.
    EtagFn(EtagFn),
    /// `query parser` as a function.
    QueryFn(QueryFn),
    /// `json replacer` as a function.
    Replacer(ReplacerFn),
}

impl Setting {
    /// A `trust proxy` function.
    ///
    /// ```
    /// let s = webfw::Setting::trust_fn(|_ip, hop| hop < 1);
    /// ```
    pub fn trust_fn(f: impl Fn(IpAddr, usize) -> bool + Send + Sync + 'static) -> Setting {
        Setting::TrustFn(Arc::new(f))
    }

    /// An `etag` function.
    ///
    /// ```
    /// let s = webfw::Setting::etag_fn(|body| Some(format!("\"len-{}\"", body.len())));
    /// ```
    pub fn etag_fn(f: impl Fn(&[u8]) -> Option<String> + Send + Sync + 'static) -> Setting {
        Setting::EtagFn(Arc::new(f))
    }

    /// A `query parser` function.
    ///
    /// ```
    /// let s = webfw::Setting::query_fn(|raw| serde_json::json!({ "raw": raw }));
    /// ```
    pub fn query_fn(f: impl Fn(Option<&str>) -> Value + Send + Sync + 'static) -> Setting {
        Setting::QueryFn(Arc::new(f))
    }

    /// A `json replacer` function.
    ///
    /// ```
    /// let s = webfw::Setting::replacer(|key, v| (!key.starts_with('_')).then(|| v.clone()));
    /// ```
    pub fn replacer(f: impl Fn(&str, &Value) -> Option<Value> + Send + Sync + 'static) -> Setting {
        Setting::Replacer(Arc::new(f))
    }

    /// The value as a boolean (JavaScript truthiness for non-booleans).
    ///
    /// ```
    /// assert_eq!(webfw::Setting::from(0).as_bool(), Some(false));
    /// ```
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Setting::Value(v) => Some(truthy(v)),
            _ => Some(true),
        }
    }

    /// The value as a string, if it is one.
    ///
    /// ```
    /// assert_eq!(webfw::Setting::from("x").as_str(), Some("x"));
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Setting::Value(Value::String(s)) => Some(s),
            _ => None,
        }
    }

    /// The value as JSON (functions are `null`).
    ///
    /// ```
    /// assert_eq!(webfw::Setting::from(2).as_json(), &serde_json::json!(2));
    /// ```
    pub fn as_json(&self) -> &Value {
        match self {
            Setting::Value(v) => v,
            _ => &Value::Null,
        }
    }
}

impl fmt::Debug for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Setting::Value(v) => write!(f, "{v}"),
            Setting::TrustFn(_) => f.write_str("[trust function]"),
            Setting::EtagFn(_) => f.write_str("[etag function]"),
            Setting::QueryFn(_) => f.write_str("[query parser function]"),
            Setting::Replacer(_) => f.write_str("[replacer function]"),
        }
    }
}

fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        _ => true,
    }
}

macro_rules! setting_from {
    ($($t:ty),*) => {$(
        impl From<$t> for Setting {
            fn from(v: $t) -> Self { Setting::Value(Value::from(v)) }
        }
    )*};
}
setting_from!(bool, i32, i64, u32, u64, usize, f64, &str, String);

impl From<Value> for Setting {
    fn from(v: Value) -> Self {
        Setting::Value(v)
    }
}

impl From<Vec<&str>> for Setting {
    fn from(v: Vec<&str>) -> Self {
        Setting::Value(Value::from(v))
    }
}

impl<const N: usize> From<[&str; N]> for Setting {
    fn from(v: [&str; N]) -> Self {
        Setting::Value(Value::from(v.to_vec()))
    }
}

/// The `etag` setting, compiled.
///
/// ```
/// use webfw::prelude::*;
/// fn tagged(req: &mut Request, res: &mut Response) -> Result {
///     let on = !matches!(req.app().settings().etag, webfw::EtagMode::Off);
///     res.send(format!("etags {}", if on { "on" } else { "off" }))
/// }
/// ```
#[derive(Clone)]
pub enum EtagMode {
    /// No ETag.
    Off,
    /// Weak ETags (the default).
    Weak,
    /// Strong ETags.
    Strong,
    /// A custom generator.
    Custom(EtagFn),
}

/// The `query parser` setting, compiled.
///
/// ```
/// use webfw::QueryParser;
/// assert_eq!(QueryParser::Extended.parse(Some("a[b]=1"))["a"]["b"], "1");
/// assert_eq!(QueryParser::Off.parse(Some("a=1")), serde_json::json!({}));
/// ```
#[derive(Clone)]
pub enum QueryParser {
    /// Always `{}`.
    Off,
    /// Node's `querystring`.
    Simple,
    /// `qs` as Express 4 calls it (its default): arrays up to index 1000.
    Extended,
    /// `qs` with qs's own defaults, as Express 5's `extended` calls it:
    /// an index of 20 or more makes an object.
    ///
    /// ```
    /// use webfw::QueryParser;
    /// assert_eq!(QueryParser::Qs.parse(Some("a[19]=x"))["a"][0], "x");
    /// assert_eq!(QueryParser::Qs.parse(Some("a[20]=x"))["a"]["20"], "x");
    /// ```
    Qs,
    /// A custom parser.
    Custom(QueryFn),
}

impl QueryParser {
    /// Parses a raw query string (without `?`).
    ///
    /// ```
    /// use webfw::QueryParser;
    /// assert_eq!(QueryParser::Simple.parse(Some("a[]=1"))["a[]"], "1");
    /// ```
    pub fn parse(&self, raw: Option<&str>) -> Value {
        match self {
            QueryParser::Off => Value::Object(Default::default()),
            QueryParser::Simple => crate::http::querystring::parse(raw.unwrap_or(""), 1000),
            QueryParser::Extended => {
                crate::http::qs::parse(raw.unwrap_or(""), &crate::http::qs::QsOptions::default())
                    .unwrap_or_else(|_| Value::Object(Default::default()))
            }
            QueryParser::Qs => {
                let opts = crate::http::qs::QsOptions {
                    array_limit: 20,
                    ..Default::default()
                };
                crate::http::qs::parse(raw.unwrap_or(""), &opts)
                    .unwrap_or_else(|_| Value::Object(Default::default()))
            }
            QueryParser::Custom(f) => f(raw),
        }
    }
}

/// `json spaces`: an indentation width or string.
///
/// ```
/// use webfw::prelude::*;
/// fn indent(req: &mut Request, res: &mut Response) -> Result {
///     let width = match &req.app().settings().json_spaces {
///         Some(webfw::app::JsonSpaces::Width(n)) => *n,
///         _ => 0,
///     };
///     res.send(width.to_string())
/// }
/// ```
#[derive(Clone, Debug)]
pub enum JsonSpaces {
    /// Spaces per level (capped at 10, as `JSON.stringify` does).
    Width(usize),
    /// An indentation string (first 10 characters).
    Text(String),
}

/// Every typed setting an app reads while serving, after inheritance.
///
/// ```
/// use webfw::prelude::*;
/// fn env(req: &mut Request, res: &mut Response) -> Result {
///     let env = req.app().settings().env.clone();
///     res.send(env)
/// }
/// ```
#[derive(Clone)]
pub struct Compiled {
    /// `env`.
    pub env: String,
    /// `etag`.
    pub etag: EtagMode,
    /// `query parser`.
    pub query_parser: QueryParser,
    /// `trust proxy`.
    pub trust_proxy: Trust,
    /// `subdomain offset`.
    pub subdomain_offset: usize,
    /// `x-powered-by`.
    pub x_powered_by: bool,
    /// `json spaces`.
    pub json_spaces: Option<JsonSpaces>,
    /// `json replacer`.
    pub json_replacer: Option<ReplacerFn>,
    /// `json escape`.
    pub json_escape: bool,
    /// `jsonp callback name`.
    pub jsonp_callback_name: String,
    /// The Express this app speaks (fixed when it was made).
    pub dialect: crate::Dialect,
}

/// Names of the settings Express gives a default in `app.init`: a sub-app has
/// its own value for these and so never inherits them (except `trust proxy`).
const DEFAULTED: &[&str] = &[
    "x-powered-by",
    "etag",
    "env",
    "query parser",
    "subdomain offset",
    "trust proxy",
    "views",
    "jsonp callback name",
];

/// The settings table of one app: own values, plus which defaults were kept.
#[derive(Clone)]
pub struct Settings {
    own: HashMap<String, Setting>,
    /// `trust proxy` was never set explicitly (so a mounted sub-app inherits it).
    trust_default: bool,
    /// Fixed when the app is made; never inherited (each app is one
    /// Express's `express()`).
    dialect: crate::Dialect,
}

impl Settings {
    /// The Express this app speaks.
    pub(crate) fn dialect(&self) -> crate::Dialect {
        self.dialect
    }

    /// A new app's settings. `env` comes from `WEBFW_ENV`; when that is
    /// unset, from `NODE_ENV`; else it is `development`.
    pub(crate) fn new(dialect: crate::Dialect) -> Settings {
        let env = match std::env::var(ENV_VAR) {
            Ok(v) => Some(v),
            Err(_) => std::env::var("NODE_ENV").ok(),
        };
        let env = env
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| "development".into());
        let views = std::env::current_dir()
            .map(|d| d.join("views").to_string_lossy().into_owned())
            .unwrap_or_else(|_| "views".into());
        let mut own = HashMap::new();
        own.insert("x-powered-by".into(), Setting::from(true));
        own.insert("etag".into(), Setting::from("weak"));
        // Express 5 made Node's `querystring` the default.
        let query = if dialect.is_express5() {
            "simple"
        } else {
            "extended"
        };
        own.insert("query parser".into(), Setting::from(query));
        own.insert("subdomain offset".into(), Setting::from(2));
        own.insert("trust proxy".into(), Setting::from(false));
        own.insert("views".into(), Setting::from(views));
        own.insert("jsonp callback name".into(), Setting::from("callback"));
        if env == "production" {
            own.insert("view cache".into(), Setting::from(true));
        }
        own.insert("env".into(), Setting::from(env));
        Settings {
            own,
            trust_default: true,
            dialect,
        }
    }

    /// Validates and stores a value. Errors carry Express's messages.
    pub(crate) fn set(&mut self, name: &str, value: Setting) -> Result<(), String> {
        match name {
            "etag" => {
                compile_etag(&value)?;
            }
            "query parser" => {
                compile_query(&value)?;
            }
            "trust proxy" => {
                compile_trust(&value)?;
                self.trust_default = false;
            }
            _ => {}
        }
        self.own.insert(name.to_owned(), value);
        Ok(())
    }

    pub(crate) fn get_own(&self, name: &str) -> Option<&Setting> {
        self.own.get(name)
    }

    /// Resolves the value of `name` for an app mounted under `parent`.
    fn effective<'a>(&'a self, name: &str, parent: Option<&'a Settings>) -> Option<&'a Setting> {
        let inherit = |p: &'a Settings| p.own.get(name);
        match (name, parent) {
            ("trust proxy", Some(p)) if self.trust_default => {
                p.own.get(name).or_else(|| self.own.get(name))
            }
            (_, Some(p)) if !DEFAULTED.contains(&name) && name != "view cache" => {
                self.own.get(name).or_else(|| inherit(p))
            }
            ("view cache", Some(p)) => self.own.get(name).or_else(|| inherit(p)),
            _ => self.own.get(name),
        }
    }

    /// The settings an app uses once mounted: its own, then the parent's
    /// (already resolved) where Express inherits.
    pub(crate) fn resolve(&self, parent: Option<&Settings>) -> Settings {
        let mut names: Vec<&String> = self.own.keys().collect();
        if let Some(p) = parent {
            names.extend(p.own.keys());
        }
        let mut own = HashMap::new();
        for name in names {
            if let Some(v) = self.effective(name, parent) {
                own.insert(name.clone(), v.clone());
            }
        }
        Settings {
            own,
            trust_default: self.trust_default && parent.is_none_or(|p| p.trust_default),
            dialect: self.dialect,
        }
    }

    /// Compiles the resolved table into typed values.
    pub(crate) fn compile(&self) -> Compiled {
        let str_of = |n: &str| self.own.get(n).and_then(Setting::as_str).map(str::to_owned);
        let bool_of = |n: &str| self.own.get(n).and_then(Setting::as_bool).unwrap_or(false);
        Compiled {
            env: str_of("env").unwrap_or_else(|| "development".into()),
            etag: self
                .own
                .get("etag")
                .map_or(Ok(EtagMode::Off), compile_etag)
                .unwrap_or(EtagMode::Weak),
            query_parser: self
                .own
                .get("query parser")
                .map_or(Ok(QueryParser::Off), compile_query)
                .map(|q| match q {
                    // Express 5 calls qs with qs's own limits.
                    QueryParser::Extended if self.dialect.is_express5() => QueryParser::Qs,
                    q => q,
                })
                .unwrap_or(QueryParser::Extended),
            trust_proxy: self
                .own
                .get("trust proxy")
                .map_or(Ok(Trust::none()), compile_trust)
                .unwrap_or_else(|_| Trust::none()),
            subdomain_offset: self
                .own
                .get("subdomain offset")
                .and_then(|s| s.as_json().as_f64())
                .map_or(2, |f| f.max(0.0) as usize),
            x_powered_by: bool_of("x-powered-by"),
            json_spaces: self.own.get("json spaces").and_then(|s| match s.as_json() {
                Value::Number(n) => n
                    .as_f64()
                    .filter(|f| *f >= 1.0)
                    .map(|f| JsonSpaces::Width((f as usize).min(10))),
                Value::String(t) if !t.is_empty() => {
                    Some(JsonSpaces::Text(t.chars().take(10).collect()))
                }
                _ => None,
            }),
            json_replacer: match self.own.get("json replacer") {
                Some(Setting::Replacer(f)) => Some(f.clone()),
                _ => None,
            },
            json_escape: bool_of("json escape"),
            jsonp_callback_name: str_of("jsonp callback name").unwrap_or_else(|| "callback".into()),
            dialect: self.dialect,
        }
    }
}

fn compile_etag(v: &Setting) -> Result<EtagMode, String> {
    match v {
        Setting::EtagFn(f) => Ok(EtagMode::Custom(f.clone())),
        Setting::Value(Value::Bool(true)) => Ok(EtagMode::Weak),
        Setting::Value(Value::Bool(false)) | Setting::Value(Value::Null) => Ok(EtagMode::Off),
        Setting::Value(Value::String(s)) if s == "weak" => Ok(EtagMode::Weak),
        Setting::Value(Value::String(s)) if s == "strong" => Ok(EtagMode::Strong),
        other => Err(format!(
            "unknown value for etag function: {}",
            js_string(other)
        )),
    }
}

fn compile_query(v: &Setting) -> Result<QueryParser, String> {
    match v {
        Setting::QueryFn(f) => Ok(QueryParser::Custom(f.clone())),
        Setting::Value(Value::Bool(true)) => Ok(QueryParser::Simple),
        Setting::Value(Value::Bool(false)) | Setting::Value(Value::Null) => Ok(QueryParser::Off),
        Setting::Value(Value::String(s)) if s == "simple" => Ok(QueryParser::Simple),
        Setting::Value(Value::String(s)) if s == "extended" => Ok(QueryParser::Extended),
        other => Err(format!(
            "unknown value for query parser function: {}",
            js_string(other)
        )),
    }
}

fn compile_trust(v: &Setting) -> Result<Trust, String> {
    match v {
        Setting::TrustFn(f) => {
            let f = f.clone();
            Ok(Trust::func(move |ip, hop| f(ip, hop)))
        }
        Setting::Value(Value::Bool(true)) => Ok(Trust::all()),
        Setting::Value(Value::Number(n)) => Ok(Trust::hops(n.as_u64().unwrap_or(0) as u32)),
        Setting::Value(Value::String(s)) => Trust::parse(s).map_err(|e| e.to_string()),
        Setting::Value(Value::Array(items)) => {
            let entries: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
            Trust::list(&entries).map_err(|e| e.to_string())
        }
        Setting::Value(v) if !truthy(v) => Ok(Trust::none()),
        other => Err(format!(
            "unknown value for trust proxy: {}",
            js_string(other)
        )),
    }
}

/// A setting value as JavaScript's `String(v)` prints it in TypeError messages.
fn js_string(v: &Setting) -> String {
    match v {
        Setting::Value(Value::String(s)) => s.clone(),
        other => format!("{other:?}"),
    }
}
