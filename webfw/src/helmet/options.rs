//! helmet's options: one per header, each off, on with its defaults, or on
//! with its own options.

use super::csp::ContentSecurityPolicy;

/// One header's option: `false` leaves the header alone, `true` sets it
/// with helmet's defaults, a value sets it with that.
///
/// ```
/// use webfw::helmet::{StrictTransportSecurity, Toggle};
/// let off: Toggle<StrictTransportSecurity> = false.into();
/// let custom: Toggle<StrictTransportSecurity> = StrictTransportSecurity::new().preload(true).into();
/// let named: Toggle<String> = "deny".into();
/// ```
#[derive(Clone, Debug)]
pub enum Toggle<T> {
    /// Not set.
    Off,
    /// Set with helmet's defaults.
    Default,
    /// Set with these options.
    With(T),
}

impl<T> Toggle<T> {
    /// The options to use, `None` when off.
    pub(crate) fn resolve(self, default: impl FnOnce() -> T) -> Option<T> {
        match self {
            Toggle::Off => None,
            Toggle::Default => Some(default()),
            Toggle::With(t) => Some(t),
        }
    }
}

impl<T> From<bool> for Toggle<T> {
    fn from(on: bool) -> Toggle<T> {
        if on { Toggle::Default } else { Toggle::Off }
    }
}

impl From<ContentSecurityPolicy> for Toggle<ContentSecurityPolicy> {
    fn from(v: ContentSecurityPolicy) -> Self {
        Toggle::With(v)
    }
}

impl From<StrictTransportSecurity> for Toggle<StrictTransportSecurity> {
    fn from(v: StrictTransportSecurity) -> Self {
        Toggle::With(v)
    }
}

impl From<&str> for Toggle<String> {
    fn from(v: &str) -> Self {
        Toggle::With(v.to_owned())
    }
}

impl From<String> for Toggle<String> {
    fn from(v: String) -> Self {
        Toggle::With(v)
    }
}

impl From<&str> for Toggle<Vec<String>> {
    fn from(v: &str) -> Self {
        Toggle::With(vec![v.to_owned()])
    }
}

impl<S: AsRef<str>> From<Vec<S>> for Toggle<Vec<String>> {
    fn from(v: Vec<S>) -> Self {
        Toggle::With(v.iter().map(|s| s.as_ref().to_owned()).collect())
    }
}

impl<S: AsRef<str>, const N: usize> From<[S; N]> for Toggle<Vec<String>> {
    fn from(v: [S; N]) -> Self {
        Toggle::With(v.iter().map(|s| s.as_ref().to_owned()).collect())
    }
}

/// helmet's `strictTransportSecurity` options: `maxAge` in seconds (one
/// year), `includeSubDomains` (on), `preload` (off).
///
/// ```
/// use webfw::helmet::StrictTransportSecurity;
/// let hsts = StrictTransportSecurity::new().max_age(86400).include_sub_domains(false).preload(true);
/// ```
#[derive(Clone, Debug)]
#[doc(alias = "hsts")]
pub struct StrictTransportSecurity {
    pub(crate) max_age: u64,
    pub(crate) include_sub_domains: bool,
    pub(crate) preload: bool,
}

impl Default for StrictTransportSecurity {
    fn default() -> Self {
        StrictTransportSecurity {
            max_age: 365 * 24 * 60 * 60,
            include_sub_domains: true,
            preload: false,
        }
    }
}

impl StrictTransportSecurity {
    /// helmet's defaults: `max-age=31536000; includeSubDomains`.
    ///
    /// ```
    /// let hsts = webfw::helmet::StrictTransportSecurity::new();
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// `maxAge`, in seconds.
    ///
    /// ```
    /// let hsts = webfw::helmet::StrictTransportSecurity::new().max_age(600);
    /// ```
    pub fn max_age(mut self, seconds: u64) -> Self {
        self.max_age = seconds;
        self
    }

    /// `includeSubDomains`.
    ///
    /// ```
    /// let hsts = webfw::helmet::StrictTransportSecurity::new().include_sub_domains(false);
    /// ```
    pub fn include_sub_domains(mut self, on: bool) -> Self {
        self.include_sub_domains = on;
        self
    }

    /// `preload`.
    ///
    /// ```
    /// let hsts = webfw::helmet::StrictTransportSecurity::new().preload(true);
    /// ```
    pub fn preload(mut self, on: bool) -> Self {
        self.preload = on;
        self
    }
}

