use super::*;

fn esc(s: &str) -> String {
    let mut o = Vec::new();
    escape_into(&mut o, s);
    String::from_utf8(o).unwrap()
}

#[test]
fn milliseconds_short_and_long() {
    let text = |v: Val<'_>| v.into_string().unwrap();
    assert_eq!(text(ms(1.25, 1)), "1.3");
    assert_eq!(text(ms(0.0004, 3)), "0.000");
    let long = text(ms(1.5, 100));
    assert_eq!(long.len(), 102);
    assert!(long.starts_with("1.5000"), "{long}");
}

#[test]
fn decimal_text() {
    for n in [0, 7, 10, 99, 1000, 123_456_789, usize::MAX] {
        assert_eq!(decimal(n).as_str(), n.to_string());
    }
    for p in POW10.iter().filter_map(|&p| usize::try_from(p).ok()) {
        for n in [p - 1, p, p + 1] {
            assert_eq!(decimal(n).as_str(), n.to_string());
        }
    }
}

#[test]
fn escaping_matches_morgan_1_12() {
    assert_eq!(esc("plain text/é✓"), "plain text/é✓");
    assert_eq!(esc("a\"b\\c"), "a\\\"b\\\\c");
    assert_eq!(esc("\u{8}\u{c}\n\r\t"), "\\b\\f\\n\\r\\t");
    assert_eq!(
        esc("\u{0}\u{1b}\u{7f}\u{85}\u{9f}"),
        "\\u0000\\u001b\\u007f\\u0085\\u009f"
    );
    assert_eq!(
        esc("\u{2028}\u{2029}\u{2030}\u{a0}"),
        "\\u2028\\u2029\u{2030}\u{a0}"
    );
    // A header can never forge a second line.
    assert!(!esc("x\r\n127.0.0.1 - admin").contains('\n'));
}

/// The line `Line::push` builds for `v` after `prefix`.
fn pushed(prefix: &str, v: Val<'_>) -> String {
    let mut line = Line::new();
    line.lit(prefix);
    line.push(v);
    line.into_string()
}

#[test]
fn line_fast_paths_match_the_escaper() {
    for len in 0..=40 {
        let plain: String = (0..len)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        let want = if len == 0 {
            "-".to_owned()
        } else {
            plain.clone()
        };
        assert_eq!(pushed("x", Val::Safe(&plain)), format!("x{want}"));
        assert_eq!(
            pushed("x", Val::Text(Cow::Borrowed(&plain))),
            format!("x{want}")
        );
        assert_eq!(
            pushed("x", Val::Latin1(plain.as_bytes())),
            format!("x{want}")
        );
        // A value to escape at every position takes the slow path.
        for pos in 0..len {
            for bad in ["\"", "\\", "\n", "\u{7f}", "\u{85}", "\u{2028}", "é"] {
                let mut v = plain.clone();
                v.replace_range(pos..=pos, bad);
                let text = pushed("x", Val::Text(Cow::Borrowed(&v)));
                assert_eq!(text, format!("x{}", esc(&v)), "{v:?}");
                let bytes = pushed("x", Val::Utf8OrLatin1(v.as_bytes()));
                assert_eq!(bytes, text, "{v:?}");
            }
        }
    }
}

#[test]
fn long_lines_continue_past_the_inline_buffer() {
    let mut line = Line::new();
    let mut want = String::new();
    for i in 0..300usize {
        let word = format!("w{i}\"");
        line.lit(" ");
        line.push(Val::Text(Cow::Borrowed(&word)));
        line.push(Val::SafeSmall(decimal(i)));
        want.push_str(&format!(" {}{i}", esc(&word)));
    }
    assert!(want.len() > INLINE);
    assert_eq!(line.as_bytes(), want.as_bytes());
    // Reused for a short line: built inline again.
    line.clear();
    line.lit("short");
    assert_eq!(line.as_bytes(), b"short");
    // Every length around the end of the inline buffer.
    for len in INLINE - 40..INLINE + 40 {
        let mut line = Line::new();
        let fill = "f".repeat(len);
        line.lit(&fill);
        line.push(Val::Safe("GET"));
        line.push(Val::Text(Cow::Borrowed("/a/b/c")));
        line.push(Val::SafeSmall(decimal(404)));
        assert_eq!(line.into_string(), format!("{fill}GET/a/b/c404"));
    }
}

