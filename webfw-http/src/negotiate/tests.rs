//! Expected answers recorded from negotiator 0.6.3 / accepts 1.3.8 under
//! Node 20 (the conformance reference's node_modules).

use super::*;

fn pick<'a>(order: Vec<usize>, offers: &[&'a str]) -> Vec<&'a str> {
    order.into_iter().map(|i| offers[i]).collect()
}

#[test]
fn media_types_match_accepts() {
    let cases: &[(Option<&str>, &[&str], Option<&str>)] = &[
        (Some("text/html"), &["json", "html"], Some("html")),
        (Some("application/json"), &["json", "html"], Some("json")),
        (Some("image/*"), &["json", "html"], None),
        (
            Some("text/html;q=0.5, application/json;q=0.9"),
            &["text/html", "application/json"],
            Some("application/json"),
        ),
        (
            Some("application/json;q=0, text/html;q=0.1"),
            &["json", "html"],
            Some("html"),
        ),
        (Some(";;;,,,/"), &["json", "html"], None),
        (
            Some("*/*"),
            &["text/plain", "text/html", "application/json"],
            Some("text/plain"),
        ),
        (
            Some("application/*"),
            &["text/plain", "text/html", "application/json"],
            Some("application/json"),
        ),
        (
            Some("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"),
            &["text/plain", "text/html", "application/json"],
            Some("text/html"),
        ),
        (
            Some("text/*"),
            &["text", "html", "json", "xml"],
            Some("text"),
        ),
        (
            Some("application/xml"),
            &["text", "html", "json", "xml"],
            Some("xml"),
        ),
        (Some("text/csv"), &["image/png", "text/*"], None),
        (Some("text/*"), &["image/png", "text/*"], Some("text/*")),
        (
            Some("text/html;level=1, text/html;q=0.5"),
            &["text/html;level=1", "text/html"],
            Some("text/html;level=1"),
        ),
        (
            Some("text/html;q=abc, text/plain"),
            &["text/html", "text/plain"],
            Some("text/plain"),
        ),
        (
            Some("text/html; q=0.5x, text/plain;q=0.4"),
            &["text/html", "text/plain"],
            Some("text/html"),
        ),
        (
            Some("text/html;charset=\"utf-8,x\";q=0.3, text/plain;q=0.2"),
            &["text/html;charset=\"utf-8,x\"", "text/plain"],
            Some("text/html;charset=\"utf-8,x\""),
        ),
        (
            Some("TEXT/HTML"),
            &["text/html", "nope", "txt", "text"],
            Some("text/html"),
        ),
        (
            Some("*/*;q=0.1, text/*;q=0.5, text/plain"),
            &["text/plain", "text/html", "image/png"],
            Some("text/plain"),
        ),
    ];
    for (header, offers, want) in cases {
        let got = accepts(*header, offers).map(|i| offers[i]);
        assert_eq!(got, *want, "Accept: {header:?}, offers {offers:?}");
    }
}

#[test]
fn every_accepted_kind_in_order() {
    assert_eq!(
        accepted_media_types(Some(
            "text/html, application/xhtml+xml, */*;q=0.8, application/xml;q=0.9"
        )),
        &[
            "text/html",
            "application/xhtml+xml",
            "application/xml",
            "*/*"
        ] as &[&str]
    );
    assert_eq!(accepted_media_types(None), &["*/*"] as &[&str]);
    assert_eq!(accepted_media_types(Some("")), &[] as &[&str]);
    assert_eq!(
        accepted_charsets(Some("iso-8859-1;q=0.2, utf-8;q=0.5, *;q=0.1")),
        &["utf-8", "iso-8859-1", "*"] as &[&str]
    );
    assert_eq!(accepted_encodings(None), &["identity"] as &[&str]);
    assert_eq!(
        accepted_encodings(Some("gzip;q=0.5, br;q=0.2")),
        &["gzip", "br", "identity"] as &[&str]
    );
    assert_eq!(
        accepted_encodings(Some("gzip, deflate;q=0")),
        &["gzip", "identity"] as &[&str]
    );
    assert_eq!(
        accepted_languages(Some("de;q=0.7, en-US, en;q=0.9")),
        &["en-US", "en", "de"] as &[&str]
    );
    assert_eq!(accepted_languages(None), &["*"] as &[&str]);
}

