use webfw::{Request, Response};

#[webfw::logger_token("trace id")]
fn trace(req: &Request, _res: &Response, _arg: Option<&str>) -> Option<String> {
    req.get("x-trace").map(str::to_owned)
}

fn main() {}
