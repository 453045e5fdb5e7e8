//! The bad-input scenarios, run on SQLite (tests/sqlite.rs) and on
//! PostgreSQL (tests/postgres.rs): each request gets the spec's error body
//! and the database is left as it was.

use realworld::auth::{Claims, Keys};
use serde_json::{Value, json};

use super::{Api, Reply, SECRET};

pub fn errors(r: &Reply) -> &Value {
    &r.body["errors"]
}

pub async fn malformed_json_and_missing_fields_are_422_and_write_nothing(api: &Api) {
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
        .json(
            "POST",
            "/api/users/login",
            None,
            json!({"user": {"email": "nobody@example.com", "password": "secret"}}),
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

pub async fn a_ten_megabyte_body_is_413_and_writes_nothing(api: &Api) {
    let token = api.register("big", "big@example.com", "secret").await;
    let before = api.snapshot().await;
    let huge = "x".repeat(10 * 1024 * 1024);
    let body = json!({"article": {"title": "huge", "description": "d", "body": huge}});
    let r = api.json("POST", "/api/articles", Some(&token), body).await;
    assert_eq!(r.status, 413);
    assert!(errors(&r)["body"][0].is_string(), "{}", r.body);
    assert_eq!(api.snapshot().await, before);
}

pub async fn invalid_and_expired_tokens_are_401_and_write_nothing(api: &Api) {
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
    // Another first character of the signature: still base64url (its six
    // bits are all significant, unlike the last character's), a wrong MAC.
    let sig_at = jwt.rfind('.').unwrap() + 1;
    let swapped = if jwt[sig_at..].starts_with('A') {
        "B"
    } else {
        "A"
    };
    let tampered = format!("{}{swapped}{}", &jwt[..sig_at], &jwt[sig_at + 1..]);
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

pub async fn sql_metacharacters_are_stored_verbatim_in_every_field(api: &Api) {
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

pub async fn a_colliding_slug_is_422_and_writes_nothing(api: &Api) {
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

pub async fn others_get_403_unknown_things_404_and_nothing_changes(api: &Api) {
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

pub async fn feed_and_pagination_follow_the_spec(api: &Api) {
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

pub async fn browsers_on_other_origins_may_call_the_api(api: &Api) {
    let r = api.json("GET", "/api/tags", None, json!(null)).await;
    assert_eq!(r.status, 200);
    assert!(
        r.head.contains("\r\naccess-control-allow-origin: *\r\n"),
        "{}",
        r.head
    );
    let before = api.snapshot().await;
    let mut preflight = api
        .raw(
            "OPTIONS /api/articles HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\
             Origin: http://front.example\r\nAccess-Control-Request-Method: POST\r\n\
             Access-Control-Request-Headers: authorization,content-type\r\n\r\n",
        )
        .await;
    assert_eq!(preflight.status, 204, "{}", preflight.head);
    preflight.head.push_str("\r\n");
    for line in [
        "access-control-allow-origin: *",
        "access-control-allow-methods: get,head,put,patch,post,delete",
        "access-control-allow-headers: authorization,content-type",
    ] {
        assert!(
            preflight.head.contains(&format!("\r\n{line}\r\n")),
            "{line}: {}",
            preflight.head
        );
    }
    assert_eq!(api.snapshot().await, before);
}

pub async fn a_token_for_a_user_the_database_lacks_is_401(api: &Api) {
    let token = api.register("real", "real@example.com", "secret").await;
    let r = api.create_article(&token, "Real").await;
    assert_eq!(r.status, 201);
    let before = api.snapshot().await;
    let ghost = format!("Token {}", Keys::new(SECRET).token_for(999));
    let unknown = json!({"token": ["names a user who no longer exists"]});
    let r = api
        .json("GET", "/api/user", Some(&ghost), json!(null))
        .await;
    assert_eq!((r.status, errors(&r)), (401, &unknown));
    let r = api.create_article(&ghost, "Ghost").await;
    assert_eq!((r.status, errors(&r)), (401, &unknown));
    let r = api
        .json(
            "POST",
            "/api/articles/real/comments",
            Some(&ghost),
            json!({"comment": {"body": "boo"}}),
        )
        .await;
    assert_eq!((r.status, errors(&r)), (401, &unknown));
    let r = api
        .json(
            "POST",
            "/api/articles/real/favorite",
            Some(&ghost),
            json!(null),
        )
        .await;
    assert_eq!((r.status, errors(&r)), (401, &unknown));
    let r = api
        .json(
            "POST",
            "/api/profiles/real/follow",
            Some(&ghost),
            json!(null),
        )
        .await;
    assert_eq!((r.status, errors(&r)), (401, &unknown));
    assert_eq!(api.snapshot().await, before);
}
