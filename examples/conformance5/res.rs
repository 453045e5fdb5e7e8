//! `/res/*`: response helpers, and `/neg/*`: `res.format` (ROUTES5.md,
//! "/res/* — response helpers" and "/neg/* — res.format").

use serde_json::{Value, json};
use webfw::Format;
use webfw::prelude::*;

use crate::{query_or, status_number, text};

pub fn routes(app: &mut App) {
    status(app);
    send(app);
    json_forms(app);
    redirect(app);
    headers(app);
}

fn status(app: &mut App) {
    app.get(
        "/res/status/:code",
        |req: &mut Request, res: &mut Response| {
            let code = status_number(req, "code")?;
            let body = format!("status {}", req.param("code").unwrap_or_default());
            res.status(code).send(body)
        },
    );
    // res.status('201'): Express 5 takes only integers, so a string always
    // throws. A string does not type-check as a Rust status: the port
    // answers the TypeError's 500.
    app.get(
        "/res/status-string/:code",
        |req: &mut Request, _res: &mut Response| -> Result {
            let code = req.param("code").unwrap_or_default();
            Err(crate::type_error(&format!(
                "Invalid status code: \"{code}\". Status code must be an integer."
            )))
        },
    );
    app.get(
        "/res/sendStatus/:code",
        |req: &mut Request, res: &mut Response| {
            let code = status_number(req, "code")?;
            res.send_status(code)
        },
    );
}

fn send(app: &mut App) {
    app.get("/res/send/string", text("<p>hello</p>"));
    app.get(
        "/res/send/buffer",
        |_req: &mut Request, res: &mut Response| {
            res.send(&[0x00u8, 0x01, 0x02, 0x62, 0x69, 0x6e, 0xff])
        },
    );
    // A typed array is binary data like a Buffer.
    app.get(
        "/res/send/uint8array",
        |_req: &mut Request, res: &mut Response| res.send(&[0x75u8, 0x38, 0x21]),
    );
    app.get(
        "/res/send/object",
        |_req: &mut Request, res: &mut Response| {
            res.send(json!({ "ok": true, "list": [1, "two", null] }))
        },
    );
    app.get(
        "/res/send/null",
        |_req: &mut Request, res: &mut Response| res.send(Value::Null),
    );
    app.get(
        "/res/send/undefined",
        |_req: &mut Request, res: &mut Response| res.send(()),
    );
    app.get(
        "/res/send/bool",
        |_req: &mut Request, res: &mut Response| res.send(json!(false)),
    );
    // Express 5: a number is a JSON body; the status stays 200.
    app.get(
        "/res/send/number",
        |_req: &mut Request, res: &mut Response| res.send(json!(404)),
    );
    app.get(
        "/res/send/float",
        |_req: &mut Request, res: &mut Response| res.send(json!(12.5)),
    );
    // res.send(201, 'created'): no status form in Express 5, the first
    // argument is the body (a number: JSON) and the second is ignored.
    app.get(
        "/res/send/status-first",
        |_req: &mut Request, res: &mut Response| res.send(json!(201)),
    );
    // res.send('accepted', 202): the 202 is ignored.
    app.get("/res/send/body-first", text("accepted"));
    app.get("/res/send/204", |_req: &mut Request, res: &mut Response| {
        res.status(204).send("dropped body")
    });
    app.get("/res/send/205", |_req: &mut Request, res: &mut Response| {
        res.status(205).send("dropped body")
    });
    app.get("/res/send/304", |_req: &mut Request, res: &mut Response| {
        res.status(304).send("dropped body")
    });
    app.get(
        "/res/send/chunked",
        |_req: &mut Request, res: &mut Response| {
            res.set("Transfer-Encoding", "chunked");
            res.send("sent with chunked framing")
        },
    );
    app.get(
        "/res/send/type-params",
        |_req: &mut Request, res: &mut Response| {
            res.set("Content-Type", "text/plain; format=flowed");
            res.send("params kept in order")
        },
    );
    app.get(
        "/res/send/unicode",
        text("h\u{e9}llo \u{2713} \u{65e5}\u{672c}"),
    );
}

fn json_forms(app: &mut App) {
    app.get(
        "/res/json/object",
        |_req: &mut Request, res: &mut Response| {
            res.json(&json!({ "a": 1, "b": "two", "c": [true, false], "d": null }))
        },
    );
    // res.json(201, {...}): the number is the body, the object ignored.
    app.get(
        "/res/json/status-first",
        |_req: &mut Request, res: &mut Response| res.json(&201),
    );
    app.get(
        "/res/json/string",
        |_req: &mut Request, res: &mut Response| res.json("just a string"),
    );
    // res.json(undefined): Rust has no `undefined` to serialise, so this is
    // what Express does with it: the JSON type, then send() with no body.
    app.get(
        "/res/json/undefined",
        |_req: &mut Request, res: &mut Response| res.type_("json").send(()),
    );
    app.get("/res/jsonp", |req: &mut Request, res: &mut Response| {
        res.jsonp(req, &json!({ "user": "tobi" }))
    });
    // res.jsonp(202, {...}): the number is the body.
    app.get(
        "/res/jsonp/status-first",
        |req: &mut Request, res: &mut Response| res.jsonp(req, &202),
    );
}

