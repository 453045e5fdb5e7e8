use webfw::prelude::*;

#[middleware]
fn everywhere(_req: &mut Request, _res: &mut Response) -> Result {
    next()
}

#[middleware("/admin", "/root")]
fn admin(_req: &mut Request, _res: &mut Response) -> Result {
    next()
}

#[error_handler("/api")]
fn api_errors(err: Error, _req: &mut Request, res: &mut Response) -> Result {
    res.status(err.status()).json(&serde_json::json!({ "error": err.message() }))
}

#[error_handler]
fn last_resort(err: Error, _req: &mut Request, res: &mut Response) -> Result {
    res.status(err.status()).send(err.to_string())
}

fn main() {
    assert_eq!(
        routes![everywhere, admin, api_errors, last_resort].to_string(),
        "USE / -> everywhere\nUSE /admin, /root -> admin\nERROR /api -> api_errors\nERROR / -> last_resort"
    );
    let mut app = webfw::app();
    app.mount(routes![everywhere, admin, api_errors, last_resort]);
}