#[test]
fn charsets_encodings_languages_rank_offers() {
    assert_eq!(
        pick(
            preferred_charsets(Some("iso-8859-1, utf-8;q=0.5"), &["utf-8", "iso-8859-1"]),
            &["utf-8", "iso-8859-1"]
        )
        .first()
        .copied(),
        Some("iso-8859-1")
    );
    assert_eq!(
        pick(
            preferred_charsets(Some("utf-8;q=0, *"), &["utf-8", "iso-8859-1"]),
            &["utf-8", "iso-8859-1"]
        )
        .first()
        .copied(),
        Some("iso-8859-1")
    );
    assert_eq!(
        pick(
            preferred_charsets(None, &["utf-8", "iso-8859-1"]),
            &["utf-8", "iso-8859-1"]
        )
        .first()
        .copied(),
        Some("utf-8")
    );
    assert_eq!(
        pick(
            preferred_encodings(Some("gzip;q=0.5, br"), &["gzip", "br", "identity"]),
            &["gzip", "br", "identity"]
        ),
        &["br", "gzip", "identity"] as &[&str]
    );
    assert_eq!(
        pick(
            preferred_encodings(None, &["gzip", "br", "identity"]),
            &["gzip", "br", "identity"]
        ),
        &["identity"] as &[&str]
    );
    assert_eq!(
        pick(
            preferred_encodings(Some("gzip, identity;q=0"), &["identity"]),
            &["identity"]
        ),
        &[] as &[&str]
    );
    assert_eq!(
        pick(
            preferred_encodings(Some("*;q=0"), &["identity", "gzip"]),
            &["identity", "gzip"]
        ),
        &[] as &[&str]
    );
    assert_eq!(
        pick(
            preferred_encodings(Some("gzip;q=0.2"), &["identity", "gzip"]),
            &["identity", "gzip"]
        ),
        &["gzip", "identity"] as &[&str]
    );
    assert_eq!(
        pick(
            preferred_languages(Some("fr-CH, fr;q=0.9, en;q=0.8"), &["en", "fr"]),
            &["en", "fr"]
        ),
        &["fr", "en"] as &[&str]
    );
    assert_eq!(
        pick(
            preferred_languages(Some("en-US"), &["en", "fr"]),
            &["en", "fr"]
        ),
        &["en"] as &[&str]
    );
    assert_eq!(
        pick(
            preferred_languages(Some("en"), &["en-US", "en-GB"]),
            &["en-US", "en-GB"]
        ),
        &["en-US", "en-GB"] as &[&str]
    );
    assert_eq!(
        pick(
            preferred_languages(Some("en; q=0.1, fr;q=0.5"), &["en", "fr"]),
            &["en", "fr"]
        ),
        &["en", "fr"] as &[&str]
    );
    assert_eq!(
        pick(preferred_languages(None, &["en", "fr"]), &["en", "fr"]),
        &["en", "fr"] as &[&str]
    );
    assert_eq!(
        pick(
            preferred_languages(Some("*;q=0.5, fr"), &["en", "fr"]),
            &["en", "fr"]
        ),
        &["fr", "en"] as &[&str]
    );
}

#[test]
fn parse_float_follows_javascript() {
    assert_eq!(js_parse_float("0.5"), 0.5);
    assert_eq!(js_parse_float(" 0.5x"), 0.5);
    assert_eq!(js_parse_float(".5"), 0.5);
    assert_eq!(js_parse_float("1e-1"), 0.1);
    assert_eq!(js_parse_float("1e"), 1.0);
    assert_eq!(js_parse_float("-Infinity"), f64::NEG_INFINITY);
    assert!(js_parse_float("abc").is_nan());
    assert!(js_parse_float(".").is_nan());
    assert!(js_parse_float("").is_nan());
}

