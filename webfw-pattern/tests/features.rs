//! One test per path-to-regexp 0.1.13 feature, from the behaviour reference
//! (express-behavior.md §2) and the conformance routes.

use webfw_pattern::{Key, Match, Options, Pattern, decode_param};

fn name(n: &str) -> Key {
    Key::Name(n.to_string())
}

fn route(path: &str) -> Pattern {
    Pattern::new(path, Options::route()).unwrap()
}

fn mw(path: &str) -> Pattern {
    Pattern::new(path, Options::middleware()).unwrap()
}

/// `(property, value)` pairs of a match.
fn params<'p>(p: &Pattern, path: &'p str) -> Option<Vec<(String, &'p str)>> {
    p.matches(path).map(|m| {
        m.params
            .iter()
            .map(|(k, v)| (p.keys()[*k].to_string(), *v))
            .collect()
    })
}

fn pairs<'a>(v: &[(&str, &'a str)]) -> Option<Vec<(String, &'a str)>> {
    Some(v.iter().map(|(k, v)| (k.to_string(), *v)).collect())
}

fn check(p: &Pattern, source: &str, keys: &[Key]) {
    assert_eq!(p.source(), source);
    assert_eq!(p.keys(), keys);
}

// ---- §2.3 compiled examples -------------------------------------------------

#[test]
fn compiled_named_param() {
    check(
        &route("/user/:id"),
        r"^\/user(?:\/([^/]+?))\/?$",
        &[name("id")],
    );
}

#[test]
fn compiled_named_param_end_false() {
    check(
        &mw("/user/:id"),
        r"^\/user(?:\/([^/]+?))\/?(?=\/|$)",
        &[name("id")],
    );
}

#[test]
fn compiled_strict() {
    let strict = Options::route().with_strict(true);
    check(
        &Pattern::new("/user/:id", strict).unwrap(),
        r"^\/user(?:\/([^/]+?))$",
        &[name("id")],
    );
    check(
        &Pattern::new("/user/:id/", strict).unwrap(),
        r"^\/user(?:\/([^/]+?))\/$",
        &[name("id")],
    );
}

#[test]
fn compiled_optional_param() {
    check(
        &route("/user/:id?"),
        r"^\/user(?:\/([^/]+?))?\/?$",
        &[name("id")],
    );
}

#[test]
fn compiled_format_param() {
    check(
        &route("/file/:name.:ext?"),
        r"^\/file(?:\/([^/]+?))(?:\.([^/\.]+?))?\/?$",
        &[name("name"), name("ext")],
    );
}

#[test]
fn compiled_custom_group() {
    check(
        &route(r"/user/:id(\d+)"),
        r"^\/user(?:\/(\d+))\/?$",
        &[name("id")],
    );
}

#[test]
fn compiled_star() {
    check(&route("/files/*"), r"^\/files\/(.*)\/?$", &[Key::Index(0)]);
    check(&route("*"), r"^(.*)\/?$", &[Key::Index(0)]);
    check(
        &route("/a/*/b/*"),
        r"^\/a\/(.*)\/b\/(.*)\/?$",
        &[Key::Index(0), Key::Index(1)],
    );
}

#[test]
fn compiled_param_star() {
    check(
        &route("/user/:id*"),
        r"^\/user(?:\/([^/]+?)((?:[/].+?)?))\/?$",
        &[name("id"), Key::Index(0)],
    );
}

#[test]
fn compiled_regex_chars_pass_through() {
    check(&route("/ab+cd"), r"^\/ab+cd\/?$", &[]);
    check(&route("/ab?cd"), r"^\/ab?cd\/?$", &[]);
    check(&route("/a(bc)?d"), r"^\/a(bc)?d\/?$", &[Key::Index(0)]);
}

#[test]
fn compiled_group_after_slash_is_non_capturing() {
    check(&route("/a/(foo|bar)"), r"^\/a\/(?:foo|bar)\/?$", &[]);
    check(&route(r"/grp/(\d+)"), r"^\/grp\/(?:\d+)\/?$", &[]);
}

#[test]
fn compiled_backtrack_param() {
    check(
        &route("/:from-:to"),
        r"^(?:\/([^/]+?))-(?:((?:(?!\/|-).)+?))\/?$",
        &[name("from"), name("to")],
    );
}

