use super::*;

fn utf8(ct: &str) -> Result<String, InvalidMediaType> {
    set_charset(ct, "utf-8")
}

#[test]
fn set_charset_adds_charset_to_a_bare_type() {
    assert_eq!(utf8("text/html").unwrap(), "text/html; charset=utf-8");
    assert_eq!(
        utf8("application/json").unwrap(),
        "application/json; charset=utf-8"
    );
}

#[test]
fn set_charset_keeps_an_identical_charset() {
    assert_eq!(
        utf8("text/plain; charset=utf-8").unwrap(),
        "text/plain; charset=utf-8"
    );
}

#[test]
fn set_charset_replaces_another_charset() {
    assert_eq!(
        utf8("text/plain; charset=iso-8859-1").unwrap(),
        "text/plain; charset=utf-8"
    );
    assert_eq!(
        utf8("text/plain; CHARSET=\"latin1\"").unwrap(),
        "text/plain; charset=utf-8"
    );
}

#[test]
fn set_charset_lowercases_the_type() {
    assert_eq!(utf8("TEXT/HTML").unwrap(), "text/html; charset=utf-8");
}

#[test]
fn set_charset_sorts_lowercases_and_quotes_parameters() {
    assert_eq!(
        utf8("text/html; zed=1; Alpha=\"x y\"").unwrap(),
        "text/html; alpha=\"x y\"; charset=utf-8; zed=1"
    );
}

#[test]
fn set_charset_keeps_the_last_of_repeated_parameters() {
    assert_eq!(
        utf8("text/html; a=1; A=2").unwrap(),
        "text/html; a=2; charset=utf-8"
    );
}

#[test]
fn set_charset_unquotes_token_values_and_requotes_others() {
    assert_eq!(
        utf8("text/html; a=\"tok\"").unwrap(),
        "text/html; a=tok; charset=utf-8"
    );
    assert_eq!(
        utf8("text/html; a=\"\"").unwrap(),
        "text/html; a=\"\"; charset=utf-8"
    );
    assert_eq!(
        utf8("text/html; a=\"q\\\"b\\\\s\\x\"").unwrap(),
        "text/html; a=\"q\\\"b\\\\sx\"; charset=utf-8"
    );
    assert_eq!(
        utf8("text/html; a=\"é\"").unwrap(),
        "text/html; a=\"é\"; charset=utf-8"
    );
}

#[test]
fn set_charset_trims_the_type_and_tolerates_spaces_around_parameters() {
    assert_eq!(
        utf8(" \ttext/html \u{a0}; b = 2 ;a=1  ").unwrap(),
        "text/html; a=1; b=2; charset=utf-8"
    );
    assert_eq!(
        utf8("text/html;charset=x").unwrap(),
        "text/html; charset=utf-8"
    );
}

#[test]
fn set_charset_rejects_an_invalid_type() {
    for bad in [
        "text",
        "text/",
        "/html",
        "text/html/x",
        "te xt/html",
        "text/html x",
        "tëxt/html",
        "; charset=utf-8",
    ] {
        let err = utf8(bad).unwrap_err();
        assert_eq!(err, InvalidMediaType::MediaType, "{bad}");
        assert_eq!(err.to_string(), "invalid media type");
    }
}

#[test]
fn set_charset_rejects_malformed_parameters() {
    for bad in [
        "text/html;",
        "text/html; a",
        "text/html; a=",
        "text/html; =1",
        "text/html; a=1 b=2",
        "text/html; a=\"open",
        "text/html; a=\"x\"y",
        "text/html; a=1;",
        "text/html; a=\t1",
        "text/html; a=\"\u{100}\"",
        "text/html; a=\"\\\u{1}\"",
        "text/html; a=b\"c",
    ] {
        assert_eq!(utf8(bad), Err(InvalidMediaType::ParameterFormat), "{bad}");
    }
    assert_eq!(
        InvalidMediaType::ParameterFormat.to_string(),
        "invalid parameter format"
    );
}

