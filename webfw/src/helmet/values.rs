//! The values of helmet's other headers, checked with helmet's messages.

fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// `Cross-Origin-Embedder-Policy`.
pub(crate) fn embedder(policy: &str) -> Result<String, String> {
    one_of(
        policy,
        &["require-corp", "credentialless", "unsafe-none"],
        "Cross-Origin-Embedder-Policy does not support the {} policy",
    )
}

/// `Cross-Origin-Opener-Policy`.
pub(crate) fn opener(policy: &str) -> Result<String, String> {
    one_of(
        policy,
        &[
            "same-origin",
            "same-origin-allow-popups",
            "noopener-allow-popups",
            "unsafe-none",
        ],
        "Cross-Origin-Opener-Policy does not support the {} policy",
    )
}

/// `Cross-Origin-Resource-Policy`.
pub(crate) fn resource(policy: &str) -> Result<String, String> {
    one_of(
        policy,
        &["same-origin", "same-site", "cross-origin"],
        "Cross-Origin-Resource-Policy does not support the {} policy",
    )
}

/// `X-Permitted-Cross-Domain-Policies`.
pub(crate) fn permitted(policy: &str) -> Result<String, String> {
    one_of(
        policy,
        &["none", "master-only", "by-content-type", "all"],
        "X-Permitted-Cross-Domain-Policies does not support {}",
    )
}

fn one_of(value: &str, allowed: &[&str], message: &str) -> Result<String, String> {
    if allowed.contains(&value) {
        Ok(value.to_owned())
    } else {
        Err(message.replace("{}", &quoted(value)))
    }
}

/// `Referrer-Policy`: tokens joined with `,`.
pub(crate) fn referrer(tokens: &[String]) -> Result<String, String> {
    const ALLOWED: [&str; 9] = [
        "no-referrer",
        "no-referrer-when-downgrade",
        "same-origin",
        "origin",
        "strict-origin",
        "origin-when-cross-origin",
        "strict-origin-when-cross-origin",
        "unsafe-url",
        "",
    ];
    if tokens.is_empty() {
        return Err("Referrer-Policy received no policy tokens".to_owned());
    }
    for (i, token) in tokens.iter().enumerate() {
        if !ALLOWED.contains(&token.as_str()) {
            return Err(format!(
                "Referrer-Policy received an unexpected policy token {}",
                quoted(token)
            ));
        }
        if tokens[..i].contains(token) {
            return Err(format!(
                "Referrer-Policy received a duplicate policy token {}",
                quoted(token)
            ));
        }
    }
    Ok(tokens.join(","))
}

/// `X-Frame-Options`: `deny` or `sameorigin` (`same-origin`), any case.
pub(crate) fn frame(action: &str) -> Result<String, String> {
    match action.to_uppercase().as_str() {
        "SAME-ORIGIN" | "SAMEORIGIN" => Ok("SAMEORIGIN".to_owned()),
        "DENY" => Ok("DENY".to_owned()),
        _ => Err(format!(
            "X-Frame-Options received an invalid action {}",
            quoted(action)
        )),
    }
}

/// `Strict-Transport-Security`.
pub(crate) fn hsts(max_age: u64, include_sub_domains: bool, preload: bool) -> String {
    let mut v = format!("max-age={max_age}");
    if include_sub_domains {
        v.push_str("; includeSubDomains");
    }
    if preload {
        v.push_str("; preload");
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_messages_are_helmets() {
        assert_eq!(frame("same-origin").unwrap(), "SAMEORIGIN");
        assert_eq!(frame("Deny").unwrap(), "DENY");
        assert_eq!(
            frame("allow-from").unwrap_err(),
            r#"X-Frame-Options received an invalid action "allow-from""#
        );
        let tokens = |t: &[&str]| t.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            referrer(&tokens(&["origin", "unsafe-url"])).unwrap(),
            "origin,unsafe-url"
        );
        assert_eq!(
            referrer(&tokens(&["origin", "origin"])).unwrap_err(),
            r#"Referrer-Policy received a duplicate policy token "origin""#
        );
        assert_eq!(
            referrer(&[]).unwrap_err(),
            "Referrer-Policy received no policy tokens"
        );
        assert_eq!(
            embedder("x").unwrap_err(),
            r#"Cross-Origin-Embedder-Policy does not support the "x" policy"#
        );
        assert_eq!(
            permitted("x").unwrap_err(),
            r#"X-Permitted-Cross-Domain-Policies does not support "x""#
        );
        assert_eq!(
            hsts(86400, true, true),
            "max-age=86400; includeSubDomains; preload"
        );
        assert_eq!(hsts(0, false, false), "max-age=0");
    }
}