#[test]
fn compiled_mount_paths() {
    check(&mw("/"), r"^\/?(?=\/|$)", &[]);
    check(&mw(""), r"^\/?(?=\/|$)", &[]);
    check(&mw("/foo"), r"^\/foo\/?(?=\/|$)", &[]);
    check(&mw("/foo/"), r"^\/foo\/?(?=\/|$)", &[]);
}

// ---- observed matches -------------------------------------------------------

#[test]
fn format_param_takes_last_dot() {
    let p = route("/file/:name.:ext?");
    assert_eq!(
        params(&p, "/file/a.b.c"),
        pairs(&[("name", "a.b"), ("ext", "c")])
    );
    assert_eq!(params(&p, "/file/abc"), pairs(&[("name", "abc")]));
}

#[test]
fn star_needs_the_slash() {
    let p = route("/star/*");
    assert_eq!(params(&p, "/star/"), pairs(&[("0", "")]));
    assert_eq!(params(&p, "/star/a/b"), pairs(&[("0", "a/b")]));
    assert_eq!(p.matches("/star"), None);
}

#[test]
fn param_star_captures_the_rest() {
    let p = route("/idstar/:id*");
    assert_eq!(
        params(&p, "/idstar/a/b/c"),
        pairs(&[("id", "a"), ("0", "/b/c")])
    );
    assert_eq!(params(&p, "/idstar/a"), pairs(&[("id", "a"), ("0", "")]));
}

#[test]
fn param_plus_repeats_the_group() {
    let p = route("/plus/:id+");
    assert_eq!(p.source(), r"^\/plus(?:\/([^/]+?))+\/?$");
    assert_eq!(params(&p, "/plus/a"), pairs(&[("id", "a")]));
    // the last repetition wins, as in JavaScript
    assert_eq!(params(&p, "/plus/a/b"), pairs(&[("id", "b")]));
    assert_eq!(p.matches("/plus"), None);
}

#[test]
fn optional_trailing_slash() {
    let p = route("/foo");
    assert_eq!(p.matches("/foo").map(|m| m.len), Some(4));
    assert_eq!(p.matches("/foo/").map(|m| m.len), Some(5));
    assert_eq!(p.matches("/foo//"), None);
    let p = route("/foo/");
    assert!(p.matches("/foo").is_some() && p.matches("/foo/").is_some());
}

#[test]
fn strict_trailing_slash() {
    let strict = Options::route().with_strict(true);
    let p = Pattern::new("/foo", strict).unwrap();
    assert!(p.matches("/foo").is_some());
    assert!(p.matches("/foo/").is_none());
    let p = Pattern::new("/dir/", strict).unwrap();
    assert!(p.matches("/dir/").is_some());
    assert!(p.matches("/dir").is_none());
}

#[test]
fn case_sensitivity() {
    assert!(route("/Abc").matches("/aBC").is_some());
    let p = Pattern::new("/Abc", Options::route().with_sensitive(true)).unwrap();
    assert!(p.matches("/Abc").is_some());
    assert!(p.matches("/abc").is_none());
    let p = Pattern::new("/user/:id", Options::route().with_sensitive(true)).unwrap();
    assert!(p.matches("/USER/1").is_none());
    // JavaScript's non-Unicode `i`: the Kelvin sign is not a `k`
    assert!(route("/kelvin").matches("/\u{212A}elvin").is_none());
    assert!(route("/k:x").matches("/\u{212A}a").is_none());
    assert!(route("/caf\u{e9}").matches("/CAF\u{c9}").is_some());
}

#[test]
fn end_false_prefix_lengths() {
    let p = mw("/foo");
    assert_eq!(p.matches("/foo/bar").map(|m| m.len), Some(4));
    assert_eq!(p.matches("/foo").map(|m| m.len), Some(4));
    assert_eq!(p.matches("/foo/").map(|m| m.len), Some(5));
    assert_eq!(p.matches("/foo//bar").map(|m| m.len), Some(5));
    assert_eq!(p.matches("/FOO/x").map(|m| m.len), Some(4));
    assert_eq!(p.matches("/foobar"), None);
    assert_eq!(p.matches("/foo.json"), None);
    let p = mw("/mount/:m");
    assert_eq!(
        p.matches("/mount/7/x/9"),
        Some(Match {
            len: 8,
            params: vec![(0, "7")]
        })
    );
}

