//! Unhandled errors as Express reports them in development: the class name
//! `http-errors` gives (`ForbiddenError`), the cause chain and a backtrace
//! when one was captured, on the page and on standard error; the access-log
//! line before the error's stack (finalhandler reports on the next tick);
//! Express's one-time deprecation warnings, once per call site, in depd's
//! format.
//!
//! Standard error is the process's own, so each scenario runs in a child:
//! this test binary again, with `ERROR_REPORTING_CHILD` naming the scenario.

use crate::common;

use common::{TestServer, error_page};
use webfw::logger::{LogStream, LoggerOptions, logger};
use webfw::prelude::*;

const CHILD: &str = "ERROR_REPORTING_CHILD";

fn forbidden(_: &mut Request, _: &mut Response) -> Result {
    Err(Error::from_status(403))
}

fn no_user(_: &mut Request, _: &mut Response) -> Result {
    Err(Error::status_message(404, "no such user"))
}

fn boom_handler(_: &mut Request, _: &mut Response) -> Result {
    Err(Error::new("boom"))
}

fn io_failure(_: &mut Request, _: &mut Response) -> Result {
    let io = std::io::Error::new(std::io::ErrorKind::NotFound, "config.toml is missing");
    Err(Error::status_message(503, "cannot load settings").with_source(io))
}

fn old_style(req: &mut Request, res: &mut Response) -> Result {
    let page = req.param_or("page", 1);
    res.location("back");
    res.send(page.to_string())
}

fn app() -> App {
    let mut app = webfw::app();
    app.use_(logger(
        ":method :url :status",
        LoggerOptions::new().stream(LogStream::stderr()),
    ));
    app.get("/forbidden", forbidden);
    app.get("/no-user", no_user);
    app.get("/boom", boom_handler);
    app.get("/io", io_failure);
    app.get("/old", old_style);
    app
}

/// The child's side: requests its own app and checks the pages; the parent
/// reads what reached standard error.
#[tokio::test]
async fn child_scenario() {
    let Ok(scenario) = std::env::var(CHILD) else {
        return;
    };
    let srv = TestServer::start(app()).await;
    match scenario.as_str() {
        "pages" => {
            let page = srv.get("/forbidden").await;
            assert_eq!(page.status, 403);
            assert_eq!(page.text(), error_page("ForbiddenError: Forbidden"));
            let page = srv.get("/no-user").await;
            assert_eq!(page.status, 404);
            assert_eq!(page.text(), error_page("NotFoundError: no such user"));
            let page = srv.get("/io").await;
            assert_eq!(page.status, 503);
            assert_eq!(
                page.text(),
                // finalhandler's page: newlines as <br>, two spaces as " &nbsp;".
                error_page(
                    "ServiceUnavailableError: cannot load settings<br> &nbsp; &nbsp;caused by: config.toml is missing"
                )
            );
            for _ in 0..3 {
                assert_eq!(srv.get("/old").await.text(), "1");
            }
        }
        "backtrace" => {
            let page = srv.get("/boom").await;
            assert_eq!(page.status, 500);
            let text = page.text();
            let head = error_page("Error: boom<br>");
            let head = &head[..head.find("<br>").unwrap() + 4];
            assert!(text.starts_with(head), "{text}");
            assert!(text.contains("backtrace:"), "{text}");
            assert!(text.contains("boom_handler"), "{text}");
        }
        other => panic!("unknown scenario {other}"),
    }
    srv.shutdown().await;
}

/// Runs `child_scenario` in a child with `vars`; its standard error.
fn run_child(scenario: &str, vars: &[(&str, &str)]) -> String {
    let exe = std::env::current_exe().unwrap();
    let mut cmd = std::process::Command::new(exe);
    cmd.args([
        &common::test_name(module_path!(), "child_scenario"),
        "--exact",
        "--nocapture",
        "--test-threads=1",
    ])
    .env_remove("WEBFW_ENV")
    .env_remove("NODE_ENV")
    .env_remove("NO_DEPRECATION")
    .env_remove("RUST_BACKTRACE")
    .env_remove("RUST_LIB_BACKTRACE")
    .env(CHILD, scenario);
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run the test binary as a child");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "child failed:\n{}\n{stderr}",
        String::from_utf8_lossy(&out.stdout)
    );
    stderr
}

fn position(haystack: &[&str], line: &str) -> usize {
    haystack
        .iter()
        .position(|l| *l == line)
        .unwrap_or_else(|| panic!("no line {line:?} in:\n{}", haystack.join("\n")))
}

#[test]
fn error_lines_name_the_class_and_follow_the_access_log_line() {
    let stderr = run_child("pages", &[]);
    let lines: Vec<&str> = stderr.lines().collect();
    for (log, error) in [
        ("GET /forbidden 403", "ForbiddenError: Forbidden"),
        ("GET /no-user 404", "NotFoundError: no such user"),
        (
            "GET /io 503",
            "ServiceUnavailableError: cannot load settings",
        ),
    ] {
        assert!(
            position(&lines, log) < position(&lines, error),
            "Express logs the request before the error:\n{stderr}"
        );
    }
    assert_eq!(
        lines[position(&lines, "ServiceUnavailableError: cannot load settings") + 1],
        "    caused by: config.toml is missing"
    );
}

#[test]
fn deprecations_are_printed_once_per_call_site_in_depds_format() {
    let stderr = run_child("pages", &[]);
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains(" deprecated "))
        .collect();
    // Three requests, two deprecated calls in `old_style`: one line each.
    assert_eq!(warnings.len(), 2, "{stderr}");
    let this_file = file!();
    let param = warnings
        .iter()
        .find(|l| l.contains("req.param("))
        .expect("a req.param warning");
    let (date, rest) = param.split_at(29);
    assert!(date.ends_with(" GMT"), "a toUTCString date first: {param}");
    assert!(
        rest.starts_with(&format!(
            " webfw deprecated req.param(name, default): Use req.params, req.body, or req.query instead at {this_file}:"
        )),
        "{param}"
    );
    let location = warnings
        .iter()
        .find(|l| l.contains("res.location("))
        .expect("a res.location warning");
    assert!(
        location.contains(
            " webfw deprecated res.location(\"back\"): use res.location(req.get(\"Referrer\") || \"/\") and refer to https://dub.sh/security-redirect for best practices at "
        ),
        "{location}"
    );
    // NO_DEPRECATION silences the namespace, as for depd.
    let quiet = run_child("pages", &[("NO_DEPRECATION", "webfw")]);
    assert!(!quiet.contains(" deprecated "), "{quiet}");
}

#[test]
fn a_captured_backtrace_is_shown_in_development() {
    let stderr = run_child("backtrace", &[("RUST_LIB_BACKTRACE", "1")]);
    let lines: Vec<&str> = stderr.lines().collect();
    let error = position(&lines, "Error: boom");
    assert_eq!(lines[error + 1], "    backtrace:", "{stderr}");
    assert!(stderr.contains("boom_handler"), "{stderr}");
}
