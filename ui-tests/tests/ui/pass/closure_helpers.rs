//! The closure helpers infer their argument types.
use webfw::{async_handler_fn, error_handler_fn, handler_fn, param_fn};

fn main() {
    let mut app = webfw::app();
    app.param("id", param_fn(|req, _res, id| {
        req.set_local("id", serde_json::json!(id));
        webfw::next()
    }));
    app.get("/", handler_fn(|req, res| res.send(req.path().to_owned())));
    app.get("/later", async_handler_fn(async |req, res| {
        tokio::task::yield_now().await;
        res.send(req.path().to_owned())
    }));
    app.use_((
        handler_fn(|_req, _res| webfw::next()),
        error_handler_fn(|err, _req, res| res.status(err.status()).send(err.to_string())),
    ));
}