/// The options of [`helmet`](crate::helmet()), one per header, with
/// helmet's defaults.
///
/// ```
/// use webfw::helmet::HelmetOptions;
/// let opts = HelmetOptions::new()
///     .content_security_policy(false)
///     .strict_transport_security(false)
///     .x_frame_options(false)
///     .x_powered_by(false);
/// ```
#[derive(Clone, Debug)]
pub struct HelmetOptions {
    pub(crate) content_security_policy: Toggle<ContentSecurityPolicy>,
    pub(crate) cross_origin_embedder_policy: Toggle<String>,
    pub(crate) cross_origin_opener_policy: Toggle<String>,
    pub(crate) cross_origin_resource_policy: Toggle<String>,
    pub(crate) origin_agent_cluster: bool,
    pub(crate) referrer_policy: Toggle<Vec<String>>,
    pub(crate) strict_transport_security: Toggle<StrictTransportSecurity>,
    pub(crate) x_content_type_options: bool,
    pub(crate) x_dns_prefetch_control: Toggle<bool>,
    pub(crate) x_download_options: bool,
    pub(crate) x_frame_options: Toggle<String>,
    pub(crate) x_permitted_cross_domain_policies: Toggle<String>,
    pub(crate) x_powered_by: bool,
    pub(crate) x_xss_protection: bool,
}

impl Default for HelmetOptions {
    fn default() -> Self {
        HelmetOptions {
            content_security_policy: Toggle::Default,
            cross_origin_embedder_policy: Toggle::Off,
            cross_origin_opener_policy: Toggle::Default,
            cross_origin_resource_policy: Toggle::Default,
            origin_agent_cluster: true,
            referrer_policy: Toggle::Default,
            strict_transport_security: Toggle::Default,
            x_content_type_options: true,
            x_dns_prefetch_control: Toggle::Default,
            x_download_options: true,
            x_frame_options: Toggle::Default,
            x_permitted_cross_domain_policies: Toggle::Default,
            x_powered_by: true,
            x_xss_protection: true,
        }
    }
}

impl HelmetOptions {
    /// helmet's defaults (`helmet()`).
    ///
    /// ```
    /// let opts = webfw::helmet::HelmetOptions::new();
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// `contentSecurityPolicy`: `false`, `true` or a [`ContentSecurityPolicy`].
    ///
    /// ```
    /// use webfw::helmet::{ContentSecurityPolicy, HelmetOptions};
    /// let opts = HelmetOptions::new().content_security_policy(ContentSecurityPolicy::new().report_only(true));
    /// ```
    pub fn content_security_policy(mut self, v: impl Into<Toggle<ContentSecurityPolicy>>) -> Self {
        self.content_security_policy = v.into();
        self
    }

    /// `crossOriginEmbedderPolicy` (off by default): `true` is
    /// `require-corp`; or `credentialless`, `unsafe-none`.
    ///
    /// ```
    /// let opts = webfw::helmet::HelmetOptions::new().cross_origin_embedder_policy("credentialless");
    /// ```
    pub fn cross_origin_embedder_policy(mut self, v: impl Into<Toggle<String>>) -> Self {
        self.cross_origin_embedder_policy = v.into();
        self
    }

    /// `crossOriginOpenerPolicy`: `same-origin` (default),
    /// `same-origin-allow-popups`, `noopener-allow-popups`, `unsafe-none`.
    ///
    /// ```
    /// let opts = webfw::helmet::HelmetOptions::new().cross_origin_opener_policy("unsafe-none");
    /// ```
    pub fn cross_origin_opener_policy(mut self, v: impl Into<Toggle<String>>) -> Self {
        self.cross_origin_opener_policy = v.into();
        self
    }

    /// `crossOriginResourcePolicy`: `same-origin` (default), `same-site`,
    /// `cross-origin`.
    ///
    /// ```
    /// let opts = webfw::helmet::HelmetOptions::new().cross_origin_resource_policy("cross-origin");
    /// ```
    pub fn cross_origin_resource_policy(mut self, v: impl Into<Toggle<String>>) -> Self {
        self.cross_origin_resource_policy = v.into();
        self
    }

