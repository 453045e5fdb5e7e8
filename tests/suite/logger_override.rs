//! Redefining a built-in token (`morgan.token('method', …)`) reaches every
//! format, compiled at run time or by `logger!`. Run alone in a child
//! process: the redefinition is process-wide.

use crate::common;

use webfw::logger::{self, Tokens};
use webfw::{Request, Response};

#[test]
fn a_redefined_builtin_applies_to_both_paths() {
    if !common::alone(module_path!(), "a_redefined_builtin_applies_to_both_paths") {
        return;
    }
    let runtime = logger::compile(":method :url").unwrap();
    let by_macro = webfw::logger!(":method :url").format().clone();
    let req = webfw::testing::request(http::Method::GET, "/x");
    let res = webfw::testing::response(&req);
    let t = Tokens::new();
    assert_eq!(runtime.call(&t, &req, &res).unwrap(), "GET /x");
    logger::token("method", |req: &Request, _res: &Response, _arg| {
        Some(req.method().as_str().to_lowercase())
    });
    assert_eq!(runtime.call(&t, &req, &res).unwrap(), "get /x");
    assert_eq!(by_macro.call(&t, &req, &res).unwrap(), "get /x");
    assert_eq!(t.get("method", &req, &res, None).as_deref(), Some("get"));
}
