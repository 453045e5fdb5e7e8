use webfw::{Request, Response};

#[webfw::logger_token("method")]
fn my_method(req: &Request, _res: &Response, _arg: Option<&str>) -> Option<String> {
    Some(req.method().to_string())
}

fn main() {}