#[test]
fn format_keys_become_types() {
    assert_eq!(format_type("json"), "application/json");
    assert_eq!(format_type("text/*"), "text/*");
    assert_eq!(format_type("text/html ; level=1"), "text/html");
    assert_eq!(format_type("unknownext"), "application/octet-stream");
}

/// A tiny deterministic generator, so the property tests need no crate.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn any_header_ranks_without_panicking_and_within_bounds() {
    const PIECES: &[&str] = &[
        "text", "/", "*", "html", ";", "q=", "0.5", ",", " ", "\"", "=", "-", "en", "1", "0", "e",
        "\u{e9}", "gzip", "identity",
    ];
    let offers = ["text/html", "json", "*/*", "en", "identity", "gzip"];
    let mut state = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..3000 {
        let len = (next(&mut state) % 12) as usize;
        let header: String = (0..len)
            .map(|_| PIECES[(next(&mut state) % PIECES.len() as u64) as usize])
            .collect();
        for order in [
            preferred(Some(&header), &offers),
            preferred_charsets(Some(&header), &offers),
            preferred_encodings(Some(&header), &offers),
            preferred_languages(Some(&header), &offers),
        ] {
            let mut seen = order.clone();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), order.len(), "{header:?}");
            assert!(order.iter().all(|i| *i < offers.len()));
        }
        let _ = accepted_media_types(Some(&header));
        let _ = accepted_languages(Some(&header));
    }
}

#[test]
fn repeated_parameters_keep_the_last_value() {
    let many: String = (0..3000).map(|i| format!(";level={i}")).collect();
    let header = format!("text/html{many}, text/plain;q=0.5");
    let offers = ["text/html;level=2999", "text/html;level=1", "text/plain"];
    assert_eq!(
        pick(preferred(Some(&header), &offers), &offers),
        ["text/html;level=2999", "text/plain"]
    );
}

/// negotiator 0.6.4 (compression 1.8's) ranks `br, gzip, deflate, identity`
/// with `br, gzip` preferred; answers recorded under Node 20.
#[test]
fn encodings_favouring_preferred_match_negotiator_0_6_4() {
    let offers = ["br", "gzip", "deflate", "identity"];
    let cases: &[(&str, &[usize])] = &[
        ("deflate, gzip", &[1, 2, 3]),
        ("*", &[0, 1, 2, 3]),
        ("gzip;q=0.5, deflate", &[2, 1, 3]),
        ("gzip;q=0, deflate", &[2, 3]),
        ("gzip;q=0", &[3]),
        ("", &[3]),
        ("compress, zstd", &[3]),
        ("identity", &[3]),
        ("identity;q=0", &[]),
        ("*;q=0", &[]),
        ("br;q=0.8, gzip;q=0.8", &[0, 1, 3]),
        ("GZIP", &[1, 3]),
        ("gzip;q=0.5, *;q=0.5", &[0, 1, 2, 3]),
        ("deflate;q=0.5, identity;q=0.5", &[2, 3]),
        ("deflate, identity", &[2, 3]),
        ("identity, deflate", &[3, 2]),
        ("*, identity;q=0", &[0, 1, 2]),
        ("gzip;q=abc", &[3]),
        ("gzip;q=1e0, br;q=.9", &[1, 0, 3]),
        ("x;q=0.1, deflate;q=0.1", &[2, 3]),
        (" gzip ; q=0.7 , deflate", &[2, 1, 3]),
        ("gzip x", &[3]),
        (";q=1, deflate", &[2, 3]),
        ("gzip;q=0.5;q=1", &[1, 3]),
        ("br;level=1;q=0.2, gzip;q=0.3", &[1, 0, 3]),
        ("*;q=0.5, deflate", &[2, 0, 1, 3]),
        ("gzip, deflate, br", &[0, 1, 2, 3]),
        ("deflate;q=0.9, *", &[0, 1, 3, 2]),
    ];
    for (header, want) in cases {
        let got = preferred_encodings_favouring(Some(header), &offers, &["br", "gzip"]);
        assert_eq!(got, *want, "{header:?}");
    }
    assert_eq!(
        preferred_encodings_favouring(None, &offers, &["br", "gzip"]),
        [3]
    );
}
