//! The headers cors sets, worked out from the options and the request
//! without touching a response: a list of steps applied in order (a later
//! `Set` of the same name wins, `Vary` appends), as cors's `applyHeaders`.

use http::HeaderName;
use http::header::{
    ACCESS_CONTROL_ALLOW_CREDENTIALS as ALLOW_CREDENTIALS,
    ACCESS_CONTROL_ALLOW_HEADERS as ALLOW_HEADERS, ACCESS_CONTROL_ALLOW_METHODS as ALLOW_METHODS,
    ACCESS_CONTROL_ALLOW_ORIGIN as ALLOW_ORIGIN, ACCESS_CONTROL_EXPOSE_HEADERS as EXPOSE_HEADERS,
    ACCESS_CONTROL_MAX_AGE as MAX_AGE,
};

use super::options::CorsOptions;
use super::origin::Matcher;

/// One step of cors's `applyHeaders`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// `res.setHeader(name, value)`; values are Latin-1 text, as Node reads
    /// and writes headers.
    Set(HeaderName, String),
    /// `vary(res, field)`.
    Vary(&'static str),
}

/// The origin option once a function has decided it for the request.
#[derive(Debug)]
pub(crate) enum Allowed<'a> {
    Any,
    Fixed(&'a str),
    Match(&'a Matcher),
}

/// What cors reads from the request, headers decoded as Latin-1.
pub(crate) struct Incoming<'a> {
    pub(crate) preflight: bool,
    pub(crate) origin: Option<&'a str>,
    pub(crate) request_headers: Option<&'a str>,
}

/// The steps for a preflight (`OPTIONS`) or an actual request.
pub(crate) fn plan(opts: &CorsOptions, allowed: &Allowed<'_>, req: &Incoming<'_>) -> Vec<Step> {
    let mut steps = Vec::with_capacity(8);
    configure_origin(allowed, req.origin, &mut steps);
    if opts.credentials {
        steps.push(Step::Set(ALLOW_CREDENTIALS, "true".into()));
    }
    if req.preflight {
        set_if_truthy(&mut steps, ALLOW_METHODS, &opts.methods.0);
        match &opts.allowed_headers {
            Some(list) if !list.falsy() => {
                set_if_truthy(&mut steps, ALLOW_HEADERS, &list.0);
            }
            _ => {
                steps.push(Step::Vary("Access-Control-Request-Headers"));
                if let Some(h) = req.request_headers {
                    set_if_truthy(&mut steps, ALLOW_HEADERS, h);
                }
            }
        }
        if let Some(max_age) = opts.max_age {
            steps.push(Step::Set(MAX_AGE, max_age.to_string()));
        }
    }
    if let Some(exposed) = &opts.exposed_headers {
        set_if_truthy(&mut steps, EXPOSE_HEADERS, &exposed.0);
    }
    steps
}

/// cors's `configureOrigin`.
fn configure_origin(allowed: &Allowed<'_>, origin: Option<&str>, steps: &mut Vec<Step>) {
    match allowed {
        Allowed::Any => steps.push(Step::Set(ALLOW_ORIGIN, "*".into())),
        Allowed::Fixed(o) => {
            steps.push(Step::Set(ALLOW_ORIGIN, (*o).to_owned()));
            steps.push(Step::Vary("Origin"));
        }
        Allowed::Match(m) => {
            // An absent or empty origin is falsy: nothing to reflect.
            if let Some(o) = origin.filter(|o| !o.is_empty() && m.allows(o)) {
                steps.push(Step::Set(ALLOW_ORIGIN, o.to_owned()));
            }
            steps.push(Step::Vary("Origin"));
        }
    }
}

/// applyHeaders skips falsy values: the empty string.
fn set_if_truthy(steps: &mut Vec<Step>, name: HeaderName, value: &str) {
    if !value.is_empty() {
        steps.push(Step::Set(name, value.to_owned()));
    }
}

#[cfg(test)]
mod tests {
    use super::super::origin::OriginMatch;
    use super::*;
    use Step::{Set, Vary};

    fn preflight<'a>(origin: Option<&'a str>, request_headers: Option<&'a str>) -> Incoming<'a> {
        Incoming {
            preflight: true,
            origin,
            request_headers,
        }
    }

    #[test]
    fn default_preflight_reflects_the_requested_headers() {
        let steps = plan(
            &CorsOptions::new(),
            &Allowed::Any,
            &preflight(Some("http://x"), Some("X-A,X-B")),
        );
        assert_eq!(
            steps,
            vec![
                Set(ALLOW_ORIGIN, "*".into()),
                Set(ALLOW_METHODS, "GET,HEAD,PUT,PATCH,POST,DELETE".into()),
                Vary("Access-Control-Request-Headers"),
                Set(ALLOW_HEADERS, "X-A,X-B".into()),
            ]
        );
    }

    #[test]
    fn fixed_origin_preflight_has_every_option_in_cors_order() {
        let opts = CorsOptions::new()
            .credentials(true)
            .exposed_headers(["X-Total", "X-Page"])
            .max_age(0);
        let steps = plan(&opts, &Allowed::Fixed("http://a"), &preflight(None, None));
        assert_eq!(
            steps,
            vec![
                Set(ALLOW_ORIGIN, "http://a".into()),
                Vary("Origin"),
                Set(ALLOW_CREDENTIALS, "true".into()),
                Set(ALLOW_METHODS, "GET,HEAD,PUT,PATCH,POST,DELETE".into()),
                Vary("Access-Control-Request-Headers"),
                Set(MAX_AGE, "0".into()),
                Set(EXPOSE_HEADERS, "X-Total,X-Page".into()),
            ]
        );
    }

    #[test]
    fn a_list_reflects_only_matching_origins() {
        let m = Matcher::List(vec![
            OriginMatch::from("http://a"),
            OriginMatch::from(regex::Regex::new(r"\.b$").unwrap()),
        ]);
        let actual = |origin| {
            plan(
                &CorsOptions::new(),
                &Allowed::Match(&m),
                &Incoming {
                    preflight: false,
                    origin,
                    request_headers: None,
                },
            )
        };
        assert_eq!(
            actual(Some("http://x.b")),
            vec![Set(ALLOW_ORIGIN, "http://x.b".into()), Vary("Origin")]
        );
        assert_eq!(actual(Some("http://c")), vec![Vary("Origin")]);
        assert_eq!(actual(None), vec![Vary("Origin")]);
    }

    #[test]
    fn empty_lists_set_nothing_but_an_empty_string_reflects() {
        let none: [&str; 0] = [];
        let opts = CorsOptions::new()
            .methods(none)
            .allowed_headers(none)
            .exposed_headers(none);
        let steps = plan(&opts, &Allowed::Any, &preflight(None, Some("X-A")));
        assert_eq!(steps, vec![Set(ALLOW_ORIGIN, "*".into())]);
        let opts = CorsOptions::new().allowed_headers("");
        let steps = plan(&opts, &Allowed::Any, &preflight(None, Some("X-A")));
        assert_eq!(steps[3], Set(ALLOW_HEADERS, "X-A".into()));
    }
}
