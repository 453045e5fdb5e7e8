//! `helmet(options)`: the `helmet` 8 security headers.
//!
//! Express: `app.use(helmet({ strictTransportSecurity: { maxAge: 86400 }, xPoweredBy: false }))`;
//! webfw: `app.use_(webfw::helmet(HelmetOptions::new().strict_transport_security(StrictTransportSecurity::new().max_age(86400)).x_powered_by(false)))`.
//!
//! By default every response gets helmet's thirteen headers
//! (`Content-Security-Policy` with helmet's directives,
//! `Cross-Origin-Opener-Policy: same-origin`,
//! `Cross-Origin-Resource-Policy: same-origin`, `Origin-Agent-Cluster: ?1`,
//! `Referrer-Policy: no-referrer`,
//! `Strict-Transport-Security: max-age=31536000; includeSubDomains`,
//! `X-Content-Type-Options: nosniff`, `X-DNS-Prefetch-Control: off`,
//! `X-Download-Options: noopen`, `X-Frame-Options: SAMEORIGIN`,
//! `X-Permitted-Cross-Domain-Policies: none`, `X-XSS-Protection: 0`) and
//! loses `X-Powered-By`. `Cross-Origin-Embedder-Policy` is off unless asked
//! for. Each option takes `false` (leave that header alone), `true` (its
//! defaults) or its own options. Options helmet refuses make
//! [`helmet`](crate::helmet()) panic with helmet's message, as helmet
//! throws; [`Helmet::try_new`] returns it.
//!
//! ```
//! use webfw::helmet::{ContentSecurityPolicy, HelmetOptions, StrictTransportSecurity};
//! let mut app = webfw::app();
//! app.use_(webfw::helmet(
//!     HelmetOptions::new()
//!         .content_security_policy(ContentSecurityPolicy::new().directive("scriptSrc", ["'self'", "cdn.example"]))
//!         .strict_transport_security(StrictTransportSecurity::new().max_age(86400).preload(true))
//!         .x_frame_options("deny")
//!         .referrer_policy(["origin", "unsafe-url"])
//!         .cross_origin_embedder_policy(true),
//! ));
//! ```

mod csp;
mod options;
mod values;

use http::{HeaderName, HeaderValue};

pub use csp::{ContentSecurityPolicy, Source, Sources};
pub use options::{HelmetOptions, StrictTransportSecurity, Toggle};

use crate::error::Error;
use crate::handler::{Flow, Handler, HandlerFuture, Result};
use crate::request::Request;
use crate::response::Response;
use csp::Policy;

/// The middleware [`helmet`](crate::helmet()) returns: the headers worked
/// out once, set on every response.
///
/// ```
/// let helmet: webfw::helmet::Helmet = webfw::helmet(());
/// let mut app = webfw::app();
/// app.use_(helmet);
/// ```
#[derive(Clone, Debug)]
pub struct Helmet {
    /// The policy when a directive has a function source; else it is in
    /// `fixed`.
    dynamic_csp: Option<(HeaderName, Policy)>,
    /// The headers in helmet's order.
    fixed: Vec<(HeaderName, HeaderValue)>,
    /// `xPoweredBy`: remove `X-Powered-By`.
    hide_powered_by: bool,
}

/// `helmet(options)`: security headers on every response (see the
/// [module](self)). `()` for helmet's defaults. Panics with helmet's
/// message on options helmet refuses.
///
/// ```
/// use webfw::helmet::HelmetOptions;
/// let mut app = webfw::app();
/// app.use_(webfw::helmet(HelmetOptions::new().content_security_policy(false)));
/// ```
pub fn helmet(options: impl Into<HelmetOptions>) -> Helmet {
    Helmet::try_new(options).unwrap_or_else(|e| panic!("helmet: {e}"))
}

impl From<()> for HelmetOptions {
    fn from((): ()) -> HelmetOptions {
        HelmetOptions::new()
    }
}