#[test]
fn root_and_empty_mount_paths() {
    let slash = mw("/");
    assert!(slash.is_match_all());
    for path in ["/", "/anything", "", "x"] {
        assert_eq!(
            slash.matches(path),
            Some(Match {
                len: 0,
                params: vec![]
            })
        );
    }
    // '' is not the fast path: its regex `^\/?(?=\/|$)` runs
    let empty = mw("");
    assert!(!empty.is_match_all());
    assert_eq!(empty.matches("/").map(|m| m.len), Some(1));
    assert_eq!(empty.matches("/x").map(|m| m.len), Some(0));
    assert_eq!(empty.matches("x"), None);
    // as a route, "/" only matches "/" (and "")
    let root = route("/");
    assert!(root.matches("/").is_some() && root.matches("").is_some());
    assert!(root.matches("/x").is_none());
}

#[test]
fn star_fast_path() {
    let p = route("*");
    assert!(!p.is_match_all());
    assert_eq!(
        p.matches("/a\nb"),
        Some(Match {
            len: 4,
            params: vec![(0, "/a\nb")]
        })
    );
}

#[test]
fn arrays_share_keys_and_keep_defined_values() {
    let p = Pattern::many(
        &["/routing/arr/one", "/routing/arr/two/:x"],
        Options::route(),
    )
    .unwrap();
    assert_eq!(
        p.source(),
        r"^\/routing\/arr\/one\/?$|^\/routing\/arr\/two(?:\/([^/]+?))\/?$"
    );
    assert_eq!(params(&p, "/routing/arr/two/7"), pairs(&[("x", "7")]));
    assert_eq!(params(&p, "/routing/arr/one"), pairs(&[]));
    // numbered per element: both `*` are key 0
    let p = Pattern::many(&["/a/*", "/b/*"], Options::route()).unwrap();
    assert_eq!(p.keys(), &[Key::Index(0), Key::Index(0)]);
    assert_eq!(params(&p, "/b/zz"), pairs(&[("0", "zz")]));
    // the same name in two alternatives: the defined one is kept
    let p = Pattern::many(&["/:id", "/x/:id"], Options::route()).unwrap();
    assert_eq!(params(&p, "/x/5"), pairs(&[("id", "5")]));
    // an empty array matches everything with an empty match
    let p = Pattern::many(&[], Options::route()).unwrap();
    assert_eq!(p.source(), "(?:)");
    assert_eq!(p.matches("/whatever").map(|m| m.len), Some(0));
}

#[test]
fn regex_route_unnamed_groups() {
    let p = Pattern::regex(r"^\/routing\/re\/(\w+)-(\d+)$", Options::route()).unwrap();
    assert_eq!(p.keys(), &[Key::Index(0), Key::Index(1)]);
    assert_eq!(
        params(&p, "/routing/re/abc-12"),
        pairs(&[("0", "abc"), ("1", "12")])
    );
    assert_eq!(p.matches("/routing/re/abc-x"), None);
    // case-sensitive, no anchoring added
    assert_eq!(p.matches("/ROUTING/re/abc-12"), None);
    assert_eq!(p.literal_prefix(), "/routing/re/");
}

#[test]
fn regex_route_named_groups() {
    let p = Pattern::regex(
        r"^\/routing\/named\/(?<year>\d{4})\/(?<month>\d{2})$",
        Options::route(),
    )
    .unwrap();
    assert_eq!(p.keys(), &[name("year"), name("month")]);
    assert_eq!(
        params(&p, "/routing/named/2024/05"),
        pairs(&[("year", "2024"), ("month", "05")])
    );
    assert_eq!(p.matches("/routing/named/24/05"), None);
}

#[test]
fn regex_route_is_searched_anywhere() {
    let p = Pattern::regex("abc", Options::route()).unwrap();
    assert_eq!(p.matches("/xx/abc/yy").map(|m| m.len), Some(3));
    assert_eq!(p.literal_prefix(), "");
    // a look-ahead
    let p = Pattern::regex(r"^\/x(?!y)", Options::route()).unwrap();
    assert!(p.matches("/xz").is_some());
    assert!(p.matches("/xy").is_none());
}