#[test]
fn set_charset_rejects_values_it_cannot_write_back() {
    // `\` + DEL parses, but DEL is not quotable text.
    let err = utf8("text/html; a=\"\\\u{7f}\"").unwrap_err();
    assert_eq!(err, InvalidMediaType::ParameterValue);
    assert_eq!(err.to_string(), "invalid parameter value");
}

#[test]
fn set_charset_with_empty_inputs_returns_the_type_unparsed() {
    assert_eq!(utf8("").unwrap(), "");
    assert_eq!(set_charset("not a type", "").unwrap(), "not a type");
}

#[test]
fn set_charset_quotes_a_non_token_charset() {
    assert_eq!(
        set_charset("text/html", "a b").unwrap(),
        "text/html; charset=\"a b\""
    );
}

#[test]
fn parse_reads_type_and_parameters() {
    let ct = parse("Text/HTML; Charset=\"UTF-8\"; q=0.5").unwrap();
    assert_eq!(ct.media_type, "text/html");
    assert_eq!(ct.parameters.len(), 2);
    assert_eq!(ct.parameters["charset"], "UTF-8");
    assert_eq!(ct.parameters["q"], "0.5");
}

#[test]
fn parse_of_empty_string_is_an_argument_error() {
    assert_eq!(parse(""), Err(InvalidMediaType::ArgumentRequired));
    assert_eq!(
        InvalidMediaType::ArgumentRequired.to_string(),
        "argument string is required"
    );
}

#[test]
fn format_validates_type_and_parameter_names() {
    let mut ct = ContentType {
        media_type: "text/html".into(),
        ..Default::default()
    };
    assert_eq!(ct.format().unwrap(), "text/html");
    ct.parameters.insert("bad name".into(), "x".into());
    assert_eq!(ct.format(), Err(InvalidMediaType::ParameterName));
    ct.media_type = "texthtml".into();
    assert_eq!(ct.format(), Err(InvalidMediaType::Type));
    let ct = ContentType {
        media_type: "text/html".into(),
        parameters: [("a".to_owned(), "\u{263a}".to_owned())].into(),
    };
    assert_eq!(ct.format(), Err(InvalidMediaType::ParameterValue));
}

#[test]
fn default_charset_is_added_for_text_javascript_and_json() {
    assert_eq!(
        with_default_charset("text/html"),
        "text/html; charset=utf-8"
    );
    assert_eq!(
        with_default_charset("text/plain; format=flowed"),
        "text/plain; format=flowed; charset=utf-8"
    );
    assert_eq!(
        with_default_charset("application/javascript"),
        "application/javascript; charset=utf-8"
    );
    assert_eq!(
        with_default_charset("application/json"),
        "application/json; charset=utf-8"
    );
    assert_eq!(
        with_default_charset("application/json-seq"),
        "application/json-seq; charset=utf-8"
    );
}

#[test]
fn default_charset_is_not_added_to_other_types() {
    for v in [
        "image/png",
        "application/vnd.foo",
        "application/octet-stream",
        "Text/html",
        " text/html",
        "",
        "text",
    ] {
        assert!(
            matches!(with_default_charset(v), Cow::Borrowed(x) if x == v),
            "{v}"
        );
    }
}

#[test]
fn default_charset_respects_an_existing_charset_parameter() {
    for v in [
        "text/html; charset=latin1",
        "text/html;charset=x",
        "text/html;\t charset \n= x",
        "text/html; charset=",
        "text/html; a=1;charset=x",
    ] {
        assert!(
            matches!(with_default_charset(v), Cow::Borrowed(x) if x == v),
            "{v}"
        );
    }
}

#[test]
fn default_charset_test_is_case_sensitive() {
    assert_eq!(
        with_default_charset("text/html; Charset=x"),
        "text/html; Charset=x; charset=utf-8"
    );
    assert_eq!(
        with_default_charset("text/html; mycharset=x"),
        "text/html; mycharset=x; charset=utf-8"
    );
}
