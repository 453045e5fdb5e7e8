//! Bad input over a socket: each request gets the spec's error body and
//! leaves the database as it was. The app runs on 127.0.0.1:0 with a fresh
//! SQLite file per test.

use std::sync::atomic::{AtomicU32, Ordering};

use realworld::Config;
use realworld::auth::{Claims, Keys};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const SECRET: &str = "bad-input-test-secret";

struct Api {
    addr: std::net::SocketAddr,
    db: realworld::db::Db,
    _server: webfw::Server,
    dir: std::path::PathBuf,
}

impl Drop for Api {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

struct Reply {
    status: u16,
    body: Value,
}

impl Api {
    async fn start() -> Api {
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "realworld-test-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite:{}/conduit.db", dir.display());
        let config = Config {
            port: 0,
            database_url: url.clone(),
            jwt_secret: SECRET.to_owned(),
            log: false,
        };
        let app = realworld::app(&config).await.unwrap();
        let server = app
            .bind(webfw::ListenOptions::port(0).host("127.0.0.1"))
            .await
            .unwrap();
        let addr = server.local_addr().unwrap();
        let db = realworld::db::connect(&url).await.unwrap();
        Api {
            addr,
            db,
            _server: server,
            dir,
        }
    }

    /// Sends raw body bytes; reads the whole answer (`Connection: close`).
    async fn send(&self, method: &str, path: &str, token: Option<&str>, body: &[u8]) -> Reply {
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        );
        if let Some(t) = token {
            head.push_str(&format!("Authorization: {t}\r\n"));
        }
        head.push_str("\r\n");
        let mut stream = TcpStream::connect(self.addr).await.unwrap();
        stream.write_all(head.as_bytes()).await.unwrap();
        // The server may answer (413) and close before reading all of a
        // large body: a failed write is then expected.
        let _ = stream.write_all(body).await;
        let mut raw = Vec::new();
        let _ = stream.read_to_end(&mut raw).await;
        let text = String::from_utf8_lossy(&raw);
        let status = text[9..12].parse().unwrap();
        let (head, rest) = text.split_once("\r\n\r\n").unwrap();
        let body = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(rest)
        } else {
            rest.to_owned()
        };
        Reply {
            status,
            body: serde_json::from_str(&body).unwrap_or(Value::Null),
        }
    }

    /// Sends `body` as JSON; `null` sends no body.
    async fn json(&self, method: &str, path: &str, token: Option<&str>, body: Value) -> Reply {
        let bytes = if body.is_null() {
            Vec::new()
        } else {
            body.to_string().into_bytes()
        };
        self.send(method, path, token, &bytes).await
    }

    /// Registers a user; returns `Token <jwt>`.
    async fn register(&self, username: &str, email: &str, password: &str) -> String {
        let r = self
            .json(
                "POST",
                "/api/users",
                None,
                json!({"user": {"username": username, "email": email, "password": password}}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.body);
        format!("Token {}", r.body["user"]["token"].as_str().unwrap())
    }

    async fn create_article(&self, token: &str, title: &str) -> Reply {
        self.json(
            "POST",
            "/api/articles",
            Some(token),
            json!({"article": {"title": title, "description": "d", "body": "b", "tagList": ["t"]}}),
        )
        .await
    }

    /// Every row of every table, as text: equal snapshots, unchanged data.
    async fn snapshot(&self) -> Vec<String> {
        let queries = [
            "SELECT id || '|' || email || '|' || username || '|' || password_hash || '|' || \
             COALESCE(bio, '-') || '|' || COALESCE(image, '-') FROM users ORDER BY id",
            "SELECT id || '|' || slug || '|' || title || '|' || description || '|' || body || \
             '|' || tag_list || '|' || updated_at FROM articles ORDER BY id",
            "SELECT article_id || '|' || tag FROM article_tags ORDER BY article_id, tag",
            "SELECT id || '|' || body FROM comments ORDER BY id",
            "SELECT user_id || '|' || article_id FROM favorites ORDER BY user_id, article_id",
            "SELECT follower_id || '|' || followee_id FROM follows ORDER BY 1",
        ];
        let mut rows = Vec::new();
        for q in queries {
            let part: Vec<String> = sqlx::query_scalar(q).fetch_all(&self.db).await.unwrap();
            rows.push(part.join("\n"));
        }
        rows
    }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

fn errors(r: &Reply) -> &Value {
    &r.body["errors"]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_json_and_missing_fields_are_422_and_write_nothing() {
    let api = Api::start().await;
    let before = api.snapshot().await;

    let r = api.send("POST", "/api/users", None, br#"{"user": {"#).await;
    assert_eq!(r.status, 422);
    assert!(errors(&r)["body"][0].is_string(), "{}", r.body);

    let r = api.send("POST", "/api/users", None, b"[1, 2]").await;
    assert_eq!(r.status, 422, "{}", r.body);

    let r = api
        .json(
            "POST",
            "/api/users",
            None,
            json!({"user": {"username": "a", "email": "a@b.c"}}),
        )
        .await;
    assert_eq!(r.status, 422);
    assert_eq!(errors(&r), &json!({"password": ["can't be blank"]}));

    let r = api
        .json(
            "POST",
            "/api/users",
            None,
            json!({"user": {"username": "  ", "email": "a@b.c", "password": "p"}}),
        )
        .await;
    assert_eq!(errors(&r), &json!({"username": ["can't be blank"]}));

    let r = api
        .json(
            "POST",
            "/api/users",
            None,
            json!({"user": {"username": 5, "email": "a@b.c", "password": "p"}}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(api.snapshot().await, before);

    let token = api.register("writer", "writer@example.com", "secret").await;
    let before = api.snapshot().await;
    let r = api
        .json(
            "POST",
            "/api/articles",
            Some(&token),
            json!({"article": {"title": "t", "body": "b"}}),
        )
        .await;
    assert_eq!(r.status, 422);
    assert_eq!(errors(&r), &json!({"description": ["can't be blank"]}));
    let r = api
        .json(
            "POST",
            "/api/articles",
            Some(&token),
            json!({"article": {"title": "t", "description": "d", "body": "b", "tagList": "t"}}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    let r = api
        .json(
            "POST",
            "/api/users/login",
            None,
            json!({"user": {"email": "writer@example.com", "password": "wrong"}}),
        )
        .await;
    assert_eq!(r.status, 401);
    assert_eq!(errors(&r), &json!({"email or password": ["is invalid"]}));
    let r = api
        .json("GET", "/api/articles?limit=-1", None, json!(null))
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    let r = api
        .json("GET", "/api/articles?limit=ten", None, json!(null))
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(api.snapshot().await, before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ten_megabyte_body_is_413_and_writes_nothing() {
    let api = Api::start().await;
    let token = api.register("big", "big@example.com", "secret").await;
    let before = api.snapshot().await;
    let huge = "x".repeat(10 * 1024 * 1024);
    let body = json!({"article": {"title": "huge", "description": "d", "body": huge}});
    let r = api.json("POST", "/api/articles", Some(&token), body).await;
    assert_eq!(r.status, 413);
    assert!(errors(&r)["body"][0].is_string(), "{}", r.body);
    assert_eq!(api.snapshot().await, before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_and_expired_tokens_are_401_and_write_nothing() {
    let api = Api::start().await;
    let token = api.register("holder", "holder@example.com", "secret").await;
    let jwt = token.strip_prefix("Token ").unwrap();
    let before = api.snapshot().await;

    let keys = Keys::new(SECRET);
    let expired = keys.sign(&Claims {
        sub: 1,
        iat: 1_000,
        exp: 2_000,
    });
    let forged = Keys::new("another secret").token_for(1);
    let mut tampered = jwt.to_owned();
    tampered.pop();
    tampered.push(if jwt.ends_with('A') { 'B' } else { 'A' });
    let cases = [
        (format!("Token {expired}"), "has expired"),
        (format!("Token {forged}"), "is invalid"),
        (format!("Token {tampered}"), "is invalid"),
        ("Token not.a.jwt".to_owned(), "is malformed"),
        ("Token abc".to_owned(), "is malformed"),
        (
            format!("Basic {jwt}"),
            "must be sent as `Authorization: Token <jwt>`",
        ),
    ];
    for (header, message) in &cases {
        let r = api
            .json("GET", "/api/user", Some(header), json!(null))
            .await;
        assert_eq!(r.status, 401, "{header}");
        assert_eq!(errors(&r), &json!({"token": [message]}), "{header}");
        let r = api.create_article(header, "Never written").await;
        assert_eq!(r.status, 401, "{header}");
        let r = api
            .json(
                "PUT",
                "/api/user",
                Some(header),
                json!({"user": {"bio": "hacked"}}),
            )
            .await;
        assert_eq!(r.status, 401, "{header}");
    }
    let r = api.create_article("", "No token").await;
    assert_eq!(r.status, 401);
    let r = api.json("GET", "/api/user", None, json!(null)).await;
    assert_eq!(
        (r.status, errors(&r)),
        (401, &json!({"token": ["is missing"]}))
    );
    assert_eq!(api.snapshot().await, before);

    let r = api
        .json("GET", "/api/user", Some(&token), json!(null))
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body["user"]["username"], "holder");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sql_metacharacters_are_stored_verbatim_in_every_field() {
    let api = Api::start().await;
    let evil = |tag: &str| format!("{tag}'; DROP TABLE users; -- \" \\ % _ ` ) OR 1=1 /*");
    let username = evil("name");
    let email = evil("mail");
    let password = evil("pass");
    let token = api.register(&username, &email, &password).await;

    let r = api
        .json(
            "POST",
            "/api/users/login",
            None,
            json!({"user": {"email": email, "password": password}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["user"]["username"], username.as_str());
    let r = api
        .json(
            "POST",
            "/api/users/login",
            None,
            json!({"user": {"email": "x' OR '1'='1", "password": "x' OR '1'='1"}}),
        )
        .await;
    assert_eq!(r.status, 401);

    let r = api
        .json(
            "PUT",
            "/api/user",
            Some(&token),
            json!({"user": {"bio": evil("bio"), "image": evil("img")}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["user"]["bio"], evil("bio").as_str());
    assert_eq!(r.body["user"]["image"], evil("img").as_str());

    let article = json!({"article": {
        "title": evil("title"), "description": evil("description"), "body": evil("body"),
        "tagList": [evil("tag")],
    }});
    let r = api
        .json("POST", "/api/articles", Some(&token), article)
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let a = &r.body["article"];
    assert_eq!(a["title"], evil("title").as_str());
    assert_eq!(a["description"], evil("description").as_str());
    assert_eq!(a["body"], evil("body").as_str());
    assert_eq!(a["tagList"], json!([evil("tag")]));
    assert_eq!(a["author"]["username"], username.as_str());
    let slug = a["slug"].as_str().unwrap().to_owned();
    assert_eq!(slug, "title-drop-table-users-or-1-1");

    let r = api
        .json(
            "POST",
            &format!("/api/articles/{slug}/comments"),
            Some(&token),
            json!({"comment": {"body": evil("comment")}}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["comment"]["body"], evil("comment").as_str());

    let enc = |s: &str| {
        s.bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() {
                    (b as char).to_string()
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect::<String>()
    };
    let r = api
        .json(
            "GET",
            &format!("/api/articles?author={}", enc(&username)),
            None,
            json!(null),
        )
        .await;
    assert_eq!(r.body["articlesCount"], 1, "{}", r.body);
    let r = api
        .json(
            "GET",
            &format!("/api/articles?tag={}", enc(&evil("tag"))),
            None,
            json!(null),
        )
        .await;
    assert_eq!(r.body["articlesCount"], 1, "{}", r.body);
    let r = api
        .json(
            "GET",
            &format!("/api/articles?author={}", enc("x' OR '1'='1")),
            None,
            json!(null),
        )
        .await;
    assert_eq!(r.body["articlesCount"], 0, "{}", r.body);
    let r = api
        .json(
            "GET",
            &format!("/api/profiles/{}", enc(&username)),
            None,
            json!(null),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["profile"]["bio"], evil("bio").as_str());
    let r = api.json("GET", "/api/tags", None, json!(null)).await;
    assert_eq!(r.body["tags"], json!([evil("tag")]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_colliding_slug_is_422_and_writes_nothing() {
    let api = Api::start().await;
    let token = api.register("author", "author@example.com", "secret").await;
    let r = api.create_article(&token, "Same Title").await;
    assert_eq!(r.status, 201);
    assert_eq!(r.body["article"]["slug"], "same-title");
    let r = api.create_article(&token, "Other").await;
    assert_eq!(r.status, 201);
    let before = api.snapshot().await;

    let r = api.create_article(&token, "  same   TITLE!! ").await;
    assert_eq!(r.status, 422);
    assert_eq!(errors(&r), &json!({"slug": ["has already been taken"]}));
    let r = api
        .json(
            "PUT",
            "/api/articles/other",
            Some(&token),
            json!({"article": {"title": "Same title", "body": "new"}}),
        )
        .await;
    assert_eq!(r.status, 422);
    assert_eq!(errors(&r), &json!({"slug": ["has already been taken"]}));
    let r = api.create_article(&token, "?!").await;
    assert_eq!(
        errors(&r),
        &json!({"title": ["must contain a letter or a digit"]})
    );
    let r = api
        .json(
            "POST",
            "/api/users",
            None,
            json!({"user": {"username": "author", "email": "x@example.com", "password": "p"}}),
        )
        .await;
    assert_eq!(
        (r.status, errors(&r)),
        (422, &json!({"username": ["has already been taken"]}))
    );
    let r = api
        .json(
            "POST",
            "/api/users",
            None,
            json!({"user": {"username": "x", "email": "author@example.com", "password": "p"}}),
        )
        .await;
    assert_eq!(
        (r.status, errors(&r)),
        (422, &json!({"email": ["has already been taken"]}))
    );
    assert_eq!(api.snapshot().await, before);

    let r = api
        .json(
            "PUT",
            "/api/articles/other",
            Some(&token),
            json!({"article": {"title": "Other", "body": "kept slug"}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["article"]["slug"], "other");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn others_get_403_unknown_things_404_and_nothing_changes() {
    let api = Api::start().await;
    let owner = api.register("owner", "owner@example.com", "secret").await;
    let other = api.register("other", "other@example.com", "secret").await;
    let r = api.create_article(&owner, "Mine").await;
    assert_eq!(r.status, 201);
    let r = api
        .json(
            "POST",
            "/api/articles/mine/comments",
            Some(&owner),
            json!({"comment": {"body": "first"}}),
        )
        .await;
    let comment = r.body["comment"]["id"].as_i64().unwrap();
    let before = api.snapshot().await;

    let r = api
        .json("DELETE", "/api/articles/mine", Some(&other), json!(null))
        .await;
    assert_eq!(
        (r.status, errors(&r)),
        (403, &json!({"article": ["is not yours"]}))
    );
    let r = api
        .json(
            "PUT",
            "/api/articles/mine",
            Some(&other),
            json!({"article": {"body": "defaced"}}),
        )
        .await;
    assert_eq!(r.status, 403);
    let r = api
        .json(
            "DELETE",
            &format!("/api/articles/mine/comments/{comment}"),
            Some(&other),
            json!(null),
        )
        .await;
    assert_eq!(
        (r.status, errors(&r)),
        (403, &json!({"comment": ["is not yours"]}))
    );
    let r = api
        .json("GET", "/api/articles/nope", None, json!(null))
        .await;
    assert_eq!(
        (r.status, errors(&r)),
        (404, &json!({"article": ["not found"]}))
    );
    let r = api
        .json("GET", "/api/profiles/nobody", None, json!(null))
        .await;
    assert_eq!(
        (r.status, errors(&r)),
        (404, &json!({"profile": ["not found"]}))
    );
    let r = api
        .json(
            "DELETE",
            "/api/articles/mine/comments/999",
            Some(&owner),
            json!(null),
        )
        .await;
    assert_eq!(r.status, 404);
    let r = api
        .json("GET", "/api/nothing-here", None, json!(null))
        .await;
    assert_eq!(
        (r.status, errors(&r)),
        (404, &json!({"route": ["no such route"]}))
    );
    assert_eq!(api.snapshot().await, before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn feed_and_pagination_follow_the_spec() {
    let api = Api::start().await;
    let reader = api.register("reader", "reader@example.com", "secret").await;
    let writer = api.register("writer", "writer@example.com", "secret").await;
    for i in 0..5 {
        let r = api.create_article(&writer, &format!("Post {i}")).await;
        assert_eq!(r.status, 201);
    }
    let r = api
        .json("GET", "/api/articles/feed", Some(&reader), json!(null))
        .await;
    assert_eq!(r.body, json!({"articles": [], "articlesCount": 0}));
    let r = api
        .json(
            "POST",
            "/api/profiles/writer/follow",
            Some(&reader),
            json!(null),
        )
        .await;
    assert_eq!(r.body["profile"]["following"], true);
    let r = api
        .json(
            "GET",
            "/api/articles/feed?limit=2&offset=1",
            Some(&reader),
            json!(null),
        )
        .await;
    assert_eq!(r.body["articlesCount"], 5);
    let slugs: Vec<&str> = r.body["articles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["slug"].as_str().unwrap())
        .collect();
    assert_eq!(slugs, ["post-3", "post-2"]);
    assert_eq!(r.body["articles"][0]["author"]["following"], true);
    assert!(r.body["articles"][0].get("body").is_none());
    let r = api
        .json("GET", "/api/articles?limit=1", None, json!(null))
        .await;
    assert_eq!(r.body["articles"][0]["author"]["following"], false);
    assert_eq!(r.body["articlesCount"], 5);
}