// ---- conformance patterns ---------------------------------------------------

#[test]
fn conformance_optional_char() {
    let p = route("/routing/ab?cd");
    assert!(p.matches("/routing/abcd").is_some());
    assert!(p.matches("/routing/acd").is_some());
    assert!(p.matches("/routing/abbcd").is_none());
}

#[test]
fn conformance_one_or_more() {
    let p = route("/routing/ab+cd");
    assert!(p.matches("/routing/abcd").is_some());
    assert!(p.matches("/routing/abbbbcd").is_some());
    assert!(p.matches("/routing/acd").is_none());
}

#[test]
fn conformance_star_in_segment() {
    let p = route("/routing/ab*cd");
    assert_eq!(params(&p, "/routing/abxyzcd"), pairs(&[("0", "xyz")]));
    assert_eq!(params(&p, "/routing/abcd"), pairs(&[("0", "")]));
    assert_eq!(params(&p, "/routing/ab/x/cd"), pairs(&[("0", "/x/")]));
}

#[test]
fn conformance_optional_group() {
    let p = route("/routing/ab(cd)?e");
    assert_eq!(p.keys(), &[Key::Index(0)]);
    assert_eq!(params(&p, "/routing/abcde"), pairs(&[("0", "cd")]));
    assert_eq!(params(&p, "/routing/abe"), pairs(&[]));
}

#[test]
fn conformance_range() {
    let p = route("/routing/range/:from-:to");
    assert_eq!(
        params(&p, "/routing/range/1-5"),
        pairs(&[("from", "1"), ("to", "5")])
    );
    // `to` may not contain the `-` that precedes it
    assert_eq!(
        params(&p, "/routing/range/a-b-c"),
        pairs(&[("from", "a-b"), ("to", "c")])
    );
    assert_eq!(p.matches("/routing/range/15"), None);
}

#[test]
fn conformance_numeric_param() {
    let p = route(r"/routing/num/:id(\d+)");
    assert_eq!(params(&p, "/routing/num/42"), pairs(&[("id", "42")]));
    assert_eq!(p.matches("/routing/num/x"), None);
}

#[test]
fn conformance_other_routes() {
    let p = route("/routing/opt/:a/:b?");
    assert_eq!(params(&p, "/routing/opt/1"), pairs(&[("a", "1")]));
    assert_eq!(
        params(&p, "/routing/opt/1/2"),
        pairs(&[("a", "1"), ("b", "2")])
    );
    let p = route("/routing/users/:id/books/:bookId");
    assert_eq!(
        params(&p, "/routing/users/7/books/9"),
        pairs(&[("id", "7"), ("bookId", "9")])
    );
    let p = route("/routing/file/:name.:ext");
    assert_eq!(
        params(&p, "/routing/file/a.tar.gz"),
        pairs(&[("name", "a.tar"), ("ext", "gz")])
    );
    assert_eq!(p.matches("/routing/file/abc"), None);
}

#[test]
fn colon_without_name_is_literal() {
    let p = route("/:/x");
    assert_eq!(p.keys(), &[]);
    assert!(p.matches("/:/x").is_some());
    assert!(route("/a:").matches("/a:").is_some());
}

#[test]
fn escapes_and_dots_are_literal() {
    assert!(route("/a.b").matches("/axb").is_none());
    assert!(route(r"/a\*b").matches("/a*b").is_some());
    assert!(route(r"/\:id").matches("/:id").is_some());
}

// ---- decode_param -----------------------------------------------------------

#[test]
fn decode_param_is_decode_uri_component() {
    assert_eq!(decode_param("a%20b").unwrap(), "a b");
    assert_eq!(decode_param("a+b").unwrap(), "a+b");
    assert_eq!(decode_param("").unwrap(), "");
    assert_eq!(decode_param("%2F%23%3f").unwrap(), "/#?");
    assert_eq!(decode_param("%E2%82%AC").unwrap(), "€");
    assert!(matches!(
        decode_param("plain").unwrap(),
        std::borrow::Cow::Borrowed(_)
    ));
    for bad in [
        "%E0%A4%A",
        "%",
        "%zz",
        "%C3",
        "%C3%28",
        "%ED%A0%80",
        "%C0%AF",
        "%FF",
        "%E2%82%",
    ] {
        let e = decode_param(bad).unwrap_err();
        assert_eq!(e.to_string(), format!("Failed to decode param '{bad}'"));
    }
}

