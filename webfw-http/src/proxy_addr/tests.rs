use super::*;

fn ip(s: &str) -> IpAddr {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn chain(trust: &Trust, socket: &str, xff: Option<&str>) -> (String, Vec<String>) {
    proxy_chain(trust, ip(socket), xff)
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn reference_examples_for_each_trust_setting() {
    let xff = Some("1.1.1.1, 2.2.2.2");
    let both = strings(&["1.1.1.1", "2.2.2.2"]);
    let last = strings(&["2.2.2.2"]);
    assert_eq!(
        chain(&Trust::none(), "127.0.0.1", xff),
        ("127.0.0.1".into(), vec![])
    );
    assert_eq!(
        chain(&Trust::hops(1), "127.0.0.1", xff),
        ("2.2.2.2".into(), last.clone())
    );
    assert_eq!(
        chain(&Trust::hops(2), "127.0.0.1", xff),
        ("1.1.1.1".into(), both.clone())
    );
    assert_eq!(
        chain(&Trust::all(), "127.0.0.1", xff),
        ("1.1.1.1".into(), both.clone())
    );
    let listed = Trust::parse("loopback, 2.2.2.2").unwrap();
    assert_eq!(chain(&listed, "127.0.0.1", xff), ("1.1.1.1".into(), both));
    let loopback = Trust::parse("loopback").unwrap();
    assert_eq!(chain(&loopback, "127.0.0.1", xff), ("2.2.2.2".into(), last));
}

/// Rows produced by Express 4.22.3 `compileTrust` + proxy-addr 2.0.8 on Node 20:
/// (setting, socket address, X-Forwarded-For, req.ip, req.ips).
#[test]
fn chains_match_express_for_settings_sockets_and_headers() {
    #[allow(clippy::type_complexity)]
    let rows: Vec<(Trust, &str, Option<&str>, &str, &[&str])> = vec![
        (Trust::none(), "127.0.0.1", None, "127.0.0.1", &[]),
        (
            Trust::none(),
            "127.0.0.1",
            Some("1.1.1.1, 2.2.2.2"),
            "127.0.0.1",
            &[],
        ),
        (
            Trust::none(),
            "127.0.0.1",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "127.0.0.1",
            &[],
        ),
        (
            Trust::none(),
            "127.0.0.1",
            Some("unknown, 10.0.0.2"),
            "127.0.0.1",
            &[],
        ),
        (
            Trust::none(),
            "127.0.0.1",
            Some("1.1.1.1, unknown"),
            "127.0.0.1",
            &[],
        ),
        (
            Trust::none(),
            "127.0.0.1",
            Some("a b,  c  "),
            "127.0.0.1",
            &[],
        ),
        (
            Trust::none(),
            "127.0.0.1",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "127.0.0.1",
            &[],
        ),
        (
            Trust::none(),
            "::ffff:127.0.0.1",
            None,
            "::ffff:127.0.0.1",
            &[],
        ),
        (
            Trust::none(),
            "::ffff:127.0.0.1",
            Some("1.1.1.1, 2.2.2.2"),
            "::ffff:127.0.0.1",
            &[],
        ),
        (
            Trust::none(),
            "::ffff:127.0.0.1",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "::ffff:127.0.0.1",
            &[],
        ),
        (
            Trust::none(),
            "::ffff:127.0.0.1",
            Some("unknown, 10.0.0.2"),
            "::ffff:127.0.0.1",
            &[],
        ),
        (
            Trust::none(),
            "::ffff:127.0.0.1",
            Some("1.1.1.1, unknown"),
            "::ffff:127.0.0.1",
            &[],
        ),
        (
            Trust::none(),
            "::ffff:127.0.0.1",
            Some("a b,  c  "),
            "::ffff:127.0.0.1",
            &[],
        ),
        (
            Trust::none(),
            "::ffff:127.0.0.1",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "::ffff:127.0.0.1",
            &[],
        ),
        (Trust::none(), "8.8.8.8", None, "8.8.8.8", &[]),
        (
            Trust::none(),
            "8.8.8.8",
            Some("1.1.1.1, 2.2.2.2"),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::none(),
            "8.8.8.8",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::none(),
            "8.8.8.8",
            Some("unknown, 10.0.0.2"),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::none(),
            "8.8.8.8",
            Some("1.1.1.1, unknown"),
            "8.8.8.8",
            &[],
        ),
        (Trust::none(), "8.8.8.8", Some("a b,  c  "), "8.8.8.8", &[]),
        (
            Trust::none(),
            "8.8.8.8",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "8.8.8.8",
            &[],
        ),
        (Trust::hops(1), "127.0.0.1", None, "127.0.0.1", &[]),
        (
            Trust::hops(1),
            "127.0.0.1",
            Some("1.1.1.1, 2.2.2.2"),
            "2.2.2.2",
            &["2.2.2.2"],
        ),
        (
            Trust::hops(1),
            "127.0.0.1",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "2.2.2.2",
            &["2.2.2.2"],
        ),
        (
            Trust::hops(1),
            "127.0.0.1",
            Some("unknown, 10.0.0.2"),
            "10.0.0.2",
            &["10.0.0.2"],
        ),
        (
            Trust::hops(1),
            "127.0.0.1",
            Some("1.1.1.1, unknown"),
            "unknown",
            &["unknown"],
        ),
        (Trust::hops(1), "127.0.0.1", Some("a b,  c  "), "c", &["c"]),
        (
            Trust::hops(1),
            "127.0.0.1",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "10.0.0.9",
            &["10.0.0.9"],
        ),
        (
            Trust::hops(1),
            "::ffff:127.0.0.1",
            None,
            "::ffff:127.0.0.1",
            &[],
        ),
        (
            Trust::hops(1),
            "::ffff:127.0.0.1",
            Some("1.1.1.1, 2.2.2.2"),
            "2.2.2.2",
            &["2.2.2.2"],
        ),
        (
            Trust::hops(1),
            "::ffff:127.0.0.1",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "2.2.2.2",
            &["2.2.2.2"],
        ),
        (
            Trust::hops(1),
            "::ffff:127.0.0.1",
            Some("unknown, 10.0.0.2"),
            "10.0.0.2",
            &["10.0.0.2"],
        ),
        (
            Trust::hops(1),
            "::ffff:127.0.0.1",
            Some("1.1.1.1, unknown"),
            "unknown",
            &["unknown"],
        ),
        (
            Trust::hops(1),
            "::ffff:127.0.0.1",
            Some("a b,  c  "),
            "c",
            &["c"],
        ),
        (
            Trust::hops(1),
            "::ffff:127.0.0.1",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "10.0.0.9",
            &["10.0.0.9"],
        ),
        (Trust::hops(1), "8.8.8.8", None, "8.8.8.8", &[]),
        (
            Trust::hops(1),
            "8.8.8.8",
            Some("1.1.1.1, 2.2.2.2"),
            "2.2.2.2",
            &["2.2.2.2"],
        ),
        (
            Trust::hops(1),
            "8.8.8.8",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "2.2.2.2",
            &["2.2.2.2"],
        ),
        (
            Trust::hops(1),
            "8.8.8.8",
            Some("unknown, 10.0.0.2"),
            "10.0.0.2",
            &["10.0.0.2"],
        ),
        (
            Trust::hops(1),
            "8.8.8.8",
            Some("1.1.1.1, unknown"),
            "unknown",
            &["unknown"],
        ),
        (Trust::hops(1), "8.8.8.8", Some("a b,  c  "), "c", &["c"]),
        (
            Trust::hops(1),
            "8.8.8.8",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "10.0.0.9",
            &["10.0.0.9"],
        ),
        (Trust::hops(2), "127.0.0.1", None, "127.0.0.1", &[]),
        (
            Trust::hops(2),
            "127.0.0.1",
            Some("1.1.1.1, 2.2.2.2"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::hops(2),
            "127.0.0.1",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::hops(2),
            "127.0.0.1",
            Some("unknown, 10.0.0.2"),
            "unknown",
            &["unknown", "10.0.0.2"],
        ),
        (
            Trust::hops(2),
            "127.0.0.1",
            Some("1.1.1.1, unknown"),
            "1.1.1.1",
            &["1.1.1.1", "unknown"],
        ),
        (
            Trust::hops(2),
            "127.0.0.1",
            Some("a b,  c  "),
            "a b",
            &["a b", "c"],
        ),
        (
            Trust::hops(2),
            "127.0.0.1",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "127.0.0.1",
            &["127.0.0.1", "10.0.0.9"],
        ),
        (
            Trust::hops(2),
            "::ffff:127.0.0.1",
            None,
            "::ffff:127.0.0.1",
            &[],
        ),
        (
            Trust::hops(2),
            "::ffff:127.0.0.1",
            Some("1.1.1.1, 2.2.2.2"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::hops(2),
            "::ffff:127.0.0.1",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::hops(2),
            "::ffff:127.0.0.1",
            Some("unknown, 10.0.0.2"),
            "unknown",
            &["unknown", "10.0.0.2"],
        ),
        (
            Trust::hops(2),
            "::ffff:127.0.0.1",
            Some("1.1.1.1, unknown"),
            "1.1.1.1",
            &["1.1.1.1", "unknown"],
        ),
        (
            Trust::hops(2),
            "::ffff:127.0.0.1",
            Some("a b,  c  "),
            "a b",
            &["a b", "c"],
        ),
        (
            Trust::hops(2),
            "::ffff:127.0.0.1",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "127.0.0.1",
            &["127.0.0.1", "10.0.0.9"],
        ),
        (Trust::hops(2), "8.8.8.8", None, "8.8.8.8", &[]),
        (
            Trust::hops(2),
            "8.8.8.8",
            Some("1.1.1.1, 2.2.2.2"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::hops(2),
            "8.8.8.8",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::hops(2),
            "8.8.8.8",
            Some("unknown, 10.0.0.2"),
            "unknown",
            &["unknown", "10.0.0.2"],
        ),
        (
            Trust::hops(2),
            "8.8.8.8",
            Some("1.1.1.1, unknown"),
            "1.1.1.1",
            &["1.1.1.1", "unknown"],
        ),
        (
            Trust::hops(2),
            "8.8.8.8",
            Some("a b,  c  "),
            "a b",
            &["a b", "c"],
        ),
        (
            Trust::hops(2),
            "8.8.8.8",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "127.0.0.1",
            &["127.0.0.1", "10.0.0.9"],
        ),
        (Trust::hops(3), "127.0.0.1", None, "127.0.0.1", &[]),
        (
            Trust::hops(3),
            "127.0.0.1",
            Some("1.1.1.1, 2.2.2.2"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::hops(3),
            "127.0.0.1",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::hops(3),
            "127.0.0.1",
            Some("unknown, 10.0.0.2"),
            "unknown",
            &["unknown", "10.0.0.2"],
        ),
        (
            Trust::hops(3),
            "127.0.0.1",
            Some("1.1.1.1, unknown"),
            "1.1.1.1",
            &["1.1.1.1", "unknown"],
        ),
        (
            Trust::hops(3),
            "127.0.0.1",
            Some("a b,  c  "),
            "a b",
            &["a b", "c"],
        ),
        (
            Trust::hops(3),
            "127.0.0.1",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "3.3.3.3",
            &["3.3.3.3", "127.0.0.1", "10.0.0.9"],
        ),
        (
            Trust::hops(3),
            "::ffff:127.0.0.1",
            None,
            "::ffff:127.0.0.1",
            &[],
        ),
        (
            Trust::hops(3),
            "::ffff:127.0.0.1",
            Some("1.1.1.1, 2.2.2.2"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::hops(3),
            "::ffff:127.0.0.1",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::hops(3),
            "::ffff:127.0.0.1",
            Some("unknown, 10.0.0.2"),
            "unknown",
            &["unknown", "10.0.0.2"],
        ),
        (
            Trust::hops(3),
            "::ffff:127.0.0.1",
            Some("1.1.1.1, unknown"),
            "1.1.1.1",
            &["1.1.1.1", "unknown"],
        ),
        (
            Trust::hops(3),
            "::ffff:127.0.0.1",
            Some("a b,  c  "),
            "a b",
            &["a b", "c"],
        ),
        (
            Trust::hops(3),
            "::ffff:127.0.0.1",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "3.3.3.3",
            &["3.3.3.3", "127.0.0.1", "10.0.0.9"],
        ),
        (Trust::hops(3), "8.8.8.8", None, "8.8.8.8", &[]),
        (
            Trust::hops(3),
            "8.8.8.8",
            Some("1.1.1.1, 2.2.2.2"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::hops(3),
            "8.8.8.8",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::hops(3),
            "8.8.8.8",
            Some("unknown, 10.0.0.2"),
            "unknown",
            &["unknown", "10.0.0.2"],
        ),
        (
            Trust::hops(3),
            "8.8.8.8",
            Some("1.1.1.1, unknown"),
            "1.1.1.1",
            &["1.1.1.1", "unknown"],
        ),
        (
            Trust::hops(3),
            "8.8.8.8",
            Some("a b,  c  "),
            "a b",
            &["a b", "c"],
        ),
        (
            Trust::hops(3),
            "8.8.8.8",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "3.3.3.3",
            &["3.3.3.3", "127.0.0.1", "10.0.0.9"],
        ),
        (Trust::all(), "127.0.0.1", None, "127.0.0.1", &[]),
        (
            Trust::all(),
            "127.0.0.1",
            Some("1.1.1.1, 2.2.2.2"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::all(),
            "127.0.0.1",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::all(),
            "127.0.0.1",
            Some("unknown, 10.0.0.2"),
            "unknown",
            &["unknown", "10.0.0.2"],
        ),
        (
            Trust::all(),
            "127.0.0.1",
            Some("1.1.1.1, unknown"),
            "1.1.1.1",
            &["1.1.1.1", "unknown"],
        ),
        (
            Trust::all(),
            "127.0.0.1",
            Some("a b,  c  "),
            "a b",
            &["a b", "c"],
        ),
        (
            Trust::all(),
            "127.0.0.1",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "3.3.3.3",
            &["3.3.3.3", "127.0.0.1", "10.0.0.9"],
        ),
        (
            Trust::all(),
            "::ffff:127.0.0.1",
            None,
            "::ffff:127.0.0.1",
            &[],
        ),
        (
            Trust::all(),
            "::ffff:127.0.0.1",
            Some("1.1.1.1, 2.2.2.2"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::all(),
            "::ffff:127.0.0.1",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::all(),
            "::ffff:127.0.0.1",
            Some("unknown, 10.0.0.2"),
            "unknown",
            &["unknown", "10.0.0.2"],
        ),
        (
            Trust::all(),
            "::ffff:127.0.0.1",
            Some("1.1.1.1, unknown"),
            "1.1.1.1",
            &["1.1.1.1", "unknown"],
        ),
        (
            Trust::all(),
            "::ffff:127.0.0.1",
            Some("a b,  c  "),
            "a b",
            &["a b", "c"],
        ),
        (
            Trust::all(),
            "::ffff:127.0.0.1",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "3.3.3.3",
            &["3.3.3.3", "127.0.0.1", "10.0.0.9"],
        ),
        (Trust::all(), "8.8.8.8", None, "8.8.8.8", &[]),
        (
            Trust::all(),
            "8.8.8.8",
            Some("1.1.1.1, 2.2.2.2"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::all(),
            "8.8.8.8",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::all(),
            "8.8.8.8",
            Some("unknown, 10.0.0.2"),
            "unknown",
            &["unknown", "10.0.0.2"],
        ),
        (
            Trust::all(),
            "8.8.8.8",
            Some("1.1.1.1, unknown"),
            "1.1.1.1",
            &["1.1.1.1", "unknown"],
        ),
        (
            Trust::all(),
            "8.8.8.8",
            Some("a b,  c  "),
            "a b",
            &["a b", "c"],
        ),
        (
            Trust::all(),
            "8.8.8.8",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "3.3.3.3",
            &["3.3.3.3", "127.0.0.1", "10.0.0.9"],
        ),
        (
            Trust::parse("loopback, 2.2.2.2").unwrap(),
            "127.0.0.1",
            None,
            "127.0.0.1",
            &[],
        ),
        (
            Trust::parse("loopback, 2.2.2.2").unwrap(),
            "127.0.0.1",
            Some("1.1.1.1, 2.2.2.2"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::parse("loopback, 2.2.2.2").unwrap(),
            "127.0.0.1",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::parse("loopback, 2.2.2.2").unwrap(),
            "127.0.0.1",
            Some("unknown, 10.0.0.2"),
            "10.0.0.2",
            &["10.0.0.2"],
        ),
        (
            Trust::parse("loopback, 2.2.2.2").unwrap(),
            "127.0.0.1",
            Some("1.1.1.1, unknown"),
            "unknown",
            &["unknown"],
        ),
        (
            Trust::parse("loopback, 2.2.2.2").unwrap(),
            "127.0.0.1",
            Some("a b,  c  "),
            "c",
            &["c"],
        ),
        (
            Trust::parse("loopback, 2.2.2.2").unwrap(),
            "127.0.0.1",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "10.0.0.9",
            &["10.0.0.9"],
        ),
        (
            Trust::parse("loopback, 2.2.2.2").unwrap(),
            "::ffff:127.0.0.1",
            None,
            "::ffff:127.0.0.1",
            &[],
        ),
        (
            Trust::parse("loopback, 2.2.2.2").unwrap(),
            "::ffff:127.0.0.1",
            Some("1.1.1.1, 2.2.2.2"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::parse("loopback, 2.2.2.2").unwrap(),
            "::ffff:127.0.0.1",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "1.1.1.1",
            &["1.1.1.1", "2.2.2.2"],
        ),
        (
            Trust::parse("loopback, 2.2.2.2").unwrap(),
            "::ffff:127.0.0.1",
            Some("unknown, 10.0.0.2"),
            "10.0.0.2",
            &["10.0.0.2"],
        ),
        (
            Trust::parse("loopback, 2.2.2.2").unwrap(),
            "::ffff:127.0.0.1",
            Some("1.1.1.1, unknown"),
            "unknown",
            &["unknown"],
        ),
        (
            Trust::parse("loopback, 2.2.2.2").unwrap(),
            "::ffff:127.0.0.1",
            Some("a b,  c  "),
            "c",
            &["c"],
        ),
        (
            Trust::parse("loopback, 2.2.2.2").unwrap(),
            "::ffff:127.0.0.1",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "10.0.0.9",
            &["10.0.0.9"],
        ),
        (
            Trust::parse("loopback, 2.2.2.2").unwrap(),
            "8.8.8.8",
            None,
            "8.8.8.8",
            &[],
        ),
        (
            Trust::parse("loopback, 2.2.2.2").unwrap(),
            "8.8.8.8",
            Some("1.1.1.1, 2.2.2.2"),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::parse("loopback, 2.2.2.2").unwrap(),
            "8.8.8.8",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::parse("loopback, 2.2.2.2").unwrap(),
            "8.8.8.8",
            Some("unknown, 10.0.0.2"),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::parse("loopback, 2.2.2.2").unwrap(),
            "8.8.8.8",
            Some("1.1.1.1, unknown"),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::parse("loopback, 2.2.2.2").unwrap(),
            "8.8.8.8",
            Some("a b,  c  "),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::parse("loopback, 2.2.2.2").unwrap(),
            "8.8.8.8",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::parse("loopback").unwrap(),
            "127.0.0.1",
            None,
            "127.0.0.1",
            &[],
        ),
        (
            Trust::parse("loopback").unwrap(),
            "127.0.0.1",
            Some("1.1.1.1, 2.2.2.2"),
            "2.2.2.2",
            &["2.2.2.2"],
        ),
        (
            Trust::parse("loopback").unwrap(),
            "127.0.0.1",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "2.2.2.2",
            &["2.2.2.2"],
        ),
        (
            Trust::parse("loopback").unwrap(),
            "127.0.0.1",
            Some("unknown, 10.0.0.2"),
            "10.0.0.2",
            &["10.0.0.2"],
        ),
        (
            Trust::parse("loopback").unwrap(),
            "127.0.0.1",
            Some("1.1.1.1, unknown"),
            "unknown",
            &["unknown"],
        ),
        (
            Trust::parse("loopback").unwrap(),
            "127.0.0.1",
            Some("a b,  c  "),
            "c",
            &["c"],
        ),
        (
            Trust::parse("loopback").unwrap(),
            "127.0.0.1",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "10.0.0.9",
            &["10.0.0.9"],
        ),
        (
            Trust::parse("loopback").unwrap(),
            "::ffff:127.0.0.1",
            None,
            "::ffff:127.0.0.1",
            &[],
        ),
        (
            Trust::parse("loopback").unwrap(),
            "::ffff:127.0.0.1",
            Some("1.1.1.1, 2.2.2.2"),
            "2.2.2.2",
            &["2.2.2.2"],
        ),
        (
            Trust::parse("loopback").unwrap(),
            "::ffff:127.0.0.1",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "2.2.2.2",
            &["2.2.2.2"],
        ),
        (
            Trust::parse("loopback").unwrap(),
            "::ffff:127.0.0.1",
            Some("unknown, 10.0.0.2"),
            "10.0.0.2",
            &["10.0.0.2"],
        ),
        (
            Trust::parse("loopback").unwrap(),
            "::ffff:127.0.0.1",
            Some("1.1.1.1, unknown"),
            "unknown",
            &["unknown"],
        ),
        (
            Trust::parse("loopback").unwrap(),
            "::ffff:127.0.0.1",
            Some("a b,  c  "),
            "c",
            &["c"],
        ),
        (
            Trust::parse("loopback").unwrap(),
            "::ffff:127.0.0.1",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "10.0.0.9",
            &["10.0.0.9"],
        ),
        (
            Trust::parse("loopback").unwrap(),
            "8.8.8.8",
            None,
            "8.8.8.8",
            &[],
        ),
        (
            Trust::parse("loopback").unwrap(),
            "8.8.8.8",
            Some("1.1.1.1, 2.2.2.2"),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::parse("loopback").unwrap(),
            "8.8.8.8",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::parse("loopback").unwrap(),
            "8.8.8.8",
            Some("unknown, 10.0.0.2"),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::parse("loopback").unwrap(),
            "8.8.8.8",
            Some("1.1.1.1, unknown"),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::parse("loopback").unwrap(),
            "8.8.8.8",
            Some("a b,  c  "),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::parse("loopback").unwrap(),
            "8.8.8.8",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::parse("loopback, 10.0.0.0/8").unwrap(),
            "127.0.0.1",
            None,
            "127.0.0.1",
            &[],
        ),
        (
            Trust::parse("loopback, 10.0.0.0/8").unwrap(),
            "127.0.0.1",
            Some("1.1.1.1, 2.2.2.2"),
            "2.2.2.2",
            &["2.2.2.2"],
        ),
        (
            Trust::parse("loopback, 10.0.0.0/8").unwrap(),
            "127.0.0.1",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "2.2.2.2",
            &["2.2.2.2"],
        ),
        (
            Trust::parse("loopback, 10.0.0.0/8").unwrap(),
            "127.0.0.1",
            Some("unknown, 10.0.0.2"),
            "unknown",
            &["unknown", "10.0.0.2"],
        ),
        (
            Trust::parse("loopback, 10.0.0.0/8").unwrap(),
            "127.0.0.1",
            Some("1.1.1.1, unknown"),
            "unknown",
            &["unknown"],
        ),
        (
            Trust::parse("loopback, 10.0.0.0/8").unwrap(),
            "127.0.0.1",
            Some("a b,  c  "),
            "c",
            &["c"],
        ),
        (
            Trust::parse("loopback, 10.0.0.0/8").unwrap(),
            "127.0.0.1",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "3.3.3.3",
            &["3.3.3.3", "127.0.0.1", "10.0.0.9"],
        ),
        (
            Trust::parse("loopback, 10.0.0.0/8").unwrap(),
            "::ffff:127.0.0.1",
            None,
            "::ffff:127.0.0.1",
            &[],
        ),
        (
            Trust::parse("loopback, 10.0.0.0/8").unwrap(),
            "::ffff:127.0.0.1",
            Some("1.1.1.1, 2.2.2.2"),
            "2.2.2.2",
            &["2.2.2.2"],
        ),
        (
            Trust::parse("loopback, 10.0.0.0/8").unwrap(),
            "::ffff:127.0.0.1",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "2.2.2.2",
            &["2.2.2.2"],
        ),
        (
            Trust::parse("loopback, 10.0.0.0/8").unwrap(),
            "::ffff:127.0.0.1",
            Some("unknown, 10.0.0.2"),
            "unknown",
            &["unknown", "10.0.0.2"],
        ),
        (
            Trust::parse("loopback, 10.0.0.0/8").unwrap(),
            "::ffff:127.0.0.1",
            Some("1.1.1.1, unknown"),
            "unknown",
            &["unknown"],
        ),
        (
            Trust::parse("loopback, 10.0.0.0/8").unwrap(),
            "::ffff:127.0.0.1",
            Some("a b,  c  "),
            "c",
            &["c"],
        ),
        (
            Trust::parse("loopback, 10.0.0.0/8").unwrap(),
            "::ffff:127.0.0.1",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "3.3.3.3",
            &["3.3.3.3", "127.0.0.1", "10.0.0.9"],
        ),
        (
            Trust::parse("loopback, 10.0.0.0/8").unwrap(),
            "8.8.8.8",
            None,
            "8.8.8.8",
            &[],
        ),
        (
            Trust::parse("loopback, 10.0.0.0/8").unwrap(),
            "8.8.8.8",
            Some("1.1.1.1, 2.2.2.2"),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::parse("loopback, 10.0.0.0/8").unwrap(),
            "8.8.8.8",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::parse("loopback, 10.0.0.0/8").unwrap(),
            "8.8.8.8",
            Some("unknown, 10.0.0.2"),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::parse("loopback, 10.0.0.0/8").unwrap(),
            "8.8.8.8",
            Some("1.1.1.1, unknown"),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::parse("loopback, 10.0.0.0/8").unwrap(),
            "8.8.8.8",
            Some("a b,  c  "),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::parse("loopback, 10.0.0.0/8").unwrap(),
            "8.8.8.8",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "8.8.8.8",
            &[],
        ),
        (Trust::hops(0), "127.0.0.1", None, "127.0.0.1", &[]),
        (
            Trust::hops(0),
            "127.0.0.1",
            Some("1.1.1.1, 2.2.2.2"),
            "127.0.0.1",
            &[],
        ),
        (
            Trust::hops(0),
            "127.0.0.1",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "127.0.0.1",
            &[],
        ),
        (
            Trust::hops(0),
            "127.0.0.1",
            Some("unknown, 10.0.0.2"),
            "127.0.0.1",
            &[],
        ),
        (
            Trust::hops(0),
            "127.0.0.1",
            Some("1.1.1.1, unknown"),
            "127.0.0.1",
            &[],
        ),
        (
            Trust::hops(0),
            "127.0.0.1",
            Some("a b,  c  "),
            "127.0.0.1",
            &[],
        ),
        (
            Trust::hops(0),
            "127.0.0.1",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "127.0.0.1",
            &[],
        ),
        (
            Trust::hops(0),
            "::ffff:127.0.0.1",
            None,
            "::ffff:127.0.0.1",
            &[],
        ),
        (
            Trust::hops(0),
            "::ffff:127.0.0.1",
            Some("1.1.1.1, 2.2.2.2"),
            "::ffff:127.0.0.1",
            &[],
        ),
        (
            Trust::hops(0),
            "::ffff:127.0.0.1",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "::ffff:127.0.0.1",
            &[],
        ),
        (
            Trust::hops(0),
            "::ffff:127.0.0.1",
            Some("unknown, 10.0.0.2"),
            "::ffff:127.0.0.1",
            &[],
        ),
        (
            Trust::hops(0),
            "::ffff:127.0.0.1",
            Some("1.1.1.1, unknown"),
            "::ffff:127.0.0.1",
            &[],
        ),
        (
            Trust::hops(0),
            "::ffff:127.0.0.1",
            Some("a b,  c  "),
            "::ffff:127.0.0.1",
            &[],
        ),
        (
            Trust::hops(0),
            "::ffff:127.0.0.1",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "::ffff:127.0.0.1",
            &[],
        ),
        (Trust::hops(0), "8.8.8.8", None, "8.8.8.8", &[]),
        (
            Trust::hops(0),
            "8.8.8.8",
            Some("1.1.1.1, 2.2.2.2"),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::hops(0),
            "8.8.8.8",
            Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::hops(0),
            "8.8.8.8",
            Some("unknown, 10.0.0.2"),
            "8.8.8.8",
            &[],
        ),
        (
            Trust::hops(0),
            "8.8.8.8",
            Some("1.1.1.1, unknown"),
            "8.8.8.8",
            &[],
        ),
        (Trust::hops(0), "8.8.8.8", Some("a b,  c  "), "8.8.8.8", &[]),
        (
            Trust::hops(0),
            "8.8.8.8",
            Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
            "8.8.8.8",
            &[],
        ),
    ];
    for (trust, socket, xff, want_ip, want_ips) in rows {
        let got = chain(&trust, socket, xff);
        assert_eq!(
            got,
            (want_ip.to_owned(), strings(want_ips)),
            "{trust:?} {socket} {xff:?}"
        );
    }
}

/// Rows produced by ipaddr.js 1.9.1 (`isValid` + `parse`).
#[test]
fn address_text_is_read_like_ipaddr_js() {
    let rows: &[(&str, Option<Ip>)] = &[
        ("127.0.0.1", Some(Ip::V4(0x7f000001))),
        ("127.1", None),
        ("2130706433", Some(Ip::V4(0x7f000001))),
        ("0x7f000001", Some(Ip::V4(0x7f000001))),
        ("0177.0.0.1", Some(Ip::V4(0x7f000001))),
        ("08.0.0.1", Some(Ip::V4(0x00000001))),
        ("0X1F.0.0.1", Some(Ip::V4(0x00000001))),
        ("0x1F.0.0.1", Some(Ip::V4(0x1f000001))),
        ("0X1F", Some(Ip::V4(0x00000000))),
        ("4294967295", Some(Ip::V4(0xffffffff))),
        ("4294967296", None),
        ("99999999999999999999999", None),
        ("256.0.0.1", None),
        ("1.2.3.4.", None),
        ("", None),
        (".", None),
        ("1..2.3", None),
        ("::", Some(Ip::V6(0x00000000000000000000000000000000))),
        ("::1", Some(Ip::V6(0x00000000000000000000000000000001))),
        (
            "::ffff:127.0.0.1",
            Some(Ip::V6(0x00000000000000000000ffff7f000001)),
        ),
        ("::1.2.3.4", None),
        ("1::1.2.3.4", None),
        (
            "::ffff:1.2.3.4%eth0",
            Some(Ip::V6(0x00000000000000000000ffff01020304)),
        ),
        (
            "fe80::1%eth0",
            Some(Ip::V6(0xfe800000000000000000000000000001)),
        ),
        ("fe80::1%", None),
        ("fe80::1%a-b", None),
        ("fe80::1%eth0%x", None),
        (
            "1:2:3:4:5:6:7:8:",
            Some(Ip::V6(0x00010002000300040005000600070008)),
        ),
        (
            "::1:2:3:4:5:6:7:8",
            Some(Ip::V6(0x00010002000300040005000600070008)),
        ),
        (
            "1:2:3:4:5:6:7::",
            Some(Ip::V6(0x00010002000300040005000600070000)),
        ),
        (
            "1:2:3:4:5:6:7:8::",
            Some(Ip::V6(0x00010002000300040005000600070008)),
        ),
        (
            "1:2:3:4:5:6:7:8",
            Some(Ip::V6(0x00010002000300040005000600070008)),
        ),
        ("1:2:3:4:5:6:7:8:9", None),
        ("1:2:3:4:5:6:7", None),
        (":1::", None),
        ("1:::2", None),
        ("::::", None),
        ("::1:", None),
        ("12345::", None),
        (
            "0000000000001::",
            Some(Ip::V6(0x00010000000000000000000000000000)),
        ),
        ("ABCD::EF", Some(Ip::V6(0xabcd00000000000000000000000000ef))),
        (
            "1:2:3:4:5:6:1.2.3.4",
            Some(Ip::V6(0x00010002000300040005000601020304)),
        ),
        (
            "1:2:3:4:5:6:0x10.010.08.1",
            Some(Ip::V6(0x000100020003000400050006100a0801)),
        ),
        ("::ffff:1.2.3.256", None),
        (
            "1::2:3.4.5.6",
            Some(Ip::V6(0x00010000000000000000000203040506)),
        ),
        (
            "0::ffff:1.2.3.4",
            Some(Ip::V6(0x00000000000000000000ffff01020304)),
        ),
        (
            "a:b:c:d:e:f:1.2.3.4",
            Some(Ip::V6(0x000a000b000c000d000e000f01020304)),
        ),
        (
            "::ffff:0x1.2.3.4",
            Some(Ip::V6(0x00000000000000000000ffff01020304)),
        ),
        ("::ffff:1.2.3", None),
        ("::ffff:1.2.3.4.5", None),
        (":::1.2.3.4", None),
        ("::1::1.2.3.4", None),
        ("1:2:3:4:5:6:7:1.2.3.4", None),
        (" 1.2.3.4", None),
        ("1.2.3.4 ", None),
        ("unknown", None),
        ("00000000000000000000001", Some(Ip::V4(0x00000001))),
        ("0.0.0.0", Some(Ip::V4(0x00000000))),
        (
            "::ffff:127.0.0.1%1",
            Some(Ip::V6(0x00000000000000000000ffff7f000001)),
        ),
        ("1.2.3.0x", None),
        ("0x", None),
        ("1e3", None),
        ("１.2.3.4", None),
        (
            "::FFFF:7F00:1",
            Some(Ip::V6(0x00000000000000000000ffff7f000001)),
        ),
        (
            "0:0:0:0:0:ffff:127.0.0.1",
            Some(Ip::V6(0x00000000000000000000ffff7f000001)),
        ),
        (
            "::0:ffff:1.2.3.4",
            Some(Ip::V6(0x00000000000000000000ffff01020304)),
        ),
        ("::ffff::1.2.3.4", None),
        ("g::1", None),
        ("::g", None),
        ("1.2.3.4:80", None),
        ("[::1]", None),
        ("0x100000000", None),
        ("017777777777", Some(Ip::V4(0x7fffffff))),
        ("040000000000", None),
        ("0xFFFFFFFF", Some(Ip::V4(0xffffffff))),
        ("0.0.0.00x1", None),
        ("09", Some(Ip::V4(0x00000000))),
        ("0", Some(Ip::V4(0x00000000))),
        ("fe80::1%", None),
        ("::ffff:1.2.3.4%", None),
    ];
    for (text, want) in rows {
        assert_eq!(parse_ip(text), *want, "{text:?}");
    }
}

/// Rows produced by `proxyaddr.compile` (None = accepted).
#[test]
fn list_entries_are_validated_like_proxy_addr() {
    let rows: &[(&[&str], Option<&str>)] = &[
        (&["loopback"], None),
        (&["linklocal", "uniquelocal"], None),
        (
            &["10.0.0.1/33"],
            Some("invalid range on address: 10.0.0.1/33"),
        ),
        (
            &["10.0.0.1/0"],
            Some("invalid range on address: 10.0.0.1/0"),
        ),
        (&["10.0.0.1/"], Some("invalid range on address: 10.0.0.1/")),
        (
            &["10.0.0.1/abc"],
            Some("invalid range on address: 10.0.0.1/abc"),
        ),
        (&["10.0.0.1/255.255.255.0"], None),
        (
            &["10.0.0.1/255.0.255.0"],
            Some("invalid range on address: 10.0.0.1/255.0.255.0"),
        ),
        (
            &["10.0.0.1/0.0.0.0"],
            Some("invalid range on address: 10.0.0.1/0.0.0.0"),
        ),
        (&["10.0.0.1/255.255.255.255"], None),
        (&["10.0.0.1/0xffffff00"], None),
        (
            &["10.0.0.1/::"],
            Some("invalid range on address: 10.0.0.1/::"),
        ),
        (
            &["::1/255.255.255.0"],
            Some("invalid range on address: ::1/255.255.255.0"),
        ),
        (&["::1/128"], None),
        (&["::1/129"], Some("invalid range on address: ::1/129")),
        (&["::1/0128"], None),
        (
            &["::1/99999999999999999999"],
            Some("invalid range on address: ::1/99999999999999999999"),
        ),
        (&["bogus"], Some("invalid IP address: bogus")),
        (&["bogus/8"], Some("invalid IP address: bogus")),
        (&[""], Some("invalid IP address: ")),
        (&["1.2.3.4/24/5"], Some("invalid IP address: 1.2.3.4/24")),
        (&["Loopback"], Some("invalid IP address: Loopback")),
        (&[" 127.0.0.1"], Some("invalid IP address:  127.0.0.1")),
        (&["::ffff:127.0.0.1"], None),
        (&["::ffff:127.0.0.1/104"], None),
        (&["fe80::1%eth0/64"], None),
        (
            &["10.0.0.1/+8"],
            Some("invalid range on address: 10.0.0.1/+8"),
        ),
        (
            &["10.0.0.1/8 "],
            Some("invalid range on address: 10.0.0.1/8 "),
        ),
        (&["2130706433/8"], None),
    ];
    for (entries, want) in rows {
        let got = Trust::list(entries).err().map(|e| e.to_string());
        assert_eq!(got.as_deref(), *want, "{entries:?}");
    }
}

/// Rows produced by Express `compileTrust` on strings (None = accepted).
#[test]
fn string_settings_are_split_and_trimmed_like_express() {
    let rows: &[(&str, Option<&str>)] = &[
        ("loopback, 2.2.2.2", None),
        ("loopback,", Some("invalid IP address: ")),
        ("", Some("invalid IP address: ")),
        (" loopback ", None),
        ("loopback,,10.0.0.1", Some("invalid IP address: ")),
        ("\u{feff}127.0.0.1", None),
        ("10.0.0.1\u{85}", Some("invalid IP address: 10.0.0.1\u{85}")),
    ];
    for (setting, want) in rows {
        let got = Trust::parse(setting).err().map(|e| e.to_string());
        assert_eq!(got.as_deref(), *want, "{setting:?}");
    }
}

/// Rows produced by proxy-addr 2.0.8 compiled trust functions at hop 0.
#[test]
fn subnet_matching_follows_proxy_addr_family_rules() {
    let addrs: &[&str] = &[
        "127.0.0.1",
        "::1",
        "::ffff:127.0.0.1",
        "10.0.0.1",
        "::ffff:10.0.0.1",
        "::ffff:a00:1",
        "10.0.0.2",
        "::a00:1",
        "1.2.3.4",
        "::ffff:1.2.3.4",
        "fe80::1%eth0",
        "2130706433",
        "0x0a000001",
        "unknown",
        "",
        "::1.2.3.4",
        "fc00::1",
        "192.168.1.1",
        "::ffff:0:1",
    ];
    let rows: &[(&[&str], [u8; 19])] = &[
        (
            &["loopback"],
            [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
        ),
        (
            &["10.0.0.1"],
            [0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0],
        ),
        (
            &["::ffff:10.0.0.1"],
            [0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0],
        ),
        (
            &["::ffff:10.0.0.0/104"],
            [0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0],
        ),
        (
            &["::ffff:0:0/96"],
            [1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 0, 0, 0, 1, 1],
        ),
        (
            &["::ffff:0:0/95"],
            [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        ),
        (
            &["::/1"],
            [0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        ),
        (
            &["::1"],
            [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        ),
        (
            &["10.0.0.0/8", "::ffff:a00:0/120"],
            [0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0],
        ),
        (
            &["fe80::/10"],
            [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0],
        ),
        (
            &["0.0.0.0/1"],
            [1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 0, 0, 0, 0, 1],
        ),
        (
            &["2130706433"],
            [1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
        ),
        (
            &["uniquelocal"],
            [0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0],
        ),
        (
            &["::/1", "10.0.0.0/8"],
            [0, 1, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0],
        ),
    ];
    for (entries, want) in rows {
        let trust = Trust::list(entries).unwrap();
        for (addr, want) in addrs.iter().zip(want) {
            assert_eq!(
                trust.trusts_text(addr, 0),
                *want == 1,
                "{entries:?} {addr:?}"
            );
        }
    }
}

#[test]
fn socket_text_matches_node_formatting() {
    // Pairs produced by Node 20 (`net.SocketAddress`, libuv inet_ntop).
    let rows = [
        ("::", "::"),
        ("::1", "::1"),
        ("1::", "1::"),
        ("::ffff:1.2.3.4", "::ffff:1.2.3.4"),
        ("::102:304", "::1.2.3.4"),
        ("::0.1.0.1", "::0.1.0.1"),
        ("::102", "::102"),
        ("1:0:0:1::", "1:0:0:1::"),
        ("0:0:0:0:0:1:0:0", "::1:0:0"),
        ("1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"),
        ("1:0:0:2:0:0:0:3", "1:0:0:2::3"),
        ("1:0:0:2:0:0:3:0", "1::2:0:0:3:0"),
        ("fe80::abcd:ef01", "fe80::abcd:ef01"),
        ("0:0:0:0:0:ffff:0:0", "::ffff:0.0.0.0"),
        ("0:0:1:0:0:0:0:0", "0:0:1::"),
        ("0:0:0:0:ffff:0:1:2", "::ffff:0:1:2"),
        ("abcd:0:1::", "abcd:0:1::"),
        ("127.0.0.1", "127.0.0.1"),
    ];
    for (addr, want) in rows {
        assert_eq!(node_ip_string(ip(addr)), want, "{addr}");
    }
}

#[test]
fn mapped_socket_address_is_trusted_as_ipv4_and_reported_as_is() {
    let trust = Trust::parse("loopback").unwrap();
    assert!(trust.trusts(ip("::ffff:127.0.0.1"), 0));
    let got = chain(&trust, "::ffff:127.0.0.1", Some("1.1.1.1"));
    assert_eq!(got, ("1.1.1.1".into(), strings(&["1.1.1.1"])));
    let got = chain(&Trust::none(), "::ffff:127.0.0.1", Some("1.1.1.1"));
    assert_eq!(got, ("::ffff:127.0.0.1".into(), vec![]));
}

#[test]
fn ipv4_compatible_socket_is_untrusted_by_lists_like_node() {
    // Node reports it as `::1.2.3.4`, which ipaddr.js cannot parse.
    let trust = Trust::parse("::/1").unwrap();
    assert!(!trust.trusts(ip("::102:304"), 0));
    assert!(trust.trusts(ip("::1"), 0));
    assert_eq!(
        chain(&trust, "::102:304", Some("9.9.9.9")),
        ("::1.2.3.4".into(), vec![])
    );
}

#[test]
fn ipv6_loopback_socket_is_trusted_by_loopback() {
    let trust = Trust::parse("loopback").unwrap();
    assert_eq!(
        chain(&trust, "::1", Some("1.1.1.1, 2.2.2.2")),
        ("2.2.2.2".into(), strings(&["2.2.2.2"]))
    );
}

#[test]
fn non_ip_entries_stay_in_the_chain_as_text() {
    let got = chain(&Trust::all(), "127.0.0.1", Some("unknown, 10.0.0.2"));
    assert_eq!(got, ("unknown".into(), strings(&["unknown", "10.0.0.2"])));
    let loopback = Trust::parse("loopback, 10.0.0.0/8").unwrap();
    let got = chain(&loopback, "127.0.0.1", Some("1.1.1.1, unknown, 10.0.0.2"));
    assert_eq!(got, ("unknown".into(), strings(&["unknown", "10.0.0.2"])));
}

#[test]
fn hop_count_larger_than_chain_takes_the_client() {
    let got = chain(&Trust::hops(10), "127.0.0.1", Some("1.1.1.1, 2.2.2.2"));
    assert_eq!(got, ("1.1.1.1".into(), strings(&["1.1.1.1", "2.2.2.2"])));
}

#[test]
fn missing_or_empty_header_gives_the_socket_address() {
    for xff in [None, Some(""), Some(" , ,"), Some(" ")] {
        assert_eq!(
            chain(&Trust::all(), "10.0.0.1", xff),
            ("10.0.0.1".into(), vec![]),
            "{xff:?}"
        );
    }
}

#[test]
fn forwarded_entries_trim_only_spaces() {
    let got = chain(&Trust::all(), "127.0.0.1", Some("\t1.1.1.1 , a b "));
    assert_eq!(got, ("\t1.1.1.1".into(), strings(&["\t1.1.1.1", "a b"])));
}

#[test]
fn all_addrs_lists_socket_then_entries_right_to_left() {
    assert_eq!(all_addrs(ip("::ffff:10.0.0.1"), None), ["::ffff:10.0.0.1"]);
    assert_eq!(
        all_addrs(ip("127.0.0.1"), Some(" ,1.1.1.1,, x ,2.2.2.2 ")),
        ["127.0.0.1", "2.2.2.2", "x", "1.1.1.1"]
    );
}

#[test]
fn function_trust_gets_addresses_and_hop_indexes() {
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    let trust = Trust::func(move |addr, hop| {
        log.lock().map(|mut v| v.push((addr, hop))).ok();
        hop < 2
    });
    let got = chain(&trust, "127.0.0.1", Some("3.3.3.3, 2.2.2.2, 1.1.1.1"));
    assert_eq!(got, ("2.2.2.2".into(), strings(&["2.2.2.2", "1.1.1.1"])));
    let calls = seen.lock().map(|v| v.clone()).unwrap_or_default();
    assert_eq!(
        calls,
        [(ip("127.0.0.1"), 0), (ip("1.1.1.1"), 1), (ip("2.2.2.2"), 2)]
    );
}

#[test]
fn function_trust_is_not_asked_about_non_ip_entries() {
    let trust = Trust::func(|_, _| true);
    let got = chain(&trust, "127.0.0.1", Some("1.1.1.1, unknown, 2.2.2.2"));
    assert_eq!(got, ("unknown".into(), strings(&["unknown", "2.2.2.2"])));
    // Lenient ipaddr.js forms are handed over as real addresses.
    let trust = Trust::func(|addr, _| addr == ip("127.0.0.1"));
    assert!(trust.trusts_text("2130706433", 1));
}

#[test]
fn lenient_numeric_forms_in_headers_match_subnets() {
    let trust = Trust::parse("loopback").unwrap();
    let got = chain(&trust, "127.0.0.1", Some("1.1.1.1, 0x7f000001"));
    assert_eq!(got, ("1.1.1.1".into(), strings(&["1.1.1.1", "0x7f000001"])));
}

#[test]
fn named_ranges_cover_their_subnets() {
    let linklocal = Trust::parse("linklocal").unwrap();
    assert!(linklocal.trusts(ip("169.254.1.1"), 0));
    assert!(linklocal.trusts(ip("febf::1"), 0));
    assert!(!linklocal.trusts(ip("fec0::1"), 0));
    let uniquelocal = Trust::parse("uniquelocal").unwrap();
    for a in [
        "10.255.0.1",
        "172.16.0.1",
        "172.31.255.255",
        "192.168.0.1",
        "fdff::1",
    ] {
        assert!(uniquelocal.trusts(ip(a), 0), "{a}");
    }
    for a in ["172.32.0.1", "11.0.0.1", "fe00::1"] {
        assert!(!uniquelocal.trusts(ip(a), 0), "{a}");
    }
}

#[test]
fn netmask_and_prefix_forms_are_equivalent() {
    let a = Trust::list(&["192.168.0.0/255.255.0.0"]).unwrap();
    let b = Trust::list(&["192.168.0.0/16"]).unwrap();
    for addr in ["192.168.3.4", "192.169.0.1"] {
        assert_eq!(a.trusts(ip(addr), 0), b.trusts(ip(addr), 0), "{addr}");
    }
    assert!(a.trusts(ip("192.168.3.4"), 0));
}

#[test]
fn errors_display_proxy_addr_messages() {
    assert_eq!(
        TrustError::InvalidIp("x".into()).to_string(),
        "invalid IP address: x"
    );
    assert_eq!(
        TrustError::InvalidRange("1.2.3.4/0".into()).to_string(),
        "invalid range on address: 1.2.3.4/0"
    );
}

#[test]
fn is_none_only_for_settings_that_trust_nothing() {
    assert!(Trust::none().is_none());
    assert!(Trust::default().is_none());
    assert!(Trust::hops(0).is_none());
    assert!(Trust::list(&[]).unwrap().is_none());
    assert!(!Trust::all().is_none());
    assert!(!Trust::hops(1).is_none());
    assert!(!Trust::parse("loopback").unwrap().is_none());
    assert!(!Trust::func(|_, _| false).is_none());
}

#[test]
fn trust_is_cloneable_and_debuggable() {
    let t = Trust::func(|_, _| true);
    let c = t.clone();
    assert!(c.trusts(ip("1.1.1.1"), 3));
    assert_eq!(format!("{t:?}"), "Trust(Func(..))");
    assert_eq!(format!("{:?}", Trust::hops(2)), "Trust(Hops(2))");
}

#[test]
fn hops_and_all_trust_any_text() {
    assert!(Trust::hops(2).trusts_text("not an ip", 1));
    assert!(!Trust::hops(2).trusts_text("1.1.1.1", 2));
    assert!(Trust::all().trusts_text("", 9));
    assert!(!Trust::none().trusts_text("127.0.0.1", 0));
}
