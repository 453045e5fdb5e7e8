//! Every way of writing a `logger!` format that compiles.
use webfw::logger::LogStream;
use webfw::{Request, Response, logger_token};

#[logger_token("trace-id")]
fn trace_id(req: &Request, _res: &Response, _arg: Option<&str>) -> Option<String> {
    req.get("x-trace").map(str::to_owned)
}

#[logger_token]
fn tenant(_req: &Request, _res: &Response, arg: Option<&str>) -> Option<String> {
    arg.map(str::to_owned)
}

mod tokens {
    use webfw::{Request, Response};

    #[webfw::logger_token("span")]
    pub fn span(_req: &Request, _res: &Response, _arg: Option<&str>) -> Option<String> {
        None
    }
}

fn main() {
    let mut app = webfw::app();
    for name in ["combined", "common", "default", "dev", "short", "tiny"] {
        // A non-literal format is compiled at run time.
        app.use_(webfw::logger!(name).stream(std::io::sink()));
    }
    app.use_(webfw::logger!("combined").stream(LogStream::stderr()));
    app.use_(webfw::logger!("dev").skip(|_req, res| res.status_code() < 400));
    app.use_(webfw::logger!(
        ":method :url :status :res[content-length] :req[User-Agent] [:date[clf]] [:date[iso]] [:date] \
         :response-time[0] :total-time[2] :http-version :remote-addr :remote-user :referrer :user-agent :pid"
    ));
    app.use_(webfw::logger!("", tokens = [trace_id]));
    app.use_(webfw::logger!(
        ":a :: : x literal text \\ \" \t",
        tokens = []
    ));
    app.use_(
        webfw::logger!(
            ":trace-id :tenant[acme] :span :method",
            tokens = [trace_id, tenant, tokens::span,]
        )
        .immediate(true),
    );
    let dynamic = String::from(":method :trace-id");
    app.use_(webfw::logger!(dynamic, tokens = [trace_id]));
    // Still plain functions.
    let req = webfw::testing::request(http::Method::GET, "/");
    let res = webfw::testing::response(&req);
    assert_eq!(tenant(&req, &res, Some("x")).as_deref(), Some("x"));
}
