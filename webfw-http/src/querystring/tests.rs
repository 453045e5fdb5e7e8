use super::*;

fn p(input: &str) -> String {
    serde_json::to_string(&parse(input, 1000)).expect("serializes")
}

// --- The reference rows (express-behavior.md §7.2) ------------------------------------

#[test]
fn repeated_keys_make_arrays() {
    assert_eq!(p("a=1&a=2&a=3"), r#"{"a":["1","2","3"]}"#);
}

#[test]
fn brackets_are_literal() {
    assert_eq!(p("a[]=1&a[]=2"), r#"{"a[]":["1","2"]}"#);
    assert_eq!(p("a[b]=c"), r#"{"a[b]":"c"}"#);
}

#[test]
fn empty_key_is_kept() {
    assert_eq!(p("=b"), r#"{"":"b"}"#);
}

#[test]
fn plus_is_space() {
    assert_eq!(p("a+b=c+d%20e"), r#"{"a b":"c d e"}"#);
}

#[test]
fn malformed_escapes_decode_leniently() {
    assert_eq!(p("a=%E0%A4%A"), "{\"a\":\"\u{FFFD}%A\"}");
    assert_eq!(p("%E0%A4%A=1"), "{\"\u{FFFD}%A\":\"1\"}");
}

// --- Further behaviour -----------------------------------------------------------------

#[test]
fn empty_and_missing_values() {
    assert_eq!(p(""), "{}");
    assert_eq!(p("a"), r#"{"a":""}"#);
    assert_eq!(p("a="), r#"{"a":""}"#);
    assert_eq!(p("&&a=1&&"), r#"{"a":"1"}"#);
    assert_eq!(p("="), r#"{"":""}"#);
    assert_eq!(p("a=b=c"), r#"{"a":"b=c"}"#);
    assert_eq!(p("+"), r#"{" ":""}"#);
}

#[test]
fn max_keys_counts_pairs_and_empty_slots() {
    assert_eq!(
        serde_json::to_string(&parse("a=1&b=2&c=3", 2)).unwrap(),
        r#"{"a":"1","b":"2"}"#
    );
    assert_eq!(
        serde_json::to_string(&parse("a=1&&b=2", 2)).unwrap(),
        r#"{"a":"1"}"#
    );
    assert_eq!(
        serde_json::to_string(&parse("a=1&a=2&a=3", 2)).unwrap(),
        r#"{"a":["1","2"]}"#
    );
    let many: Vec<String> = (0..1500).map(|i| format!("k{i}=v")).collect();
    let many = many.join("&");
    assert_eq!(parse(&many, 1000).as_object().map(Map::len), Some(1000));
    assert_eq!(parse(&many, 0).as_object().map(Map::len), Some(1500));
}

#[test]
fn keys_enumerate_like_v8() {
    assert_eq!(p("b=1&2=x&1=y&b=3"), r#"{"1":"y","2":"x","b":["1","3"]}"#);
}

#[test]
fn proto_and_prototype_names_are_plain_keys() {
    assert_eq!(
        p("__proto__=1&toString=2"),
        r#"{"__proto__":"1","toString":"2"}"#
    );
}

#[test]
fn fallback_decoder_keeps_low_bytes_of_non_ascii() {
    // `é` is U+00E9: byte E9 alone is invalid UTF-8.
    assert_eq!(p("a=%zz%41é%"), "{\"a\":\"%zzA\u{FFFD}%\"}");
    // Without a valid escape nothing is decoded, so the text stays intact.
    assert_eq!(p("a=é%"), r#"{"a":"é%"}"#);
    assert_eq!(p("a=%41é"), r#"{"a":"Aé"}"#);
}

#[test]
fn fallback_decoder_edge_escapes() {
    assert_eq!(p("a=%41%4"), r#"{"a":"A%4"}"#);
    assert_eq!(p("a=%41%4g"), r#"{"a":"A%4g"}"#);
    assert_eq!(p("a=%41%g1%"), r#"{"a":"A%g1%"}"#);
    assert_eq!(p("a=%C3%A9%"), r#"{"a":"é%"}"#);
}

#[test]
fn escapes_in_key_mark_value_encoded() {
    // A second escape in an encoded key marks the value as encoded, so its stray `%`
    // sends the value through the fallback decoder, which mangles the `é`.
    assert_eq!(p("%41%42=é%"), "{\"AB\":\"\u{FFFD}%\"}");
    assert_eq!(p("%41=é%"), r#"{"A":"é%"}"#);
}

#[test]
fn long_hex_run_after_an_encoded_key_does_not_overflow() {
    // The escape counter keeps counting hex digits after an encoded key, as Node's
    // number does; a run past 255 once overflowed it (found by the fuzzer).
    let input = format!("%41{}=é%", "B".repeat(300));
    let expected = format!(r#"{{"A{}":"é%"}}"#, "B".repeat(300));
    assert_eq!(p(&input), expected);
}

#[test]
fn decodes_utf8() {
    assert_eq!(
        p("%C3%A9=%E2%9C%93&x=%F0%9F%98%80"),
        r#"{"é":"✓","x":"😀"}"#
    );
}

#[test]
fn odd_inputs_do_not_panic() {
    let long = "%".repeat(100_000) + &"&".repeat(100_000) + &"a%41😀=%".repeat(10_000);
    for s in [
        "%",
        "%%",
        "%4",
        "[[[",
        "]]]",
        "&&&",
        "=",
        "==",
        "&=&",
        "😀%F0%9F%98",
        &long,
    ] {
        let _ = serde_json::to_string(&parse(s, 0));
        let _ = serde_json::to_string(&parse(s, 1));
    }
    assert_eq!(p("&&&"), "{}");
    assert_eq!(p("%"), r#"{"%":""}"#);
}