// ---- literal prefix ---------------------------------------------------------

#[test]
fn literal_prefix_values() {
    assert_eq!(route("/user/:id").literal_prefix(), "/user/");
    assert_eq!(route("/User").literal_prefix(), "/user");
    assert_eq!(
        Pattern::new("/User", Options::route().with_sensitive(true))
            .unwrap()
            .literal_prefix(),
        "/User"
    );
    assert_eq!(route("/ab+cd").literal_prefix(), "/ab");
    assert_eq!(route("/ab*cd").literal_prefix(), "/ab");
    assert_eq!(route("/a/(foo|far)").literal_prefix(), "/a/f");
    assert_eq!(route("/file.json").literal_prefix(), "/file.json");
    assert_eq!(route("/caf\u{e9}/x").literal_prefix(), "/caf");
    assert_eq!(route("*").literal_prefix(), "");
    assert_eq!(mw("/").literal_prefix(), "");
    let p = Pattern::many(&["/api/v1/a", "/api/v2/b"], Options::route()).unwrap();
    assert_eq!(p.literal_prefix(), "/api/v");
}

#[test]
fn literal_prefix_is_safe() {
    let patterns = [
        "/",
        "",
        "/foo",
        "/Foo/",
        "/user/:id",
        "/user/:id?",
        "/:id",
        "/a/*",
        "*",
        "/ab?cd",
        "/ab+cd",
        "/ab*cd",
        "/ab(cd)?e",
        "/a(bc)?d",
        "/file/:name.:ext?",
        "/:from-:to",
        r"/num/:id(\d+)",
        "/x/:y?/z",
        "/a|/b",
        "/(a|b)c",
        "/a/(b|c)",
        "/a{2}",
        "/[ab]c",
        "/x:id",
        "/a.b",
        r"/a\.b",
        "/A:b",
        "/ab?",
        "/a?b",
    ];
    let paths = [
        "",
        "/",
        "//",
        "/a",
        "/A",
        "/a/",
        "/ab",
        "/abc",
        "/abcd",
        "/acd",
        "/abbcd",
        "/abXcd",
        "/abcde",
        "/abe",
        "/foo",
        "/FOO/",
        "/foo/bar",
        "/user",
        "/user/1",
        "/USER/1/",
        "/a/b",
        "/a/b/c",
        "/file/a.b",
        "/1-2",
        "/num/12",
        "/x/z",
        "/x/1/z",
        "/bc",
        "/ac",
        "/aa",
        "/b",
        "/xid",
        "/x1",
        "/a.b",
        "/aXb",
        "/Ab",
        "/ab/",
        "/a?b",
        "/Ab?",
    ];
    let mut checked = 0;
    for pat in patterns {
        for opts in [
            Options::route(),
            Options::middleware(),
            Options::route().with_sensitive(true),
            Options::route().with_strict(true),
        ] {
            let p = Pattern::new(pat, opts).unwrap();
            for path in paths {
                if p.matches(path).is_some() {
                    checked += 1;
                    let folded = if opts.sensitive {
                        path.to_string()
                    } else {
                        path.to_lowercase()
                    };
                    assert!(
                        folded.starts_with(p.literal_prefix()),
                        "{pat:?} {opts:?} matched {path:?} but prefix is {:?}",
                        p.literal_prefix()
                    );
                }
            }
        }
    }
    assert!(checked > 100);
}

// ---- errors -----------------------------------------------------------------

fn span(path: &str) -> (usize, usize) {
    let e = Pattern::new(path, Options::route()).unwrap_err();
    (e.offset, e.len)
}

fn error(path: &str) -> (usize, usize, String) {
    let e = Pattern::new(path, Options::route()).unwrap_err();
    (e.offset, e.len, e.message)
}

#[test]
fn error_unterminated_group() {
    let (offset, len, msg) = error("/(a");
    assert_eq!((offset, len), (1, 1));
    assert_eq!(
        msg,
        r"Invalid regular expression: /^/(?:a/?$/i: Unterminated group"
    );
}