fn redirect(app: &mut App) {
    app.get("/res/landing", text("landed"));
    app.get(
        "/res/redirect/path",
        |_req: &mut Request, res: &mut Response| res.redirect("/res/landing"),
    );
    app.get(
        "/res/redirect/relative",
        |_req: &mut Request, res: &mut Response| res.redirect("landing?from=relative"),
    );
    app.get(
        "/res/redirect/absolute",
        |_req: &mut Request, res: &mut Response| res.redirect("http://example.org/landing?a=1&b=2"),
    );
    app.get(
        "/res/redirect/status/:code",
        |req: &mut Request, res: &mut Response| {
            let code = status_number(req, "code")?;
            res.redirect_with(code, "/res/landing")
        },
    );
    // 'back' is a literal URL in Express 5.
    app.get(
        "/res/redirect/back",
        |_req: &mut Request, res: &mut Response| res.redirect("back"),
    );
    // res.redirect('/res/landing', 303): Express 5 reads two arguments as
    // (status, url), so the URL is `303` and the status the string
    // '/res/landing', which res.status refuses after Location and Vary are
    // set. The swapped call does not type-check in Rust; the port makes the
    // call Express 5 ends up making: URL `303` with a status that is none.
    app.get(
        "/res/redirect/url-first",
        |_req: &mut Request, res: &mut Response| res.redirect_with(0, "303"),
    );
    app.get(
        "/res/redirect/encoded",
        |_req: &mut Request, res: &mut Response| {
            res.redirect("/res/landing/\u{fc}mlaut path?q=a b&x=%20&y=%zz")
        },
    );
    app.get(
        "/res/redirect/html-escape",
        |_req: &mut Request, res: &mut Response| res.redirect("/res/landing?<b>\"&'"),
    );
    app.all(
        "/res/redirect/to",
        |req: &mut Request, res: &mut Response| {
            let to = query_or(req, "to", "/");
            res.redirect(&to)
        },
    );
    app.get("/res/location", |req: &mut Request, res: &mut Response| {
        let to = query_or(req, "to", "/res/landing");
        res.location(&to).status(201).send("located")
    });
}

fn headers(app: &mut App) {
    // `pages: [a, b]` gives one entry per URL in Express 5.
    app.get("/res/links", |_req: &mut Request, res: &mut Response| {
        res.links([
            ("next", "http://api.example.com/items?page=2"),
            ("pages", "http://api.example.com/items?page=1"),
            ("pages", "http://api.example.com/items?page=2"),
        ])
        .links([("last", "http://api.example.com/items?page=9")])
        .send("links")
    });
    app.get("/res/vary", |_req: &mut Request, res: &mut Response| {
        res.vary("Accept").vary("Accept-Encoding, accept");
        // res.vary(['Origin', 'User-Agent']): one name at a time.
        res.vary("Origin").vary("User-Agent");
        res.send("vary")
    });
    // res.vary() without a field throws a TypeError in Express 5; a Rust
    // call needs its field, so the port answers the TypeError's 500.
    app.get(
        "/res/vary-none",
        |_req: &mut Request, _res: &mut Response| -> Result {
            Err(crate::type_error("field argument is required"))
        },
    );
    app.get("/res/type", |req: &mut Request, res: &mut Response| {
        let t = query_or(req, "t", "html");
        res.type_(&t).send(b"typed")
    });
    app.get("/res/set-type", |req: &mut Request, res: &mut Response| {
        let v = query_or(req, "v", "text/plain");
        res.set("Content-Type", v).send(b"typed")
    });
    app.get(
        "/res/attachment",
        |_req: &mut Request, res: &mut Response| res.attachment(None).send("attachment body"),
    );
    app.get(
        "/res/attachment/:name",
        |req: &mut Request, res: &mut Response| {
            let name = req.param("name").unwrap_or_default().to_owned();
            res.attachment(name.as_str()).send("attachment body")
        },
    );
    app.get("/res/append", |_req: &mut Request, res: &mut Response| {
        // res.append('X-Multi', ['two', 'three']) adds one line per value.
        res.append("X-Multi", "one")
            .append("X-Multi", "two")
            .append("X-Multi", "three")
            .append("Set-Cookie", "raw=1; Path=/");
        res.cookie("made", "yes")?.send("appended")
    });
    app.get("/res/end", |_req: &mut Request, res: &mut Response| {
        res.end_with("raw end")
    });
    app.get("/res/write", |_req: &mut Request, res: &mut Response| {
        res.write("a")?;
        res.write("b")?;
        res.end_with("c")
    });
}

/// The `/neg/*` routes.
pub fn neg(app: &mut App) {
    app.get("/neg/format", |_req: &mut Request, res: &mut Response| {
        res.format(
            Format::new()
                .on("text/plain", |res| res.send("plain"))
                .on("text/html", |res| res.send("<p>html</p>"))
                .on("application/json", |res| {
                    res.json(&json!({ "format": "json" }))
                })
                .default(|res| res.type_("text/plain").send("default")),
        )
    });
    app.get(
        "/neg/format-strict",
        |_req: &mut Request, res: &mut Response| {
            res.format(
                Format::new()
                    .on("json", |res| res.json(&json!({ "format": "json" })))
                    .on("html", |res| res.send("<p>html</p>")),
            )
        },
    );
    // Express calls each callback with (req, res, next); a webfw format
    // callback is a Rust closure over `res` whose handler already holds
    // `req` and returns `next()` itself, so the three arguments Express
    // passes are stated here rather than counted.
    app.get(
        "/neg/format-args",
        |_req: &mut Request, res: &mut Response| {
            res.format(Format::new().on("text", |res| {
                res.send("callback got 3 arguments, next is function")
            }))
        },
    );
}
