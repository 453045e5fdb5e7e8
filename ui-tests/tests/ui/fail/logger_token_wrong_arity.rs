use webfw::Request;

#[webfw::logger_token]
fn trace(req: &Request) -> Option<String> {
    req.get("x-trace").map(str::to_owned)
}

fn main() {}
