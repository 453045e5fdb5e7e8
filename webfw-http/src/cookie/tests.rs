//! Expected answers recorded from cookie 0.7 under Node 20.

use super::*;

fn pairs(header: &str) -> Vec<(String, String)> {
    parse(header)
}

fn owned(p: &[(&str, &str)]) -> Vec<(String, String)> {
    p.iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

#[test]
fn parse_matches_the_package() {
    let cases: &[(&str, &[(&str, &str)])] = &[
        ("a=1; b=two", &[("a", "1"), ("b", "two")]),
        (
            "n=caf%C3%A9%20x; q=\"quoted\"",
            &[("n", "caf\u{e9} x"), ("q", "quoted")],
        ),
        ("a=1; a=2", &[("a", "1")]),
        (
            "a=1; junk; =x; b=%E0%A4%A",
            &[("a", "1"), ("", "x"), ("b", "%E0%A4%A")],
        ),
        ("x=\"", &[("x", "")]),
        ("  sp = a b ;t=\t\"v\"\t", &[("sp", "a b"), ("t", "v")]),
        ("noeq", &[]),
        (
            "a=b=c; d=%zz; e=%41",
            &[("a", "b=c"), ("d", "%zz"), ("e", "A")],
        ),
        ("=;=", &[("", "")]),
        ("k=; l", &[("k", "")]),
        ("a=1;;b=2", &[("a", "1"), ("b", "2")]),
        ("__proto__=x; y=1", &[("y", "1")]),
    ];
    for (header, want) in cases {
        assert_eq!(pairs(header), owned(want), "{header:?}");
    }
}

#[test]
fn serialize_matches_the_package() {
    let base = Attributes::default();
    assert_eq!(serialize("a", "1", &base).unwrap(), "a=1");
    assert_eq!(
        serialize("a", &encode_uri_component("b c"), &base).unwrap(),
        "a=b%20c"
    );
    let max = |v| Attributes {
        max_age: Some(v),
        ..Default::default()
    };
    assert_eq!(serialize("a", "1", &max(1.9)).unwrap(), "a=1; Max-Age=1");
    assert_eq!(serialize("a", "1", &max(-1.5)).unwrap(), "a=1; Max-Age=-2");
    let scoped = Attributes {
        domain: Some(".Example.COM"),
        path: Some("/x y"),
        ..Default::default()
    };
    assert_eq!(
        serialize("a", "1", &scoped).unwrap(),
        "a=1; Domain=.Example.COM; Path=/x y"
    );
    let all = Attributes {
        expires: Some(1_894_710_600_000.0),
        http_only: true,
        secure: true,
        partitioned: true,
        priority: Some("MEDIUM".parse().unwrap()),
        same_site: Some("None".parse().unwrap()),
        ..Default::default()
    };
    assert_eq!(
        serialize("a", "1", &all).unwrap(),
        "a=1; Expires=Tue, 15 Jan 2030 12:30:00 GMT; HttpOnly; Secure; Partitioned; Priority=Medium; SameSite=None"
    );
    assert_eq!(serialize("a", "\"q\"", &base).unwrap(), "a=\"q\"");
}

#[test]
fn invalid_input_gets_the_package_messages() {
    let base = Attributes::default();
    let err = |name: &str, value: &str, attrs: &Attributes<'_>| {
        serialize(name, value, attrs).unwrap_err().to_string()
    };
    assert_eq!(err("bad name", "v", &base), "argument name is invalid");
    assert_eq!(err("", "v", &base), "argument name is invalid");
    assert_eq!(err("a", "a\"b", &base), "argument val is invalid");
    let domain = Attributes {
        domain: Some("-bad"),
        ..Default::default()
    };
    assert_eq!(err("a", "v", &domain), "option domain is invalid");
    let path = Attributes {
        path: Some("a;b"),
        ..Default::default()
    };
    assert_eq!(err("a", "v", &path), "option path is invalid");
    let max = Attributes {
        max_age: Some(f64::INFINITY),
        ..Default::default()
    };
    assert_eq!(err("a", "v", &max), "option maxAge is invalid");
    let nan = Attributes {
        max_age: Some(f64::NAN),
        ..Default::default()
    };
    assert_eq!(err("a", "v", &nan), "option maxAge is invalid");
    assert_eq!(
        "x".parse::<Priority>().unwrap_err().to_string(),
        "option priority is invalid"
    );
    assert_eq!(
        "x".parse::<SameSite>().unwrap_err().to_string(),
        "option sameSite is invalid"
    );
    let far = Attributes {
        expires: Some(9e15),
        ..Default::default()
    };
    assert_eq!(err("a", "v", &far), "option expires is invalid");
}

#[test]
fn encoded_values_always_serialize_and_parse_back() {
    let mut state: u64 = 0x0bad_cafe_dead_beef;
    for _ in 0..2000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let len = (state % 10) as usize;
        let value: String = (0..len)
            .map(|k| char::from_u32(((state >> (k * 5)) % 0x3000) as u32 + 1).unwrap_or('x'))
            .collect();
        let line = serialize("k", &encode_uri_component(&value), &Attributes::default())
            .unwrap_or_else(|e| panic!("{value:?}: {e}"));
        assert_eq!(parse(&line), [("k".to_owned(), value.clone())], "{line:?}");
    }
}

#[test]
fn utc_strings_follow_javascript() {
    assert_eq!(utc_string(0.0).unwrap(), "Thu, 01 Jan 1970 00:00:00 GMT");
    assert_eq!(utc_string(-1.0).unwrap(), "Wed, 31 Dec 1969 23:59:59 GMT");
    assert!(utc_string(f64::NAN).is_none());
}

#[test]
fn thousands_of_pairs_keep_the_first_of_each_name() {
    let header: String = (0..4000).map(|i| format!("k{}={i}; ", i % 1000)).collect();
    let parsed = parse(&header);
    assert_eq!(parsed.len(), 1000);
    assert_eq!(parsed[999], ("k999".to_owned(), "999".to_owned()));
}
