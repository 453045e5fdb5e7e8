//! Procedural macros of [webfw](https://docs.rs/webfw): route attributes,
//! param callbacks, error handlers, middleware and `routes!`.
//!
//! Use them through `webfw` (`use webfw::prelude::*;`), whose re-exports
//! carry runnable examples; this crate generates paths starting with
//! `::webfw`.
//!
//! Every attribute leaves the annotated function as written, so it stays
//! callable and testable by its name, and adds a struct of the same name in
//! the type namespace (`#[allow(non_camel_case_types)] struct name {}`)
//! that implements webfw's `Handler`, `ParamHandler` or `ErrorHandler` by
//! calling the function, and tells `routes!` what to register. Paths are
//! compiled at build time by the parser the runtime uses (`webfw-pattern`);
//! a wrong path or signature is one error on the offending token, with the
//! fix in the message, and the function is still emitted.
//!
//! | attribute | function | registers |
//! |---|---|---|
//! | `#[get("/p", …)]`, `post`, `put`, `delete`, `patch`, `head`, `options` | `(req: &mut Request, res: &mut Response) -> Result` | `router.route(paths).get(f)` |
//! | `#[all("/p", …)]` | same | `router.route(paths).all(f)` |
//! | `#[route(method = "m-search", path = "/p", …)]` | same | `router.route(paths).method("m-search", f)` |
//! | `#[middleware]`, `#[middleware("/p", …)]` | same | `router.use_(f)`, `router.use_at(paths, f)` |
//! | `#[param("id", …)]` | `(req: &mut Request, res: &mut Response, value: &str) -> Result` | `router.params(&["id"], f)` |
//! | `#[error_handler]`, `#[error_handler("/p", …)]` | `(err: Error, req: &mut Request, res: &mut Response) -> Result` | `router.use_(f)` as error middleware |
//!
//! Functions may be `async fn` or plain `fn`. Several webfw attributes of
//! the same signature may annotate one function; they register in source
//! order. Several paths in one attribute are one layer matching any of them,
//! like Express's `app.get(["/a", "/b"], f)`.

mod args;
mod expand;
mod kind;
mod logger;
mod paths;
mod routes;
mod signature;

use proc_macro::TokenStream;

use kind::Kind;

fn attr(kind: Kind, args: TokenStream, item: TokenStream) -> TokenStream {
    expand::attribute(kind, paths::Dialect::Express4, args.into(), item.into()).into()
}

fn attr5(kind: Kind, args: TokenStream, item: TokenStream) -> TokenStream {
    expand::attribute(kind, paths::Dialect::Express5, args.into(), item.into()).into()
}

/// The Express 5 flavour of each route attribute: the same expansion,
/// with paths checked by path-to-regexp 8 and registered in its syntax.
/// webfw re-exports them under the Express 4 names in `webfw::express5`.
macro_rules! express5_attributes {
    ($($name:ident => $kind:expr, $shown:literal;)*) => {$(
        #[doc = concat!("`#[", $shown, "]` of Express 5 (path-to-regexp 8 paths); use it as `webfw::express5::", $shown, "`.")]
        #[proc_macro_attribute]
        pub fn $name(args: TokenStream, item: TokenStream) -> TokenStream {
            attr5($kind, args, item)
        }
    )*};
}

express5_attributes! {
    get5 => Kind::Method("get"), "get";
    post5 => Kind::Method("post"), "post";
    put5 => Kind::Method("put"), "put";
    delete5 => Kind::Method("delete"), "delete";
    patch5 => Kind::Method("patch"), "patch";
    head5 => Kind::Method("head"), "head";
    options5 => Kind::Method("options"), "options";
    all5 => Kind::All, "all";
    route5 => Kind::Route, "route";
    middleware5 => Kind::Middleware, "middleware";
}

/// A GET route: `#[get("/users/:id")]` on
/// `(req: &mut Request, res: &mut Response) -> Result` (sync or `async`),
/// registered as `router.route(path).get(f)`; GET routes also answer HEAD.
/// Several paths (`#[get("/a", "/b")]`) make one route matching any of them.
#[proc_macro_attribute]
pub fn get(args: TokenStream, item: TokenStream) -> TokenStream {
    attr(Kind::Method("get"), args, item)
}

/// A POST route: `#[post("/users")]`; see [`macro@get`] for the rules.
#[proc_macro_attribute]
pub fn post(args: TokenStream, item: TokenStream) -> TokenStream {
    attr(Kind::Method("post"), args, item)
}