#[test]
fn plain_ascii_agrees_with_a_byte_by_byte_check() {
    let plain = |b: &[u8]| {
        b.iter()
            .all(|&c| (0x20..0x7f).contains(&c) && c != b'"' && c != b'\\')
    };
    for len in [1, 7, 8, 9, 15, 16, 17, 24] {
        for pos in [0, len / 2, len - 1] {
            for bad in 0..=255u8 {
                let mut s = vec![b'a'; len];
                s[pos] = bad;
                assert_eq!(plain_ascii(&s), plain(&s), "{bad:#x} at {pos} of {len}");
            }
        }
    }
    assert!(plain_ascii(b""));
}

#[test]
fn dotted_quads() {
    for ip in [
        "0.0.0.0",
        "127.0.0.1",
        "10.20.30.40",
        "255.255.255.255",
        "1.100.99.9",
    ] {
        let a: std::net::Ipv4Addr = ip.parse().unwrap();
        assert_eq!(ipv4(a).as_str(), ip);
        assert_eq!(ipv4_text(a).as_str(), ip);
    }
}

#[test]
fn basic_auth() {
    assert_eq!(
        basic_auth_user("Basic dXNlcjpwYXNz").as_deref(),
        Some("user")
    );
    assert_eq!(
        basic_auth_user("  bAsIc   dXNlcjpwYXNz  ").as_deref(),
        Some("user")
    );
    assert_eq!(
        basic_auth_user("Basic dXNlcjpwYXNz==").as_deref(),
        Some("user")
    );
    assert_eq!(basic_auth_user("Basicx dXNlcjpwYXNz"), None);
    assert_eq!(basic_auth_user("Basic"), None);
    assert_eq!(basic_auth_user("Basic dXNlcg=="), None); // no colon
    assert_eq!(basic_auth_user("Basic OnBhc3M=").as_deref(), Some("")); // ":pass"
    assert_eq!(basic_auth_user("Bearer dXNlcjpwYXNz"), None);
    assert_eq!(basic_auth_user("Basic\tdXNlcjpwYXNz"), None);
    // "a:b\nc": `.` does not match the newline.
    assert_eq!(basic_auth_user("Basic YTpiCmM="), None);
    // "a\nb:c": the user part may contain it (escaped later).
    assert_eq!(basic_auth_user("Basic YQpiOmM=").as_deref(), Some("a\nb"));
    // "dXNl.cjpwYXNz": '.' is skipped by Node's decoder.
    assert_eq!(
        basic_auth_user("Basic dXNl.cjpwYXNz").as_deref(),
        Some("user")
    );
}

#[test]
fn base64_like_node() {
    assert_eq!(node_base64("YQ"), b"a");
    assert_eq!(node_base64("YWI"), b"ab");
    assert_eq!(node_base64("YWJj"), b"abc");
    assert_eq!(node_base64("YW=Jj"), b"a");
    assert_eq!(node_base64("_-8"), vec![0xff, 0xef]);
}

#[test]
fn node_header_joining() {
    let mut h = HeaderMap::new();
    h.append("x-a", HeaderValue::from_static("1"));
    h.append("x-a", HeaderValue::from_static("2"));
    h.append("user-agent", HeaderValue::from_static("first"));
    h.append("user-agent", HeaderValue::from_static("second"));
    h.append("cookie", HeaderValue::from_static("a=1"));
    h.append("cookie", HeaderValue::from_static("b=2"));
    h.append("x-l", HeaderValue::from_bytes(b"caf\xe9").unwrap());
    let get = |n: &'static str| {
        node_req_header(&h, &HeaderName::from_static(n)).and_then(Val::into_string)
    };
    assert_eq!(get("x-a").as_deref(), Some("1, 2"));
    assert_eq!(get("user-agent").as_deref(), Some("first"));
    assert_eq!(get("cookie").as_deref(), Some("a=1; b=2"));
    assert_eq!(get("x-l").as_deref(), Some("café"));
    assert_eq!(get("x-none"), None);
}
