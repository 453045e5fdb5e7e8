//! `/eco/favicon/*` and `/eco/favicon-default/*`: serve-favicon (ROUTES.md,
//! "/eco/favicon").

use std::path::Path;

use webfw::App;
use webfw::prelude::*;
use webfw::serve_favicon::FaviconOptions;

pub fn routes(app: &mut App, fixtures: &Path) {
    let icon = fixtures.join("eco").join("favicon.ico");
    let mut fav = webfw::app();
    fav.use_(webfw::favicon(&icon, FaviconOptions::new().max_age("2d")));
    fav.get("*", |req: &mut Request, res: &mut Response| {
        let body = format!("not the icon: {}", req.url());
        res.send(body)
    });
    app.use_at("/eco/favicon", fav);
    let mut fav_default = webfw::app();
    fav_default.use_(webfw::favicon(&icon, ()));
    app.use_at("/eco/favicon-default", fav_default);
}
