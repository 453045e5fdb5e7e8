use super::*;

fn route(p: &str) -> Result<Pattern, PatternError> {
    Pattern::express5(p, Options::route())
}

fn msg(p: &str) -> String {
    route(p).unwrap_err().message
}

const VISIT: &str = "; visit https://git.new/pathToRegexpError for info";

#[test]
fn refusals_carry_path_to_regexp_8_messages() {
    let cases = [
        ("/ab?cd", "Unexpected ? at index 3: /ab?cd"),
        ("/ab+cd", "Unexpected + at index 3: /ab+cd"),
        ("/:id(\\d+)", "Unexpected ( at index 4: /:id(\\d+)"),
        ("/[x]", "Unexpected [ at index 1: /[x]"),
        ("/a!", "Unexpected ! at index 2: /a!"),
        ("/a}", "Unexpected } at index 2: /a}"),
        ("*", "Missing parameter name at index 1: *"),
        ("/star/*", "Missing parameter name at index 7: /star/*"),
        ("/:", "Missing parameter name at index 2: /:"),
        ("/:\"\"", "Missing parameter name at index 4: /:\"\""),
        ("/:a:b", "Missing text before \"b\" param: /:a:b"),
        ("/*a*b", "Missing text before \"b\" wildcard: /*a*b"),
        ("/a{/:b", "Unexpected end at index 6, expected }: /a{/:b"),
        ("/:\"abc", "Unterminated quote at index 2: /:\"abc"),
        ("/a\\", "Unexpected end after \\ at index 3: /a\\"),
        ("/é?", "Unexpected ? at index 2: /é?"),
    ];
    for (path, want) in cases {
        assert_eq!(msg(path), format!("{want}{VISIT}"), "{path}");
        assert!(route(path).unwrap_err().hint.is_some());
    }
    let nine = "/{a}{b}{c}{d}{e}{f}{g}{h}{i}";
    assert_eq!(
        msg(nine),
        format!("Too many path combinations: {nine}{VISIT}")
    );
    assert!(route("/{a}{b}{c}{d}{e}{f}{g}{h}").is_ok());
    // the path router 2 passes on: trailing slashes gone
    assert_eq!(
        msg("/ab?cd/"),
        format!("Unexpected ? at index 3: /ab?cd{VISIT}")
    );
}

#[test]
fn hints_name_the_fix() {
    let hint = |p: &str| route(p).unwrap_err().hint.unwrap();
    assert!(hint("/ab?cd").contains("`/a{b}cd`"), "{}", hint("/ab?cd"));
    assert!(hint("/users/:id?").contains("`/users{/:id}`"));
    assert!(hint("/star/*").contains("`/star/*splat`"));
    assert!(hint("*").contains("`/{*splat}`"));
    assert!(hint("/:id(\\d+)").contains("PathSpec::regex"));
}

#[test]
fn sources_are_path_to_regexp_8s() {
    let src = |p: &str, o: Options| Pattern::express5(p, o).unwrap().source().to_owned();
    let r = Options::route();
    assert_eq!(src("/users/:id", r), r"^(?:\/users\/([^\/]+))(?:\/$)?$");
    assert_eq!(
        src("/:a{/:b}", r),
        r"^(?:\/([^\/]+)\/([^\/]+)|\/([^\/]+))(?:\/$)?$"
    );
    assert_eq!(
        src("/:from-:to", r),
        r"^(?:\/([^\/]+)-([^\/-]+|-))(?:\/$)?$"
    );
    assert_eq!(
        src("/mw/", Options::middleware()),
        r"^(?:\/mw)(?:\/$)?(?=\/|$)"
    );
    assert_eq!(src("/a/", r.with_strict(true)), r"^(?:\/a\/)$");
}