    /// `originAgentCluster`: `Origin-Agent-Cluster: ?1`.
    ///
    /// ```
    /// let opts = webfw::helmet::HelmetOptions::new().origin_agent_cluster(false);
    /// ```
    pub fn origin_agent_cluster(mut self, on: bool) -> Self {
        self.origin_agent_cluster = on;
        self
    }

    /// `referrerPolicy`: one token or several (`no-referrer` by default).
    ///
    /// ```
    /// let opts = webfw::helmet::HelmetOptions::new().referrer_policy(["origin", "unsafe-url"]);
    /// ```
    pub fn referrer_policy(mut self, v: impl Into<Toggle<Vec<String>>>) -> Self {
        self.referrer_policy = v.into();
        self
    }

    /// `strictTransportSecurity` (helmet's `hsts`).
    ///
    /// ```
    /// use webfw::helmet::{HelmetOptions, StrictTransportSecurity};
    /// let opts = HelmetOptions::new().strict_transport_security(StrictTransportSecurity::new().max_age(86400));
    /// ```
    #[doc(alias = "hsts")]
    pub fn strict_transport_security(
        mut self,
        v: impl Into<Toggle<StrictTransportSecurity>>,
    ) -> Self {
        self.strict_transport_security = v.into();
        self
    }

    /// `xContentTypeOptions` (`noSniff`): `X-Content-Type-Options: nosniff`.
    ///
    /// ```
    /// let opts = webfw::helmet::HelmetOptions::new().x_content_type_options(false);
    /// ```
    #[doc(alias = "no_sniff")]
    pub fn x_content_type_options(mut self, on: bool) -> Self {
        self.x_content_type_options = on;
        self
    }

    /// `xDnsPrefetchControl` (`dnsPrefetchControl`): `false` leaves it
    /// out; `true` sends `off`; [`Toggle::With(true)`](Toggle::With) is
    /// `{allow: true}`, `on`.
    ///
    /// ```
    /// use webfw::helmet::{HelmetOptions, Toggle};
    /// let opts = HelmetOptions::new().x_dns_prefetch_control(Toggle::With(true));
    /// ```
    #[doc(alias = "dns_prefetch_control")]
    pub fn x_dns_prefetch_control(mut self, v: impl Into<Toggle<bool>>) -> Self {
        self.x_dns_prefetch_control = v.into();
        self
    }

    /// `xDownloadOptions` (`ieNoOpen`): `X-Download-Options: noopen`.
    ///
    /// ```
    /// let opts = webfw::helmet::HelmetOptions::new().x_download_options(false);
    /// ```
    #[doc(alias = "ie_no_open")]
    pub fn x_download_options(mut self, on: bool) -> Self {
        self.x_download_options = on;
        self
    }

    /// `xFrameOptions` (`frameguard`): `sameorigin` (default) or `deny`.
    ///
    /// ```
    /// let opts = webfw::helmet::HelmetOptions::new().x_frame_options("deny");
    /// ```
    #[doc(alias = "frameguard")]
    pub fn x_frame_options(mut self, v: impl Into<Toggle<String>>) -> Self {
        self.x_frame_options = v.into();
        self
    }

    /// `xPermittedCrossDomainPolicies`: `none` (default), `master-only`,
    /// `by-content-type`, `all`.
    ///
    /// ```
    /// let opts = webfw::helmet::HelmetOptions::new().x_permitted_cross_domain_policies("by-content-type");
    /// ```
    #[doc(alias = "permitted_cross_domain_policies")]
    pub fn x_permitted_cross_domain_policies(mut self, v: impl Into<Toggle<String>>) -> Self {
        self.x_permitted_cross_domain_policies = v.into();
        self
    }

    /// `xPoweredBy` (`hidePoweredBy`): whether to remove `X-Powered-By`.
    ///
    /// ```
    /// let opts = webfw::helmet::HelmetOptions::new().x_powered_by(false);
    /// ```
    #[doc(alias = "hide_powered_by")]
    pub fn x_powered_by(mut self, on: bool) -> Self {
        self.x_powered_by = on;
        self
    }

    /// `xXssProtection` (`xssFilter`): `X-XSS-Protection: 0`.
    ///
    /// ```
    /// let opts = webfw::helmet::HelmetOptions::new().x_xss_protection(false);
    /// ```
    #[doc(alias = "xss_filter")]
    pub fn x_xss_protection(mut self, on: bool) -> Self {
        self.x_xss_protection = on;
        self
    }
}