impl Helmet {
    /// [`helmet`](crate::helmet()) returning helmet's message instead of
    /// panicking.
    ///
    /// ```
    /// use webfw::helmet::{Helmet, HelmetOptions};
    /// let err = Helmet::try_new(HelmetOptions::new().x_frame_options("allow-from")).unwrap_err();
    /// assert_eq!(err, r#"X-Frame-Options received an invalid action "allow-from""#);
    /// ```
    pub fn try_new(options: impl Into<HelmetOptions>) -> std::result::Result<Helmet, String> {
        let o = options.into();
        let mut fixed = Vec::with_capacity(14);
        let mut dynamic_csp = None;
        let mut add = |name: &'static str, value: String| -> std::result::Result<(), String> {
            let value = HeaderValue::from_str(&value).map_err(|_| {
                format!(
                    "{name}: {value:?} holds a character a header cannot carry; use visible ASCII"
                )
            })?;
            fixed.push((HeaderName::from_static(name), value));
            Ok(())
        };
        if let Some(csp) = o
            .content_security_policy
            .resolve(ContentSecurityPolicy::new)
        {
            let (name, policy) = csp.compile()?;
            match policy {
                Policy::Fixed(text) => add(name, text)?,
                dynamic => dynamic_csp = Some((HeaderName::from_static(name), dynamic)),
            }
        }
        if let Some(p) = o
            .cross_origin_embedder_policy
            .resolve(|| "require-corp".into())
        {
            add("cross-origin-embedder-policy", values::embedder(&p)?)?;
        }
        if let Some(p) = o
            .cross_origin_opener_policy
            .resolve(|| "same-origin".into())
        {
            add("cross-origin-opener-policy", values::opener(&p)?)?;
        }
        if let Some(p) = o
            .cross_origin_resource_policy
            .resolve(|| "same-origin".into())
        {
            add("cross-origin-resource-policy", values::resource(&p)?)?;
        }
        if o.origin_agent_cluster {
            add("origin-agent-cluster", "?1".into())?;
        }
        if let Some(t) = o.referrer_policy.resolve(|| vec!["no-referrer".into()]) {
            add("referrer-policy", values::referrer(&t)?)?;
        }
        if let Some(h) = o
            .strict_transport_security
            .resolve(StrictTransportSecurity::new)
        {
            let v = values::hsts(h.max_age, h.include_sub_domains, h.preload);
            add("strict-transport-security", v)?;
        }
        if o.x_content_type_options {
            add("x-content-type-options", "nosniff".into())?;
        }
        if let Some(allow) = o.x_dns_prefetch_control.resolve(|| false) {
            add(
                "x-dns-prefetch-control",
                if allow { "on" } else { "off" }.into(),
            )?;
        }
        if o.x_download_options {
            add("x-download-options", "noopen".into())?;
        }
        if let Some(a) = o.x_frame_options.resolve(|| "sameorigin".into()) {
            add("x-frame-options", values::frame(&a)?)?;
        }
        if let Some(p) = o
            .x_permitted_cross_domain_policies
            .resolve(|| "none".into())
        {
            add("x-permitted-cross-domain-policies", values::permitted(&p)?)?;
        }
        if o.x_xss_protection {
            add("x-xss-protection", "0".into())?;
        }
        Ok(Helmet {
            dynamic_csp,
            fixed,
            hide_powered_by: o.x_powered_by,
        })
    }

    fn apply(&self, req: &Request, res: &mut Response) -> Result {
        let policy = match &self.dynamic_csp {
            Some((name, policy)) => Some((name, policy.value(req, res).map_err(Error::new)?)),
            None => None,
        };
        // Removed first: a header map fills the gap with its last entry,
        // which would move helmet's last header in front of the others.
        if self.hide_powered_by {
            res.remove_header("x-powered-by");
        }
        if let Some((name, text)) = policy {
            let value = HeaderValue::from_str(&text).map_err(|_| {
                Error::new(format!("Invalid character in header content [\"{name}\"]"))
                    .with_name("TypeError")
            })?;
            res.insert_header(name.clone(), value);
        }
        for (name, value) in &self.fixed {
            res.insert_header(name.clone(), value.clone());
        }
        Ok(Flow::Next)
    }
}

impl Handler for Helmet {
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        HandlerFuture::ready(self.apply(req, res))
    }
}
