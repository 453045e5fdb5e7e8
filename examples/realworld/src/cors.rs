//! CORS for browser front ends on other origins: any origin may call the
//! API (it authenticates with a header, never a cookie), and preflight
//! requests are answered here.

use webfw::prelude::*;

/// `Access-Control-Allow-Origin: *` on every answer; `OPTIONS` preflights
/// get 204 with the methods and headers the API uses.
#[middleware]
pub fn cors(req: &mut Request, res: &mut Response) -> Result {
    res.set("access-control-allow-origin", "*");
    if req.method() == "OPTIONS" && req.get("access-control-request-method").is_some() {
        res.set(
            "access-control-allow-methods",
            "GET,HEAD,PUT,PATCH,POST,DELETE",
        );
        let headers = req
            .get("access-control-request-headers")
            .unwrap_or("authorization,content-type");
        res.set("access-control-allow-headers", headers);
        res.set("access-control-max-age", "86400");
        return res.send_status(204);
    }
    next()
}
