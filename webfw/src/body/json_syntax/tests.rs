use super::*;

/// Each pair is `JSON.parse(input)`'s message in Node 20.
#[test]
fn messages_match_node_20() {
    let cases: &[(&str, &str)] = &[
        (
            "{\"a\":}",
            "Unexpected token '}', \"{\"a\":}\" is not valid JSON",
        ),
        ("", "Unexpected end of JSON input"),
        ("{", "Expected property name or '}' in JSON at position 1"),
        (
            "{\"a\":1}x",
            "Unexpected non-whitespace character after JSON at position 7",
        ),
        ("[1,]", "Unexpected token ']', \"[1,]\" is not valid JSON"),
        (
            "{\"a\" 1}",
            "Expected ':' after property name in JSON at position 5",
        ),
        (
            "{\"a\":1 \"b\"}",
            "Expected ',' or '}' after property value in JSON at position 7",
        ),
        (
            "[1 2]",
            "Expected ',' or ']' after array element in JSON at position 3",
        ),
        ("\"abc", "Unterminated string in JSON at position 4"),
        ("\"a\\qb\"", "Bad escaped character in JSON at position 3"),
        (
            "\"a\u{1}\"",
            "Bad control character in string literal in JSON at position 2",
        ),
        ("-", "No number after minus sign in JSON at position 1"),
        ("1.", "Unterminated fractional number in JSON at position 2"),
        (
            "1e+",
            "Exponent part is missing a number in JSON at position 3",
        ),
        ("01", "Unexpected number in JSON at position 1"),
        ("-01", "Unexpected number in JSON at position 2"),
        ("tru", "Unexpected end of JSON input"),
        (
            "{\"a\":tx}",
            "Unexpected token 'x', \"{\"a\":tx}\" is not valid JSON",
        ),
        (
            "{\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\":x}",
            "Unexpected token 'x', ...\"aaaaaaaa\":x}\" is not valid JSON",
        ),
        (
            "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20, x]",
            "Unexpected token 'x', ...\"18,19,20, x]\" is not valid JSON",
        ),
        (
            "{\"a\":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,x]}",
            "Unexpected token 'x', ...\",18,19,20,x]}\" is not valid JSON",
        ),
        (
            "{\"a\":1,}",
            "Expected double-quoted property name in JSON at position 7",
        ),
        ("\"\\u12g4\"", "Bad Unicode escape in JSON at position 5"),
        ("\"\\u12", "Bad Unicode escape in JSON at position 5"),
        ("\"a\\", "Unexpected end of JSON input"),
        (
            "{\"a\":1",
            "Expected ',' or '}' after property value in JSON at position 6",
        ),
        ("NaN", "\"NaN\" is not valid JSON"),
        ("[-x]", "No number after minus sign in JSON at position 2"),
        // V8 cuts surrogate pairs; a lone half is sent as U+FFFD.
        (
            "[\"\u{1F600}\u{1F600}\u{1F600}\u{1F600}\u{1F600}\u{1F600}\u{1F600}\u{1F600}\", x]",
            "Unexpected token 'x', ...\"\u{fffd}\u{1F600}\u{1F600}\u{1F600}\", x]\" is not valid JSON",
        ),
        (
            "[1,2,3,4,5,6,7,8,9,10,11,12,\u{1F600}]",
            "Unexpected token '\u{fffd}', ...\",10,11,12,\u{1F600}]\" is not valid JSON",
        ),
        (
            "{\"\u{e9}\u{e9}\":1,\"\u{1F600}\":tru}",
            "Unexpected token '}', \"{\"\u{e9}\u{e9}\":1,\"\u{1F600}\":tru}\" is not valid JSON",
        ),
        (
            "{\"\u{1F600}aaaaaaaaaaaaaaaaaaaaa\":x}",
            "Unexpected token 'x', ...\"aaaaaaaa\":x}\" is not valid JSON",
        ),
    ];
    for (input, want) in cases {
        assert_eq!(
            parse_error_message(input).as_deref(),
            Some(*want),
            "{input:?}"
        );
    }
    assert_eq!(parse_error_message("{\"a\":[1,{}]}"), None);
    let deep = |n: usize, inner: &str| format!("{}{inner}{}", "[".repeat(n), "]".repeat(n));
    assert_eq!(parse_error_message(&deep(127, "")), None);
    assert_eq!(parse_error_message(&deep(126, "{}")), None);
    assert_eq!(
        parse_error_message(&deep(127, "{}")).as_deref(),
        Some("Nesting deeper than 127 levels in JSON at position 127")
    );
    assert_eq!(
        parse_error_message(&format!("{{\"\u{1F600}\":{}", deep(200, ""))).as_deref(),
        Some("Nesting deeper than 127 levels in JSON at position 132")
    );
}

#[test]
fn strict_messages() {
    assert_eq!(
        strict_error_message("true"),
        "Unexpected token 't', \"true\" is not valid JSON"
    );
    assert_eq!(
        strict_error_message("  \n \"str\""),
        "Unexpected token '\"', \"  \n \"str\"\" is not valid JSON"
    );
    assert_eq!(strict_error_message("   "), "Unexpected end of JSON input");
    // Node 20 with body-parser 1.20.9 for the same bodies:
    assert_eq!(
        strict_error_message(&"x".repeat(30)),
        "Unexpected token 'x', \"xxxxxxxxxx\"... is not valid JSON"
    );
    assert_eq!(
        strict_error_message("\"\u{1F600}abc\""),
        "Unexpected token '\"', \"\"\u{1F600}abc\"\" is not valid JSON"
    );
    assert_eq!(
        strict_error_message("nul"),
        "Unexpected token 'n', \"nul\" is not valid JSON"
    );
    assert!(starts_like_object_or_array(" \n{}"));
    assert!(!starts_like_object_or_array("1"));
}
