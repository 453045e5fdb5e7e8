//! `/eco/rtime/*`: response-time (ROUTES.md, "/eco/rtime").

use webfw::App;
use webfw::prelude::*;
use webfw::response_time::ResponseTimeOptions;

pub fn routes(app: &mut App) {
    app.get(
        "/eco/rtime/default",
        (
            webfw::response_time(()),
            |_req: &mut Request, res: &mut Response| res.send("timed"),
        ),
    );
    let custom = ResponseTimeOptions::new()
        .digits(0)
        .suffix(false)
        .header("X-Elapsed");
    app.get(
        "/eco/rtime/custom",
        (
            webfw::response_time(custom),
            |_req: &mut Request, res: &mut Response| res.send("timed custom"),
        ),
    );
    let timed = webfw::response_time::callback(|req: &Request| {
        let method = req.method().clone();
        // A Duration is never negative: the reference's `time >= 0` holds.
        move |res: &mut Response, _time: std::time::Duration| {
            res.set("X-Timed", format!("{method} ok"));
        }
    });
    app.get(
        "/eco/rtime/fn",
        (timed, |_req: &mut Request, res: &mut Response| {
            res.send("timed fn")
        }),
    );
}
