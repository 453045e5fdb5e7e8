//! A real browser against `examples/login.rs`: a headless Chromium (Debian's
//! `chromium`), driven over the DevTools protocol, fills in and submits the
//! login form, follows the redirect with its signed cookie, renders the
//! user's page with its stylesheet, revalidates the stylesheet (304) on
//! reload and downloads a file. Screenshots go to `target/screenshots/`.

use crate::common;

mod cdp;

// The example itself, run in the test: its `main` is not called here.
#[allow(dead_code)]
#[path = "../../examples/login.rs"]
mod login;

use std::path::PathBuf;

use cdp::{Browser, Event};
use common::TestServer;
use serde_json::{Value, json};

fn screenshots() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target/tmp is inside the target directory")
        .join("screenshots")
}

/// The status of every response this page got for `path`, in order.
fn statuses(events: &[Event], session: &str, path: &str) -> Vec<u64> {
    events
        .iter()
        .filter(|e| e.method == "Network.responseReceived" && e.session.as_deref() == Some(session))
        .filter(|e| {
            e.params["response"]["url"]
                .as_str()
                .is_some_and(|u| u.ends_with(path))
        })
        .map(|e| e.params["response"]["status"].as_u64().unwrap())
        .collect()
}

/// The `requestWillBeSent` event of the latest `method` request for `path`.
fn request<'a>(events: &'a [Event], method: &str, path: &str) -> &'a Value {
    &events
        .iter()
        .rev()
        .find(|e| {
            e.method == "Network.requestWillBeSent"
                && e.params["request"]["method"] == method
                && e.params["request"]["url"]
                    .as_str()
                    .is_some_and(|u| u.ends_with(path))
        })
        .unwrap_or_else(|| panic!("no {method} {path} request was sent"))
        .params
}

/// A header of a DevTools headers object, whatever the case of its name.
fn header<'a>(headers: &'a Value, name: &str) -> Option<&'a str> {
    let headers = headers.as_object()?;
    let (_, value) = headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name))?;
    value.as_str()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chromium_logs_in_styles_revalidates_and_downloads() {
    let server = TestServer::start(login::app()).await;
    let base = format!("http://{}", server.addr);
    let shots = screenshots();
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let mut b = Browser::launch(tmp.join(format!("chromium-{}", std::process::id()))).await;
    let page = b.new_page().await;

    // Logged out, `/` redirects to the form.
    page.navigate(&mut b, &format!("{base}/")).await;
    assert_eq!(
        page.eval(&mut b, "location.pathname").await,
        json!("/login")
    );
    assert_eq!(
        page.eval(&mut b, "document.title").await,
        "Log in · webfw login"
    );
    page.type_into(&mut b, "input[name=name]", "tobi").await;
    page.type_into(&mut b, "input[name=password]", "webfw")
        .await;
    page.screenshot(&mut b, &shots, "1-login-form").await;

    // Submitting posts the form urlencoded; the answer is a redirect home
    // with the signed cookie.
    b.forget_queued();
    page.eval(&mut b, "document.querySelector('form button').click()")
        .await;
    page.loaded(&mut b).await;
    let post = request(&b.events, "POST", "/login");
    assert_eq!(post["request"]["postData"], "name=tobi&password=webfw");
    assert_eq!(
        header(&post["request"]["headers"], "content-type"),
        Some("application/x-www-form-urlencoded")
    );
    let home = request(&b.events, "GET", &format!("{base}/"));
    let redirect = &home["redirectResponse"];
    assert_eq!(redirect["status"], 302, "{home}");
    assert_eq!(header(&redirect["headers"], "location"), Some("/"));
    let cookies = page
        .call(&mut b, "Network.getCookies", json!({ "urls": [base] }))
        .await;
    let cookies = cookies["cookies"].as_array().unwrap();
    assert_eq!(cookies.len(), 1, "{cookies:?}");
    let user = &cookies[0];
    assert_eq!(
        (&user["name"], &user["httpOnly"]),
        (&json!("user"), &json!(true))
    );
    let signed = user["value"].as_str().unwrap().to_owned();
    assert!(signed.starts_with("s%3Atobi."), "{signed}");

    // The user's page, styled by the stylesheet.
    assert_eq!(page.eval(&mut b, "location.pathname").await, "/");
    assert_eq!(
        page.eval(&mut b, "document.querySelector('h1').textContent")
            .await,
        "Hello, tobi!"
    );
    assert_eq!(
        page.eval(&mut b, "getComputedStyle(document.body).backgroundColor")
            .await,
        "rgb(246, 241, 232)"
    );
    page.screenshot(&mut b, &shots, "2-home").await;

    // The first load of the stylesheet was a 200; a reload revalidates it
    // (If-None-Match) and the static middleware answers 304.
    let session = page.session.clone();
    assert_eq!(
        statuses(&b.events, &session, "/style.css").first(),
        Some(&200)
    );
    let before = statuses(&b.events, &session, "/style.css").len();
    page.reload(&mut b).await;
    let after = statuses(&b.events, &session, "/style.css");
    assert_eq!(after[before..], [304], "style.css on reload: {after:?}");
    assert_eq!(
        page.eval(&mut b, "document.querySelector('h1').textContent")
            .await,
        "Hello, tobi!"
    );

    // The download link saves the file the server made for this user.
    let downloads = tmp.join(format!("downloads-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&downloads);
    b.call(
        None,
        "Browser.setDownloadBehavior",
        json!({
            "behavior": "allowAndName",
            "downloadPath": downloads.to_str().unwrap(),
            "eventsEnabled": true,
        }),
    )
    .await;
    page.eval(
        &mut b,
        "document.querySelector('a[href=\"/welcome.txt\"]').click()",
    )
    .await;
    let begin = b
        .wait_event("the download to begin", |e| {
            e.method == "Browser.downloadWillBegin"
        })
        .await;
    assert_eq!(begin.params["suggestedFilename"], "welcome.txt");
    let guid = begin.params["guid"].as_str().unwrap().to_owned();
    let done = b
        .wait_event("the download to end", |e| {
            e.method == "Browser.downloadProgress"
                && e.params["guid"] == guid
                && e.params["state"] != "inProgress"
        })
        .await;
    assert_eq!(done.params["state"], "completed");
    let saved = std::fs::read_to_string(downloads.join(&guid)).expect("the downloaded file");
    assert_eq!(saved, "Welcome, tobi! You logged in with webfw.\n");
    let _ = std::fs::remove_dir_all(&downloads);
    page.screenshot(&mut b, &shots, "3-after-download").await;

    // A cookie changed by the client is not believed: back to the form.
    let forged = signed.replacen("tobi", "root", 1);
    page.call(
        &mut b,
        "Network.setCookie",
        json!({ "name": "user", "value": forged, "url": base, "httpOnly": true }),
    )
    .await;
    page.navigate(&mut b, &format!("{base}/")).await;
    assert_eq!(page.eval(&mut b, "location.pathname").await, "/login");
    page.screenshot(&mut b, &shots, "4-forged-cookie").await;
    b.close().await;
}
