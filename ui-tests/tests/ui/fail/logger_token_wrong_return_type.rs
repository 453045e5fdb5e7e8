use webfw::{Request, Response};

#[webfw::logger_token]
fn trace(req: &Request, _res: &Response, _arg: Option<&str>) -> String {
    req.get("x-trace").unwrap_or("-").to_owned()
}

fn main() {}