#[test]
fn error_unmatched_paren() {
    assert_eq!(span("/a)"), (2, 1));
    // the custom group of a parameter, then a stray `)`
    let (offset, len, msg) = error(r"/:id(\d+))");
    assert_eq!((offset, len), (9, 1));
    assert!(msg.ends_with("Unmatched ')'"));
}

#[test]
fn error_in_custom_group_points_at_the_group() {
    let (offset, len, msg) = error("/x/:id([a-)");
    assert_eq!((offset, len), (6, 5));
    assert!(msg.ends_with("Range out of order in character class"));
    // an unclosed custom group is not a group at all: its `(` is reported
    assert_eq!(span(r"/:id(\d+"), (4, 1));
}

#[test]
fn error_nothing_to_repeat() {
    assert_eq!(span("+a"), (0, 1));
    assert_eq!(span("?"), (0, 1));
    assert_eq!(span("/a?+"), (3, 1));
    // `*` is never a quantifier in a string path
    assert!(Pattern::new("/a**", Options::route()).is_ok());
}

#[test]
fn error_offsets_are_bytes() {
    let (offset, len, _) = error("/é/(a");
    assert_eq!((offset, len), (4, 1));
}

#[test]
fn errors_in_arrays_and_regexes() {
    let e = Pattern::many(&["/a", "/(b"], Options::route()).unwrap_err();
    assert_eq!((e.offset, e.len), (1, 1));
    assert!(e.message.starts_with("path #1: "));
    let e = Pattern::regex("a(", Options::route()).unwrap_err();
    assert_eq!((e.offset, e.len), (1, 1));
    assert_eq!(
        e.message,
        "Invalid regular expression: /a(/: Unterminated group"
    );
    let e = Pattern::regex("[z-a]", Options::route()).unwrap_err();
    assert_eq!((e.offset, e.len), (1, 3));
}

#[test]
fn valid_javascript_is_not_an_error() {
    for ok in [
        "/a{",
        "/a{,2}",
        "/]",
        "/}",
        "/:/x",
        "/a\\",
        "/[]",
        "/a(?=b)*b",
        r"/\8",
    ] {
        assert!(Pattern::new(ok, Options::route()).is_ok(), "{ok}");
    }
}

// ---- robustness -------------------------------------------------------------

#[test]
fn never_panics_on_odd_input() {
    let patterns = [
        "/user/:id",
        "/:a-:b",
        "*",
        "/",
        "/x(?=é)",
        r"/\u00e9",
        "/(a)\\1",
        "/ſ",
        "/:x(\\w)+",
        "/(a|)*",
        "/a\nb",
        r"/\uD83D\uDE00",
    ];
    let paths = [
        "",
        "/",
        "/é",
        "/\u{1F600}",
        "/😀/x",
        "/a\nb",
        "/user/é/",
        "/ſ",
        "/S",
        "/\u{0}",
        "/é-ü",
        "/user/\u{10FFFF}",
        "/aa",
    ];
    for pat in patterns {
        for opts in [Options::route(), Options::middleware()] {
            let p = Pattern::new(pat, opts).unwrap();
            for path in paths {
                if let Some(m) = p.matches(path) {
                    assert!(m.len <= path.len());
                    assert!(path.is_char_boundary(m.len));
                }
            }
        }
    }
    // a surrogate pair written as escapes matches the astral character
    assert!(route(r"/\uD83D\uDE00").matches("/\u{1F600}").is_some());
}

#[test]
fn patterns_are_send_sync_and_clone() {
    fn assert_send_sync<T: Send + Sync + Clone>() {}
    assert_send_sync::<Pattern>();
}

/// path-to-regexp's `^` binds only the first of top-level alternatives: the
/// second may match inside the path, and `len` is then the length of the
/// matched text (JavaScript's `match[0].length`, which Express strips), not
/// where the match ends, so it need not fall on a character boundary.
#[test]
fn unanchored_alternative_len_is_the_matched_text_length() {
    let p = mw("p|!!");
    assert_eq!(p.matches("/Ļ!!").map(|m| m.len), Some(2));
    assert!(!"/Ļ!!".is_char_boundary(2));
    assert_eq!(p.matches("p/x").map(|m| m.len), Some(1));
}
