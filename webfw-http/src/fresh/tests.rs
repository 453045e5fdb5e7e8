use super::*;

const ETAG: &str = "\"foo\"";
const LM: &str = "Sat, 01 Jan 2000 00:00:00 GMT";
const EARLIER: &str = "Fri, 31 Dec 1999 23:59:59 GMT";
const LATER: &str = "Sat, 01 Jan 2000 01:00:00 GMT";

fn inm(v: &str, etag: Option<&str>) -> bool {
    is_fresh(Some(v), None, None, etag, None)
}

fn ims(v: &str, last_modified: Option<&str>) -> bool {
    is_fresh(None, Some(v), None, None, last_modified)
}

#[test]
fn unconditional_request_is_never_fresh() {
    assert!(!is_fresh(None, None, None, Some(ETAG), Some(LM)));
    assert!(!is_fresh(Some(""), Some(""), None, Some(ETAG), Some(LM)));
}

#[test]
fn no_cache_token_forces_stale() {
    assert!(!is_fresh(
        Some(ETAG),
        None,
        Some("no-cache"),
        Some(ETAG),
        None
    ));
    assert!(!is_fresh(
        Some(ETAG),
        None,
        Some("max-age=0, no-cache"),
        Some(ETAG),
        None
    ));
    assert!(!is_fresh(
        Some(ETAG),
        None,
        Some("no-cache ,max-age=0"),
        Some(ETAG),
        None
    ));
    assert!(!is_fresh(
        Some("*"),
        None,
        Some(" \tno-cache\u{a0}"),
        Some(ETAG),
        None
    ));
    assert!(!is_fresh(
        None,
        Some(LATER),
        Some("no-cache"),
        None,
        Some(LM)
    ));
}

#[test]
fn other_cache_control_values_do_not_force_stale() {
    assert!(is_fresh(
        Some(ETAG),
        None,
        Some("max-age=0"),
        Some(ETAG),
        None
    ));
    assert!(is_fresh(
        Some(ETAG),
        None,
        Some("no-cache=\"x\""),
        Some(ETAG),
        None
    ));
    assert!(is_fresh(
        Some(ETAG),
        None,
        Some("no-cachex"),
        Some(ETAG),
        None
    ));
    assert!(is_fresh(
        Some(ETAG),
        None,
        Some("NO-CACHE"),
        Some(ETAG),
        None
    ));
    assert!(is_fresh(
        Some(ETAG),
        None,
        Some("no-store"),
        Some(ETAG),
        None
    ));
    assert!(is_fresh(Some(ETAG), None, Some(""), Some(ETAG), None));
}

#[test]
fn star_matches_without_an_etag() {
    assert!(inm("*", None));
    assert!(inm("*", Some(ETAG)));
    // Only the exact value `*` is special.
    assert!(!inm(" *", None));
    assert!(!inm("*, \"foo\"", None));
}

#[test]
fn if_none_match_needs_a_response_etag() {
    assert!(!inm(ETAG, None));
    assert!(!inm(ETAG, Some("")));
}

#[test]
fn if_none_match_exact_match_is_fresh() {
    assert!(inm(ETAG, Some(ETAG)));
    assert!(!inm("\"bar\"", Some(ETAG)));
}

#[test]
fn weak_comparison_ignores_w_prefix_on_either_side() {
    assert!(inm("W/\"foo\"", Some("\"foo\"")));
    assert!(inm("\"foo\"", Some("W/\"foo\"")));
    assert!(inm("W/\"foo\"", Some("W/\"foo\"")));
    assert!(!inm("w/\"foo\"", Some("\"foo\"")));
}

#[test]
fn comma_list_matches_any_entry_with_spaces_trimmed() {
    assert!(inm("\"bar\", \"foo\"", Some(ETAG)));
    assert!(inm("\"bar\",\"foo\"", Some(ETAG)));
    assert!(inm("  \"foo\"  ,\"bar\"", Some(ETAG)));
    assert!(inm("\"bar\",, W/\"foo\" ", Some(ETAG)));
    assert!(!inm("\"bar\", \"baz\"", Some(ETAG)));
    // Only U+0020 is trimmed: a tab stays part of the entry.
    assert!(!inm("\t\"foo\"", Some(ETAG)));
}

