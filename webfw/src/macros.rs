//! The procedural macros of `webfw-macros`, re-exported with runnable
//! examples. They are also in [`crate::prelude`].
//!
//! Every attribute leaves the function callable by its name and adds, in the
//! type namespace only, a struct of the same name that `routes![…]` turns
//! into registrations; [`crate::App::mount`] and [`crate::Router::mount`]
//! register them in the listed order, exactly as the equivalent hand-written
//! calls would.

/// A GET route (`app.get(path, f)`).
///
/// The function is `(req: &mut Request, res: &mut Response) -> Result`,
/// sync or `async`. Paths are path-to-regexp 0.1 patterns, compiled at build
/// time: an invalid one is a compile error on the literal. Several paths in
/// one attribute make one route that matches any of them (Express's
/// `app.get(["/a", "/b"], f)`); several attributes register one route each,
/// in source order. GET routes also answer HEAD.
///
/// ```
/// use webfw::prelude::*;
///
/// #[get("/users/:id")]
/// async fn show(req: &mut Request, res: &mut Response) -> Result {
///     let id = req.param("id").unwrap_or_default().to_owned();
///     res.send(format!("user {id}"))
/// }
///
/// #[get("/", "/index.html")]
/// #[post("/")]
/// fn index(_req: &mut Request, res: &mut Response) -> Result {
///     res.send("index")
/// }
///
/// let routes = routes![show, index];
/// assert_eq!(
///     routes.to_string(),
///     "GET /users/:id -> show\nGET /, /index.html -> index\nPOST / -> index"
/// );
/// let mut app = webfw::app();
/// app.mount(routes);
///
/// // the function is still an ordinary function
/// let mut req = webfw::testing::request(http::Method::GET, "/");
/// let mut res = webfw::testing::response(&req);
/// assert_eq!(index(&mut req, &mut res).unwrap(), Flow::Done);
/// ```
pub use webfw_macros::get;

/// A POST route (`app.post(path, f)`); see [`get`](macro@get) for the rules.
///
/// ```
/// use webfw::prelude::*;
///
/// #[post("/users")]
/// async fn create(_req: &mut Request, res: &mut Response) -> Result {
///     res.status(201).send("created")
/// }
///
/// let mut app = webfw::app();
/// app.mount(routes![create]);
/// ```
pub use webfw_macros::post;

/// A PUT route (`app.put(path, f)`); see [`get`](macro@get) for the rules.
///
/// ```
/// use webfw::prelude::*;
///
/// #[put("/users/:id")]
/// fn replace(_req: &mut Request, res: &mut Response) -> Result {
///     res.send_status(204)
/// }
///
/// assert_eq!(routes![replace].to_string(), "PUT /users/:id -> replace");
/// ```
pub use webfw_macros::put;

/// A DELETE route (`app.delete(path, f)`); see [`get`](macro@get) for the
/// rules.
///
/// ```
/// use webfw::prelude::*;
///
/// #[delete("/users/:id")]
/// fn remove(_req: &mut Request, res: &mut Response) -> Result {
///     res.send_status(204)
/// }
///
/// assert_eq!(routes![remove].to_string(), "DELETE /users/:id -> remove");
/// ```
pub use webfw_macros::delete;

/// A PATCH route (`app.patch(path, f)`); see [`get`](macro@get) for the
/// rules.
///
/// ```
/// use webfw::prelude::*;
///
/// #[patch("/users/:id")]
/// fn update(_req: &mut Request, res: &mut Response) -> Result {
///     res.send("updated")
/// }
///
/// assert_eq!(routes![update].to_string(), "PATCH /users/:id -> update");
/// ```
pub use webfw_macros::patch;

/// A HEAD route (`app.head(path, f)`): registered before a GET route of the
/// same path, it answers HEAD requests instead of the GET route.
///
/// ```
/// use webfw::prelude::*;
///
/// #[head("/file")]
/// fn probe(_req: &mut Request, res: &mut Response) -> Result {
///     res.set("x-size", "42");
///     res.end()
/// }
///
/// assert_eq!(routes![probe].to_string(), "HEAD /file -> probe");
/// ```
pub use webfw_macros::head;

/// An OPTIONS route (`app.options(path, f)`); without one, OPTIONS is
/// answered automatically with the `Allow` header.
///
/// ```
/// use webfw::prelude::*;
///
/// #[options("/users")]
/// fn preflight(_req: &mut Request, res: &mut Response) -> Result {
///     res.set("allow", "GET, POST");
///     res.send_status(204)
/// }
///
/// assert_eq!(routes![preflight].to_string(), "OPTIONS /users -> preflight");
/// ```
pub use webfw_macros::options;

