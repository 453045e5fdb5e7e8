//! `/eco/cors/<variant>/*`: the cors middleware (ROUTES.md, "/eco/cors").

use serde_json::json;
use webfw::App;
use webfw::cors::{CorsOptions, Origin, OriginMatch, Regex};
use webfw::prelude::*;

/// ROUTES.md's **echo**.
fn echo(req: &mut Request, res: &mut Response) -> Result {
    let body = json!({"method": req.method().as_str(), "url": req.url(), "path": req.path()});
    res.json(&body)
}

pub fn routes(app: &mut App) {
    let variants: [(&str, CorsOptions); 9] = [
        ("default", CorsOptions::new()),
        (
            "origin",
            CorsOptions::new()
                .origin("http://a.example")
                .credentials(true)
                .exposed_headers(["X-Total", "X-Page"])
                .max_age(600),
        ),
        (
            "list",
            CorsOptions::new()
                .origin(Origin::list([
                    OriginMatch::from("http://a.example"),
                    OriginMatch::from(Regex::new(r"\.b\.example$").expect("valid regex")),
                ]))
                .methods(["GET", "PUT"])
                .allowed_headers(["Content-Type", "X-Token"]),
        ),
        (
            "reflect",
            CorsOptions::new().origin(true).methods("GET,POST"),
        ),
        (
            "fn",
            CorsOptions::new().origin(Origin::function(|origin| {
                Ok((origin == Some("http://ok.example")).into())
            })),
        ),
        (
            "fn-error",
            CorsOptions::new().origin(Origin::function(|_| Err(Error::new("Not allowed by CORS")))),
        ),
        ("continue", CorsOptions::new().preflight_continue(true)),
        (
            "status",
            CorsOptions::new()
                .options_success_status(200)
                .origin("http://a.example"),
        ),
        ("off", CorsOptions::new().origin(false)),
    ];
    for (name, opts) in variants {
        let mut r = webfw::router();
        r.use_(webfw::cors(opts));
        if name == "continue" {
            r.options("*", |_req: &mut Request, res: &mut Response| {
                res.status(202).send("own options")
            });
        }
        r.all("*", echo);
        app.use_at(format!("/eco/cors/{name}").as_str(), r);
    }
}
