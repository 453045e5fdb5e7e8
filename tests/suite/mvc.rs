//! `examples/mvc` as it is, over a socket: controllers with their own views,
//! the faux database in app state, `PUT` from a form through method-override,
//! and flash messages that `res.message` keeps in the session until the next
//! page shows them once.

use crate::common;

#[path = "../../examples/mvc/main.rs"]
#[allow(dead_code)]
mod example;

use common::{HttpResponse, TestServer};

/// `POST path` with a form body, and the session cookie when there is one.
async fn post_form(srv: &TestServer, path: &str, form: &str, cookie: Option<&str>) -> HttpResponse {
    let mut head = format!(
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n",
        form.len()
    );
    if let Some(c) = cookie {
        head.push_str(&format!("Cookie: {c}\r\n"));
    }
    head.push_str("Connection: close\r\n\r\n");
    srv.raw(format!("{head}{form}")).await
}

/// The `name=value` part of the session's `Set-Cookie`.
fn session_cookie(res: &HttpResponse) -> String {
    let set = res.header("set-cookie").expect("the session cookie");
    set.split(';').next().unwrap().to_owned()
}

#[tokio::test]
async fn users_and_pets_are_listed_and_shown() {
    let srv = TestServer::start(example::app()).await;
    let home = srv.get("/").await;
    assert_eq!(home.status, 302);
    assert_eq!(home.header("location"), Some("/users"));
    let users = srv.get("/users").await.text();
    for (id, name) in [(0, "TJ"), (1, "Guillermo"), (2, "Nathan")] {
        assert!(
            users.contains(&format!("<li><a href=\"/user/{id}\">{name}</a></li>")),
            "{users}"
        );
    }
    let tj = srv.get("/user/0").await.text();
    assert!(tj.contains("<title>TJ</title>"), "{tj}");
    for pet in ["Tobi", "Loki", "Jane"] {
        assert!(tj.contains(&format!(">{pet}</a></li>")), "{tj}");
    }
    assert!(srv.get("/user/2").await.text().contains("<p>No pets!</p>"));
    let pet = srv.get("/pet/3").await.text();
    assert!(pet.contains("<p>You are viewing Raul</p>"), "{pet}");
    let css = srv.get("/style.css").await;
    assert_eq!(css.status, 200);
    assert_eq!(css.header("content-type"), Some("text/css; charset=UTF-8"));
}

#[tokio::test]
async fn unknown_ids_fall_through_to_the_404_view() {
    let srv = TestServer::start(example::app()).await;
    for path in ["/user/99", "/pet/nope", "/nowhere"] {
        let res = srv.get(path).await;
        assert_eq!(res.status, 404, "{path}");
        assert!(
            res.text()
                .contains(&format!("<p>Sorry we can't find {path}</p>")),
            "{}",
            res.text()
        );
    }
}

#[tokio::test]
async fn a_form_put_updates_and_the_message_shows_once() {
    let srv = TestServer::start(example::app()).await;
    // HTML forms can only POST; `?_method=put` routes it to the PUT handler.
    let res = post_form(&srv, "/user/1?_method=put", "user%5Bname%5D=G%3Cb%3E", None).await;
    assert_eq!(res.status, 302, "{}", res.text());
    assert_eq!(res.header("location"), Some("/user/1"));
    let cookie = session_cookie(&res);
    let page = srv.get_with("/user/1", &[("Cookie", &cookie)]).await.text();
    assert!(
        page.contains("<title>G&lt;b&gt;</title>"),
        "escaped: {page}"
    );
    assert!(page.contains("<li>Information updated!</li>"), "{page}");
    let again = srv.get_with("/user/1", &[("Cookie", &cookie)]).await.text();
    assert!(
        !again.contains("Information updated!"),
        "shown once: {again}"
    );
    // A plain POST is not a PUT: no route takes it.
    assert_eq!(
        post_form(&srv, "/user/1", "user%5Bname%5D=x", None)
            .await
            .status,
        404
    );
}

#[tokio::test]
async fn a_new_pet_joins_its_user() {
    let srv = TestServer::start(example::app()).await;
    let res = post_form(&srv, "/user/2/pet", "pet%5Bname%5D=Rex", None).await;
    assert_eq!(res.status, 302);
    assert_eq!(res.header("location"), Some("/user/2"));
    let cookie = session_cookie(&res);
    let page = srv.get_with("/user/2", &[("Cookie", &cookie)]).await.text();
    assert!(
        page.contains("<li><a href=\"/pet/4\">Rex</a></li>"),
        "{page}"
    );
    assert!(page.contains("<li>Added pet Rex</li>"), "{page}");
    assert!(
        srv.get("/pet/4")
            .await
            .text()
            .contains("You are viewing Rex")
    );
}