/// A route for every method (`app.all(path, f)`).
///
/// ```
/// use webfw::prelude::*;
///
/// #[all("/secret")]
/// fn guard(_req: &mut Request, _res: &mut Response) -> Result {
///     next()
/// }
///
/// assert_eq!(routes![guard].to_string(), "ALL /secret -> guard");
/// ```
pub use webfw_macros::all;

/// A route for any method of Express's list (node's `http.METHODS`, any
/// case): `#[route(method = "m-search", path = "/")]`. `path` may be
/// repeated; the method is checked at build time.
///
/// ```
/// use webfw::prelude::*;
///
/// #[route(method = "m-search", path = "/", path = "/devices")]
/// fn discover(_req: &mut Request, res: &mut Response) -> Result {
///     res.send("found")
/// }
///
/// assert_eq!(routes![discover].to_string(), "M-SEARCH /, /devices -> discover");
/// ```
pub use webfw_macros::route;

/// A param callback (`app.param(name, f)`): the function is
/// `(req: &mut Request, res: &mut Response, value: &str) -> Result`, sync or
/// `async`. It runs once per request and value, before the first handler
/// whose path has the parameter. Several names share one callback:
/// `#[param("from", "to")]`.
///
/// ```
/// use webfw::prelude::*;
///
/// #[param("id")]
/// async fn load_user(req: &mut Request, _res: &mut Response, id: &str) -> Result {
///     match id.parse::<u32>() {
///         Ok(n) => {
///             req.set_local("user", serde_json::json!({ "id": n }));
///             next()
///         }
///         Err(_) => Err(Error::from_status(404)),
///     }
/// }
///
/// #[get("/users/:id")]
/// fn show(req: &mut Request, res: &mut Response) -> Result {
///     let user = req.local("user").cloned().unwrap_or_default();
///     res.json(&user)
/// }
///
/// let mut app = webfw::app();
/// app.mount(routes![load_user, show]);
/// ```
pub use webfw_macros::param;

/// Error-handling middleware (Express's `(err, req, res, next)`): the
/// function is `(err: Error, req: &mut Request, res: &mut Response) ->
/// Result`. Return `Err(err)` to pass the error on, `next()` to recover.
/// `#[error_handler("/api")]` handles errors under `/api` only.
///
/// ```
/// use webfw::prelude::*;
///
/// #[error_handler]
/// fn json_errors(err: Error, _req: &mut Request, res: &mut Response) -> Result {
///     let status = err.status();
///     res.status(status).json(&serde_json::json!({ "error": err.message() }))
/// }
///
/// #[get("/boom")]
/// fn boom(_req: &mut Request, _res: &mut Response) -> Result {
///     Err(Error::new("boom").with_status(418))
/// }
///
/// let mut app = webfw::app();
/// app.mount(routes![boom, json_errors]); // error handlers come last, as in Express
/// ```
pub use webfw_macros::error_handler;

/// Middleware (`app.use(f)`): the function is
/// `(req: &mut Request, res: &mut Response) -> Result`. `#[middleware("/api")]`
/// mounts it on a path (`app.use("/api", f)`), stripping the path from
/// `req.url` while it runs.
///
/// ```
/// use webfw::prelude::*;
///
/// #[middleware]
/// fn powered(_req: &mut Request, res: &mut Response) -> Result {
///     res.set("x-powered-by", "webfw macros");
///     next()
/// }
///
/// #[middleware("/admin")]
/// async fn admin_only(req: &mut Request, _res: &mut Response) -> Result {
///     match req.get("authorization") {
///         Some(_) => next(),
///         None => Err(Error::from_status(401)),
///     }
/// }
///
/// assert_eq!(routes![powered, admin_only].to_string(), "USE / -> powered\nUSE /admin -> admin_only");
/// ```
pub use webfw_macros::middleware;

/// Collects annotated functions into [`Routes`](crate::Routes), in the
/// listed order: `app.mount(routes![…])` registers them exactly as the
/// equivalent `app.get`, `app.param`, `app.use_` calls in that order would.
/// Names may be paths (`routes![users::show]`); anything that is not an
/// annotated function is a compile error.
///
/// ```
/// use webfw::prelude::*;
///
/// mod users {
///     use webfw::prelude::*;
///
///     #[get("/users")]
///     pub fn list(_req: &mut Request, res: &mut Response) -> Result {
///         res.json(&serde_json::json!([]))
///     }
/// }
///
/// #[middleware]
/// fn log(req: &mut Request, _res: &mut Response) -> Result {
///     println!("{} {}", req.method(), req.url());
///     next()
/// }
///
/// let mut router = webfw::router();
/// router.mount_at("/api", routes![log, users::list]); // USE /api, GET /api/users
/// let mut app = webfw::app();
/// app.use_(router);
/// ```
pub use webfw_macros::routes;
