//! webfw's logger against morgan 1.12.1 itself: `tests/oracle/morgan_lines.json`
//! holds the lines morgan writes for a table of requests and formats
//! (regenerate with `node tests/oracle/morgan_lines.js`). Every format
//! is checked twice, compiled at run time and by `logger!`, so this is also
//! the equivalence test of the two paths.

use std::time::{Duration, Instant, UNIX_EPOCH};

use http::{HeaderName, HeaderValue, Method};
use serde_json::Value;
use webfw::logger::{self, __private::Cx, Format, logger_token};
use webfw::{Request, Response};

#[logger_token("trace")]
fn trace(req: &Request, _res: &Response, _arg: Option<&str>) -> Option<String> {
    // Node reads header bytes as Latin-1.
    let v: Option<String> = req
        .headers()
        .get("x-trace")
        .map(|v| v.as_bytes().iter().map(|&b| char::from(b)).collect());
    Some(
        v.filter(|v| !v.is_empty())
            .unwrap_or_else(|| "no-trace".to_owned()),
    )
}

#[logger_token("echo")]
fn echo(_req: &Request, _res: &Response, arg: Option<&str>) -> Option<String> {
    arg.map(|a| format!("arg={a}\n"))
}

#[logger_token("empty")]
fn empty(_req: &Request, _res: &Response, _arg: Option<&str>) -> Option<String> {
    Some(String::new())
}

/// The oracle's formats, each compiled by `logger!` (the order must match).
macro_rules! compiled {
    ($($f:literal),* $(,)?) => {
        vec![$(($f, webfw::logger!($f, tokens = [trace, echo, empty]).format().clone())),*]
    };
}

fn macro_formats() -> Vec<(&'static str, Format)> {
    compiled![
        "combined",
        "common",
        "default",
        "short",
        "tiny",
        "dev",
        ":method :url :status :res[content-length] :res[content-type] \":req[user-agent]\" :req[accept] :trace [:date[iso]] [:date[web]] :response-time[1] ms :total-time[0] ms HTTP/:http-version :remote-addr :remote-user \":referrer\"",
        ":req[x-a] | :req[cookie] | :req[user-agent] | :req[referer] | :req[x-latin] | :res[set-cookie] | :res[x-multi] | :res[X-Json]",
        ":response-time :response-time[0] :response-time[5] :total-time :total-time[2] :total-time[0]",
        "::method :x :url: \\ \" \t|:status|:date[clf]|:date",
        ":echo[a\"b] :echo[x\\y] :echo :empty :trace",
        "",
    ]
}

/// A header value from the oracle: one char per byte (Latin-1), trimmed of
/// spaces and tabs as the HTTP parser does.
fn bytes(v: &Value) -> Vec<u8> {
    let s: Vec<u8> = v
        .as_str()
        .unwrap()
        .chars()
        .map(|c| c as u32 as u8)
        .collect();
    let start = s
        .iter()
        .position(|b| *b != b' ' && *b != b'\t')
        .unwrap_or(s.len());
    let end = s
        .iter()
        .rposition(|b| *b != b' ' && *b != b'\t')
        .map_or(start, |e| e + 1);
    s[start..end].to_vec()
}

struct Case {
    req: Request,
    res: Response,
    cx: Cx,
}

fn build(c: &Value, now_ms: u64) -> Case {
    let method = Method::from_bytes(c["method"].as_str().unwrap().as_bytes()).unwrap();
    let mut req = webfw::testing::request(method, c["url"].as_str().unwrap());
    for h in c["headers"].as_array().unwrap() {
        let name = HeaderName::from_bytes(h[0].as_str().unwrap().as_bytes()).unwrap();
        req.headers_mut()
            .append(name, HeaderValue::from_bytes(&bytes(&h[1])).unwrap());
    }
    let mut res = webfw::testing::response(&req);
    res.on_finish(|_, _| {});
    res.status(c["status"].as_u64().unwrap() as u16);
    for h in c["resHeaders"].as_array().unwrap() {
        let name = HeaderName::from_bytes(h[0].as_str().unwrap().as_bytes()).unwrap();
        res.headers_mut()
            .append(name, HeaderValue::from_bytes(&bytes(&h[1])).unwrap());
    }
    let sent = c["sent"].as_bool().unwrap();
    if sent {
        res.end().unwrap();
    }
    let base = Instant::now();
    let head = c["headNs"].as_u64().filter(|_| sent);
    let total = c["totalNs"].as_u64().unwrap();
    let cx = Cx {
        start: Some(base),
        head: head.map(|ns| base + Duration::from_nanos(ns)),
        now: Some((
            UNIX_EPOCH + Duration::from_millis(now_ms),
            base + Duration::from_nanos(total),
        )),
    };
    Case { req, res, cx }
}

#[test]
fn lines_equal_morgan_1_12_on_both_paths() {
    let oracle: Value =
        serde_json::from_str(include_str!("../oracle/morgan_lines.json")).expect("oracle json");
    logger::register::<trace>();
    logger::register::<echo>();
    logger::register::<empty>();
    let now_ms = oracle["now_ms"].as_u64().unwrap();
    let formats = oracle["formats"].as_array().unwrap();
    let compiled = macro_formats();
    assert_eq!(formats.len(), compiled.len());
    let cases: Vec<Case> = oracle["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| build(c, now_ms))
        .collect();
    let mut checked = 0;
    for (fi, fmt) in formats.iter().enumerate() {
        let fmt = fmt.as_str().unwrap();
        let (lit, by_macro) = &compiled[fi];
        assert_eq!(*lit, fmt, "format list out of sync with the oracle");
        if fmt == "dev" && logger::__private::no_color() {
            continue;
        }
        let at_run_time = logger::logger(fmt, ()).format().clone();
        for (ci, case) in cases.iter().enumerate() {
            let expected = oracle["lines"][fi][ci].as_str().map(str::to_owned);
            let tokens = logger::__private::tokens_with(case.cx);
            let run = at_run_time.call(&tokens, &case.req, &case.res);
            let mac = by_macro.call(&tokens, &case.req, &case.res);
            let name = oracle["cases"][ci]["name"].as_str().unwrap();
            assert_eq!(run, expected, "run-time format {fmt:?}, case {name:?}");
            assert_eq!(mac, expected, "logger! format {fmt:?}, case {name:?}");
            checked += 2;
        }
    }
    assert!(checked >= 180, "{checked}");
}
