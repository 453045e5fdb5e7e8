//! `/eco/helmet/<variant>/*`: the helmet middleware (ROUTES.md, "/eco/helmet").

use webfw::App;
use webfw::helmet::{ContentSecurityPolicy, HelmetOptions, StrictTransportSecurity};
use webfw::prelude::*;

pub fn routes(app: &mut App) {
    let variants: [(&str, HelmetOptions); 4] = [
        ("default", HelmetOptions::new()),
        (
            "custom",
            HelmetOptions::new()
                .content_security_policy(
                    ContentSecurityPolicy::new()
                        .directive("defaultSrc", ["'self'"])
                        .directive("scriptSrc", ["'self'", "cdn.example"])
                        .directive_off("upgradeInsecureRequests"),
                )
                .strict_transport_security(
                    StrictTransportSecurity::new().max_age(86400).preload(true),
                )
                .x_frame_options("deny")
                .referrer_policy(["origin", "unsafe-url"])
                .cross_origin_embedder_policy(true),
        ),
        (
            "off",
            HelmetOptions::new()
                .content_security_policy(false)
                .strict_transport_security(false)
                .x_frame_options(false)
                .x_powered_by(false),
        ),
        (
            "report-only",
            HelmetOptions::new().content_security_policy(
                ContentSecurityPolicy::new()
                    .report_only(true)
                    .use_defaults(false)
                    .directive("default-src", ["'self'"])
                    .directive("report-uri", ["/csp-report"]),
            ),
        ),
    ];
    for (name, opts) in variants {
        let mut r = webfw::router();
        r.use_(webfw::helmet(opts));
        r.get("*", |_req: &mut Request, res: &mut Response| {
            res.send("<p>helmet</p>")
        });
        app.use_at(format!("/eco/helmet/{name}").as_str(), r);
    }
}