#[test]
fn params_as_router_2_reports_them() {
    let params = |p: &str, path: &str| -> Option<Vec<(String, String)>> {
        let pat = route(p).unwrap();
        let m = pat.matches(path)?;
        Some(
            m.params
                .iter()
                .map(|&(k, v)| (pat.keys()[k].to_string(), v.to_owned()))
                .collect(),
        )
    };
    let kv = |v: &[(&str, &str)]| {
        Some(
            v.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
        )
    };
    assert_eq!(
        params("/:name.:ext", "/a.."),
        kv(&[("name", "a"), ("ext", ".")])
    );
    assert_eq!(
        params("/:from-:to", "/a--"),
        kv(&[("from", "a"), ("to", "-")])
    );
    assert_eq!(
        params("/:from-:to", "/a-b-c"),
        kv(&[("from", "a-b"), ("to", "c")])
    );
    assert_eq!(
        params("/:name{.:ext}", "/a.b.c"),
        kv(&[("name", "a.b"), ("ext", "c")])
    );
    assert_eq!(
        params("/:name{.:ext}", "/.hidden"),
        kv(&[("name", ".hidden")])
    );
    assert_eq!(params("/:name{.:ext}", "/a."), kv(&[("name", "a.")]));
    assert_eq!(params("/star/*rest", "/star/a/b/"), kv(&[("rest", "a/b/")]));
    assert_eq!(params("/star/*rest", "/star/"), None);
    assert_eq!(params("/o{/*rest}", "/o"), kv(&[]));
    assert_eq!(params("/color{s}", "/colors"), kv(&[]));
    assert_eq!(params("/color{s}", "/COLOR/"), kv(&[]));
    assert_eq!(params(r"/lit/\(1\+1\)", "/lit/(1+1)"), kv(&[]));
    assert_eq!(params(r"/lit/\(1\+1\)", "/lit/%281%2B1%29"), None);
    assert_eq!(params("/q/:\"user-id\"", "/q/7"), kv(&[("user-id", "7")]));
    assert_eq!(params("/$id/:$x", "/$id/1"), kv(&[("$x", "1")]));
    assert_eq!(params("/:café", "/1"), kv(&[("café", "1")]));
}

#[test]
fn simple_paths_take_the_regex_free_engines() {
    let r = Options::route();
    assert_eq!(route("/plaintext").unwrap().engine(), "literal");
    assert_eq!(
        route("/users/:id/books/:bookId").unwrap().engine(),
        "segments"
    );
    assert_eq!(
        Pattern::express5("/", Options::middleware())
            .unwrap()
            .engine(),
        "slash"
    );
    assert_eq!(route("/:a{/:b}").unwrap().engine(), "backtrack");
    assert_eq!(route("/:a-:b").unwrap().engine(), "backtrack");
    assert!(Pattern::express5_simple("/a/*b", r).is_none());
}

/// Every fast pattern matches as its own regex does on the backtracker.
#[test]
fn fast_engines_agree_with_the_regex() {
    let pieces = ["", "Ab", "a.b", ":id", ":x_1", "caf\u{e9}", "-~", "\\(x\\)"];
    let mut paths = vec![String::new(), "/".to_owned(), "//".to_owned()];
    let mut level = vec![String::new()];
    for _ in 0..3 {
        level = level
            .iter()
            .flat_map(|p| pieces.iter().map(move |s| format!("{p}/{s}")))
            .collect();
        paths.extend(level.iter().cloned());
        paths.extend(level.iter().map(|p| format!("{p}/")));
    }
    let inputs = [
        "",
        "/",
        "//",
        "/ab",
        "/AB/",
        "/ab//",
        "/ab/x",
        "/ab/x/",
        "/a.b",
        "/7",
        "/7/8",
        "/7/8/9",
        "/7//",
        "/ab/7/ab",
        "/café",
        "/CAFÉ",
        "/-~/",
        "/(x)",
        "/ab/ab/ab",
        "/ab/ab/ab/",
        "/x/y/z/w",
    ];
    let mut fast = 0;
    for path in &paths {
        for bits in 0..8u8 {
            let opts = Options::new(bits & 1 != 0, bits & 2 != 0, bits & 4 != 0);
            let Ok(p) = Pattern::express5(path, opts) else {
                continue;
            };
            if p.engine() == "backtrack" {
                continue;
            }
            fast += 1;
            let (slow, prefix) = program(p.source(), opts).unwrap();
            if p.engine() != "slash" {
                assert_eq!(p.literal_prefix(), prefix, "{path:?} {opts:?}");
            }
            let slow = Pattern {
                source: p.source.clone(),
                keys: p.keys.clone(),
                prefix,
                opts,
                engine: slow,
            };
            for input in inputs {
                let input = input.replace("ab", "Ab");
                for input in [input.clone(), input.to_ascii_lowercase()] {
                    let (a, b) = (p.matches(&input), slow.matches(&input));
                    // The slash fast path strips nothing, as router 2's.
                    if p.engine() == "slash" {
                        assert!(a.is_some_and(|m| m.len == 0));
                        continue;
                    }
                    assert_eq!(a, b, "{path:?} {opts:?} on {input:?}");
                }
            }
        }
    }
    assert!(fast > 2000, "{fast}");
}