#[test]
fn empty_entry_matches_a_bare_w_slash_etag() {
    // `'W/' + '' === 'W/'` in the JS original.
    assert!(inm("x, ", Some("W/")));
}

#[test]
fn if_modified_since_compares_dates() {
    assert!(ims(LM, Some(LM)));
    assert!(ims(LATER, Some(LM)));
    assert!(!ims(EARLIER, Some(LM)));
}

#[test]
fn if_modified_since_needs_last_modified() {
    assert!(!ims(LATER, None));
    assert!(!ims(LATER, Some("")));
}

#[test]
fn unparsable_dates_are_stale() {
    assert!(!ims("garbage", Some(LM)));
    assert!(!ims(LATER, Some("garbage")));
}

#[test]
fn obsolete_date_formats_are_understood() {
    assert!(ims("Saturday, 01-Jan-00 01:00:00 GMT", Some(LM)));
    assert!(ims("Sat Jan  1 01:00:00 2000", Some(LM)));
}

#[test]
fn both_validators_must_pass_when_both_are_sent() {
    assert!(is_fresh(
        Some(ETAG),
        Some(LATER),
        None,
        Some(ETAG),
        Some(LM)
    ));
    assert!(!is_fresh(
        Some(ETAG),
        Some(EARLIER),
        None,
        Some(ETAG),
        Some(LM)
    ));
    assert!(!is_fresh(
        Some("\"bar\""),
        Some(LATER),
        None,
        Some(ETAG),
        Some(LM)
    ));
    assert!(!is_fresh(Some(ETAG), Some(LATER), None, Some(ETAG), None));
    assert!(is_fresh(Some("*"), Some(LATER), None, None, Some(LM)));
}

#[test]
fn express_send_etag_round_trip() {
    let etag = "W/\"5-qvTGHdzF6KLavt4PO0gs2a6pQ00\"";
    assert!(inm(etag, Some(etag)));
    assert!(inm("\"5-qvTGHdzF6KLavt4PO0gs2a6pQ00\"", Some(etag)));
}

fn v2(inm: Option<&str>, ims: Option<&str>, cc: Option<&str>) -> bool {
    is_fresh_v2(inm, ims, cc, Some(ETAG), Some(LM))
}

#[test]
fn v2_if_none_match_decides_alone() {
    // A match wins over an older date; a mismatch loses to a newer one.
    assert!(v2(Some(ETAG), Some(EARLIER), None));
    assert!(!v2(Some("\"bar\""), Some(LATER), None));
    assert!(v2(Some("W/\"foo\""), Some("garbage"), None));
    assert!(v2(Some("\"a\", \"foo\""), None, None));
    // `*` is fresh whatever the date and even without an ETag.
    assert!(v2(Some("*"), Some(EARLIER), None));
    assert!(is_fresh_v2(Some("*"), None, None, None, None));
    assert!(!is_fresh_v2(Some(ETAG), None, None, None, Some(LM)));
    // `* ` is a token list, not the wildcard.
    assert!(!v2(Some("* "), None, None));
}

#[test]
fn v2_if_modified_since_without_if_none_match() {
    assert!(v2(None, Some(LM), None));
    assert!(v2(None, Some(LATER), None));
    assert!(!v2(None, Some(EARLIER), None));
    assert!(!v2(None, Some("garbage"), None));
    assert!(!is_fresh_v2(None, Some(LM), None, Some(ETAG), None));
    // An empty If-None-Match is absent: the date decides.
    assert!(v2(Some(""), Some(LM), None));
}

#[test]
fn v2_keeps_the_unconditional_and_no_cache_rules() {
    assert!(!v2(None, None, None));
    assert!(!v2(Some(""), Some(""), None));
    assert!(!v2(Some(ETAG), None, Some("max-age=0, no-cache")));
    assert!(v2(Some(ETAG), None, Some("no-cache-x")));
}