/// A PUT route: `#[put("/users/:id")]`; see [`macro@get`] for the rules.
#[proc_macro_attribute]
pub fn put(args: TokenStream, item: TokenStream) -> TokenStream {
    attr(Kind::Method("put"), args, item)
}

/// A DELETE route: `#[delete("/users/:id")]`; see [`macro@get`] for the rules.
#[proc_macro_attribute]
pub fn delete(args: TokenStream, item: TokenStream) -> TokenStream {
    attr(Kind::Method("delete"), args, item)
}

/// A PATCH route: `#[patch("/users/:id")]`; see [`macro@get`] for the rules.
#[proc_macro_attribute]
pub fn patch(args: TokenStream, item: TokenStream) -> TokenStream {
    attr(Kind::Method("patch"), args, item)
}

/// A HEAD route: `#[head("/users/:id")]` (registered before a GET route of the
/// same path, it answers HEAD instead of the GET route); see [`macro@get`].
#[proc_macro_attribute]
pub fn head(args: TokenStream, item: TokenStream) -> TokenStream {
    attr(Kind::Method("head"), args, item)
}

/// An OPTIONS route: `#[options("/users")]` (otherwise OPTIONS is answered
/// automatically with `Allow`); see [`macro@get`].
#[proc_macro_attribute]
pub fn options(args: TokenStream, item: TokenStream) -> TokenStream {
    attr(Kind::Method("options"), args, item)
}

/// A route for every method: `#[all("/secret")]`, registered as
/// `router.route(path).all(f)`; see [`macro@get`].
#[proc_macro_attribute]
pub fn all(args: TokenStream, item: TokenStream) -> TokenStream {
    attr(Kind::All, args, item)
}

/// A route for any method of Express's list (node's `http.METHODS`):
/// `#[route(method = "m-search", path = "/", path = "/search")]`. The method
/// is checked at compile time (any case; `all` is `#[all]`), `path` may be
/// repeated.
#[proc_macro_attribute]
pub fn route(args: TokenStream, item: TokenStream) -> TokenStream {
    attr(Kind::Route, args, item)
}

/// A param callback (`app.param(name, fn)`): `#[param("id")]` on
/// `(req: &mut Request, res: &mut Response, value: &str) -> Result`. It runs
/// once per request and value before the first handler whose path has
/// `:id`. Several names share the callback: `#[param("from", "to")]`.
#[proc_macro_attribute]
pub fn param(args: TokenStream, item: TokenStream) -> TokenStream {
    attr(Kind::Param, args, item)
}

/// Error-handling middleware: `#[error_handler]` on
/// `(err: Error, req: &mut Request, res: &mut Response) -> Result`, mounted
/// where it is listed in `routes!` (Express's four-argument middleware).
/// `#[error_handler("/api")]` mounts it on a path only.
#[proc_macro_attribute]
pub fn error_handler(args: TokenStream, item: TokenStream) -> TokenStream {
    attr(Kind::ErrorHandler, args, item)
}

/// Middleware (`app.use(fn)`): `#[middleware]` on
/// `(req: &mut Request, res: &mut Response) -> Result`; `#[middleware("/api")]`
/// mounts it on a path (`app.use("/api", fn)`), stripping the path from
/// `req.url` while it runs.
#[proc_macro_attribute]
pub fn middleware(args: TokenStream, item: TokenStream) -> TokenStream {
    attr(Kind::Middleware, args, item)
}

/// Collects annotated functions into a `webfw::Routes`, in the listed order:
/// `app.mount(routes![load_user, show, oops])`. Paths may be qualified
/// (`routes![users::show]`).
#[proc_macro]
pub fn routes(input: TokenStream) -> TokenStream {
    routes::expand(input.into()).into()
}

/// A request logger whose format is checked at compile time:
/// `logger!("combined")`, `logger!(":method :url :status :response-time[1] ms")`,
/// `logger!(":method :trace", tokens = [trace])`. Expands to a
/// `webfw::logger::Logger`; see `webfw::logger` for the tokens and rules.
#[proc_macro]
pub fn logger(input: TokenStream) -> TokenStream {
    logger::expand(input.into()).into()
}

/// Declares a custom logger token for `logger!(…, tokens = [name])`:
/// `#[logger_token("trace")]` (or `#[logger_token]`, named after the function)
/// on `fn(req: &Request, res: &Response, arg: Option<&str>) -> Option<String>`.
#[proc_macro_attribute]
pub fn logger_token(args: TokenStream, item: TokenStream) -> TokenStream {
    logger::attribute(args.into(), item.into()).into()
}
