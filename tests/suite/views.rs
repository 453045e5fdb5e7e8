//! Views over a socket: `res.render`, `res.render_to_string`, `app.render`,
//! `app.engine`; Express's lookup order (`views` lists, `view engine`,
//! `<name>/index.<ext>`, absolute paths), locals precedence, the view cache,
//! lookup and engine errors through `next(err)`, and what mounted sub-apps
//! inherit. View files live in a fresh temporary directory per test.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::TestServer;
use serde_json::{Value, json};
use webfw::prelude::*;
use webfw::view::{Engine, Locals, ViewFile};
use webfw::{Format, Handler, HandlerFuture};

/// A fresh directory under the system's temporary directory.
fn temp_dir(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "webfw-views-{}-{tag}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `{key}` → the local's string form; counts compilations.
#[derive(Clone, Default)]
struct Curly {
    compiled: Arc<AtomicUsize>,
}

impl Engine for Curly {
    type Template = String;

    fn compile(&self, view: &ViewFile<'_>) -> std::result::Result<String, Error> {
        self.compiled.fetch_add(1, Ordering::SeqCst);
        if view.source().contains("{!") {
            return Err(Error::new(format!("bad syntax in {}", view.name())));
        }
        Ok(view.source().to_owned())
    }

    fn render(&self, template: &String, locals: &Locals) -> std::result::Result<String, Error> {
        let mut out = template.clone();
        for (k, v) in locals {
            let text = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            out = out.replace(&format!("{{{k}}}"), &text);
        }
        Ok(out)
    }
}

/// `res.render(view, locals)`.
struct Render(&'static str, Value);

impl Handler for Render {
    fn call<'a>(&'a self, _req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        HandlerFuture::boxed(Box::pin(res.render(self.0, self.1.clone())))
    }
}

/// Answers an error with its message, so tests see Express's wording.
fn echo_error(err: Error, _req: &mut Request, res: &mut Response) -> Result {
    res.status(500).send(err.message().to_owned())
}

/// An app rendering `view` at `/` with the `Curly` engine for `.c` files.
fn app_with(views: impl Into<webfw::Setting>, view: &'static str, locals: Value) -> App {
    let mut app = webfw::app();
    app.set("views", views).set("view engine", "c");
    app.engine("c", Curly::default());
    app.get("/", Render(view, locals));
    app.use_(echo_error);
    app
}

async fn body_of(app: App, path: &str) -> (u16, String) {
    let res = TestServer::start(app).await.get(path).await;
    (res.status, res.text())
}

// ---- lookup ----

#[tokio::test]
async fn render_sends_html_with_the_status_set_before() {
    let dir = temp_dir("send");
    write(&dir, "page.c", "<p>{name}</p>");
    let mut app = webfw::app();
    app.set("views", dir.as_path()).set("view engine", "c");
    app.engine("c", Curly::default());
    app.get("/", |_req: &mut Request, res: &mut Response| {
        res.status(201);
        next()
    });
    app.get("/", Render("page", json!({ "name": "Ada" })));
    let res = TestServer::start(app).await.get("/").await;
    assert_eq!(res.status, 201);
    assert_eq!(res.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(res.header("content-length"), Some("10"));
    assert!(res.header("etag").is_some_and(|e| e.starts_with("W/")));
    assert_eq!(res.text(), "<p>Ada</p>");
}

#[tokio::test]
async fn a_list_of_views_directories_is_searched_in_order() {
    let (a, b) = (temp_dir("list-a"), temp_dir("list-b"));
    write(&a, "both.c", "from a");
    write(&b, "both.c", "from b");
    write(&b, "only-b.c", "b only");
    let views = json!([a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(
        body_of(app_with(views.clone(), "both", json!({})), "/").await,
        (200, "from a".into())
    );
    assert_eq!(
        body_of(app_with(views, "only-b", json!({})), "/").await,
        (200, "b only".into())
    );
}

#[tokio::test]
async fn a_file_comes_before_a_directory_index() {
    let dir = temp_dir("index");
    write(&dir, "users/index.c", "users index");
    write(&dir, "both.c", "file");
    write(&dir, "both/index.c", "index");
    assert_eq!(
        body_of(app_with(dir.as_path(), "users", json!({})), "/").await,
        (200, "users index".into())
    );
    assert_eq!(
        body_of(app_with(dir.as_path(), "both", json!({})), "/").await,
        (200, "file".into())
    );
}

#[tokio::test]
async fn an_index_is_found_in_a_later_root_only_after_earlier_roots_miss() {
    let (a, b) = (temp_dir("idx-a"), temp_dir("idx-b"));
    write(&a, "x/index.c", "a index");
    write(&b, "x.c", "b file");
    let views = json!([a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(
        body_of(app_with(views, "x", json!({})), "/").await,
        (200, "a index".into())
    );
}

#[tokio::test]
async fn absolute_paths_and_explicit_extensions() {
    let dir = temp_dir("abs");
    let other = temp_dir("abs-other");
    write(&other, "elsewhere.c", "absolute {n}");
    let abs: &'static str = Box::leak(
        other
            .join("elsewhere")
            .to_string_lossy()
            .into_owned()
            .into_boxed_str(),
    );
    assert_eq!(
        body_of(app_with(dir.as_path(), abs, json!({ "n": 1 })), "/").await,
        (200, "absolute 1".into())
    );
    write(&dir, "page.txt", "plain {n}");
    let mut app = app_with(dir.as_path(), "page.txt", json!({ "n": 2 }));
    app.engine(".txt", Curly::default());
    assert_eq!(body_of(app, "/").await, (200, "plain 2".into()));
}

#[tokio::test]
async fn relative_views_resolve_against_the_working_directory() {
    let dir = temp_dir("rel");
    write(&dir, "rel.c", "relative");
    let cwd = std::env::current_dir().unwrap();
    let rel = pathdiff(&dir, &cwd);
    assert_eq!(
        body_of(app_with(rel.as_path(), "rel", json!({})), "/").await,
        (200, "relative".into())
    );
}

/// `dir` relative to `base` (both absolute), through `..` segments.
fn pathdiff(dir: &Path, base: &Path) -> PathBuf {
    let mut rel = PathBuf::new();
    for _ in base.components().skip(1) {
        rel.push("..");
    }
    rel.join(dir.strip_prefix("/").unwrap())
}

// ---- errors ----

#[tokio::test]
async fn a_missing_view_is_expresss_lookup_error() {
    let dir = temp_dir("missing");
    let root = dir.to_str().unwrap().to_owned();
    assert_eq!(
        body_of(app_with(dir.as_path(), "nope", json!({})), "/").await,
        (
            500,
            format!("Failed to lookup view \"nope\" in views directory \"{root}\"")
        )
    );
    let views = json!(["/no/a", "/no/b", "/no/c"]);
    assert_eq!(
        body_of(app_with(views, "nope", json!({})), "/").await,
        (
            500,
            "Failed to lookup view \"nope\" in views directories \"/no/a\", \"/no/b\" or \"/no/c\""
                .into()
        )
    );
}

#[tokio::test]
async fn a_missing_view_reaches_the_final_handler_as_a_500() {
    let dir = temp_dir("final");
    let mut app = webfw::app();
    app.set("views", dir.as_path()).set("view engine", "c");
    app.engine("c", Curly::default());
    app.get("/", Render("nope", json!({})));
    let res = TestServer::start(app).await.get("/").await;
    assert_eq!(res.status, 500);
    assert!(
        res.text().contains("Failed to lookup view"),
        "{}",
        res.text()
    );
}

#[tokio::test]
async fn names_without_extension_need_a_view_engine() {
    let dir = temp_dir("noengine");
    let mut app = webfw::app();
    app.set("views", dir.as_path());
    app.get("/", Render("page", json!({})));
    app.use_(echo_error);
    assert_eq!(
        body_of(app, "/").await,
        (
            500,
            "No default engine was specified and no extension was provided.".into()
        )
    );
}

#[tokio::test]
async fn an_extension_without_engine_says_how_to_register_one() {
    let dir = temp_dir("noext");
    write(&dir, "page.pug", "x");
    assert_eq!(
        body_of(app_with(dir.as_path(), "page.pug", json!({})), "/").await,
        (
            500,
            "No view engine is registered for \".pug\" (rendering \"page.pug\"): \
             add one with app.engine(\"pug\", engine)"
                .into()
        )
    );
}

#[tokio::test]
async fn engine_errors_and_bad_locals_go_to_next() {
    let dir = temp_dir("engine-err");
    write(&dir, "bad.c", "{! oops");
    assert_eq!(
        body_of(app_with(dir.as_path(), "bad", json!({})), "/").await,
        (500, "bad syntax in bad".into())
    );
    write(&dir, "ok.c", "ok");
    let (status, body) = body_of(app_with(dir.as_path(), "ok", json!([1, 2])), "/").await;
    assert_eq!(status, 500);
    assert!(
        body.starts_with("render locals must serialize to a map"),
        "{body}"
    );
}

#[tokio::test]
async fn a_view_larger_than_the_limit_is_refused_not_read() {
    let dir = temp_dir("big");
    let file = std::fs::File::create(dir.join("big.c")).unwrap();
    file.set_len(webfw::view::MAX_VIEW_SIZE + 1).unwrap();
    let (status, body) = body_of(app_with(dir.as_path(), "big", json!({})), "/").await;
    assert_eq!(status, 500);
    assert!(body.contains("is larger than 8388608 bytes"), "{body}");
}

#[tokio::test]
async fn render_to_string_gives_the_error_to_the_caller() {
    async fn h(_req: &mut Request, res: &mut Response) -> Result {
        match res.render_to_string("nope", ()).await {
            Ok(html) => res.send(html),
            Err(e) => res.status(502).send(format!("caught: {}", e.message())),
        }
    }
    let dir = temp_dir("cb");
    let mut app = webfw::app();
    app.set("views", dir.as_path()).set("view engine", "c");
    app.engine("c", Curly::default());
    app.get("/", h);
    let (status, body) = body_of(app, "/").await;
    assert_eq!(status, 502);
    assert!(
        body.starts_with("caught: Failed to lookup view \"nope\""),
        "{body}"
    );
}

// ---- locals ----

#[tokio::test]
async fn render_locals_beat_res_locals_beat_app_locals() {
    async fn h(_req: &mut Request, res: &mut Response) -> Result {
        res.locals_mut().insert("b".into(), json!("res"));
        res.locals_mut().insert("c".into(), json!("res"));
        res.render("l", json!({ "c": "render" })).await
    }
    async fn via_app(req: &mut Request, res: &mut Response) -> Result {
        res.locals_mut().insert("b".into(), json!("res"));
        let app = req.app().clone();
        let html = app.render("l", json!({ "c": "render" })).await?;
        res.send(html)
    }
    let dir = temp_dir("locals");
    write(&dir, "l.c", "{a} {b} {c}");
    let mut app = webfw::app();
    app.set("views", dir.as_path()).set("view engine", "c");
    app.engine("c", Curly::default());
    for k in ["a", "b", "c"] {
        app.locals_mut().insert(k.into(), json!("app"));
    }
    app.get("/res", h);
    app.get("/app", via_app);
    let server = TestServer::start(app).await;
    assert_eq!(server.get("/res").await.text(), "app res render");
    // app.render never sees res.locals.
    assert_eq!(server.get("/app").await.text(), "app app render");
}

#[tokio::test]
async fn app_render_works_without_a_server() {
    let dir = temp_dir("offline");
    write(&dir, "mail.c", "Hi {who}");
    let mut app = webfw::app();
    app.set("views", dir.as_path()).set("view engine", "c");
    app.engine("c", Curly::default());
    app.locals_mut().insert("who".into(), json!("app"));
    assert_eq!(
        app.render("mail", json!({ "who": "Ada" })).await.unwrap(),
        "Hi Ada"
    );
    assert_eq!(app.render("mail", ()).await.unwrap(), "Hi app");
    let app = app.freeze_root();
    assert_eq!(
        app.render("mail", json!({ "who": "Ada" })).await.unwrap(),
        "Hi Ada"
    );
}

// ---- cache ----

async fn three_renders(cache: Option<bool>, local: Option<bool>) -> (Vec<String>, usize) {
    let dir = temp_dir("cache");
    write(&dir, "v.c", "one");
    let engine = Curly::default();
    let compiled = engine.compiled.clone();
    let mut app = webfw::app();
    app.set("views", dir.as_path()).set("view engine", "c");
    if let Some(on) = cache {
        app.set("view cache", on);
    }
    app.engine("c", engine);
    let locals = match local {
        Some(on) => json!({ "cache": on }),
        None => json!({}),
    };
    app.get("/", Render("v", locals));
    let server = TestServer::start(app).await;
    let mut bodies = vec![server.get("/").await.text()];
    write(&dir, "v.c", "two");
    bodies.push(server.get("/").await.text());
    bodies.push(server.get("/").await.text());
    (bodies, compiled.load(Ordering::SeqCst))
}

#[tokio::test]
async fn view_cache_keeps_the_compiled_template() {
    let (bodies, compiled) = three_renders(Some(true), None).await;
    assert_eq!(bodies, ["one", "one", "one"]);
    assert_eq!(compiled, 1);
}

#[tokio::test]
async fn without_view_cache_every_render_reads_the_file() {
    let (bodies, compiled) = three_renders(None, None).await;
    assert_eq!(bodies, ["one", "two", "two"]);
    assert_eq!(compiled, 3);
}

#[tokio::test]
async fn the_cache_local_overrides_the_setting() {
    let (bodies, compiled) = three_renders(Some(true), Some(false)).await;
    assert_eq!(
        (bodies, compiled),
        (vec!["one".into(), "two".into(), "two".into()], 3)
    );
    let (bodies, compiled) = three_renders(Some(false), Some(true)).await;
    assert_eq!(
        (bodies, compiled),
        (vec!["one".into(), "one".into(), "one".into()], 1)
    );
}

#[tokio::test]
async fn lookup_failures_are_not_cached() {
    let dir = temp_dir("late");
    let mut app = app_with(dir.as_path(), "late", json!({}));
    app.set("view cache", true);
    let server = TestServer::start(app).await;
    assert_eq!(server.get("/").await.status, 500);
    write(&dir, "late.c", "arrived");
    assert_eq!(server.get("/").await.text(), "arrived");
}

// ---- sub-apps ----

#[tokio::test]
async fn sub_apps_inherit_engines_and_view_engine_but_not_views_or_locals() {
    let dir = temp_dir("sub");
    write(&dir, "s.c", "[{site}]");
    let mut sub = webfw::app();
    sub.get("/", Render("s", json!({})));
    sub.use_(echo_error);
    let mut app = webfw::app();
    app.set("views", dir.as_path()).set("view engine", "c");
    app.locals_mut().insert("site".into(), json!("parent"));
    app.engine("c", Curly::default());
    app.use_at("/sub", sub);
    // `views` has a default (cwd/views), so the sub-app keeps its own.
    let cwd_views = std::env::current_dir().unwrap().join("views");
    assert_eq!(
        body_of(app, "/sub").await,
        (
            500,
            format!(
                "Failed to lookup view \"s\" in views directory \"{}\"",
                cwd_views.display()
            )
        )
    );

    let mut sub = webfw::app();
    sub.set("views", dir.as_path());
    sub.locals_mut().insert("site".into(), json!("sub"));
    sub.get("/", Render("s", json!({})));
    let mut app = webfw::app();
    app.set("view engine", "c");
    app.locals_mut().insert("site".into(), json!("parent"));
    app.engine("c", Curly::default());
    app.use_at("/sub", sub);
    // Engine and `view engine` come from the parent, locals are the sub-app's.
    assert_eq!(body_of(app, "/sub").await, (200, "[sub]".into()));
}

#[tokio::test]
async fn a_sub_apps_own_engine_shadows_the_parents() {
    struct Upper;
    impl Engine for Upper {
        type Template = String;
        fn compile(&self, view: &ViewFile<'_>) -> std::result::Result<String, Error> {
            Ok(view.source().to_uppercase())
        }
        fn render(&self, t: &String, _: &Locals) -> std::result::Result<String, Error> {
            Ok(t.clone())
        }
    }
    let dir = temp_dir("shadow");
    write(&dir, "s.c", "shout");
    let mut sub = webfw::app();
    sub.set("views", dir.as_path());
    sub.engine("c", Upper);
    sub.get("/", Render("s", json!({})));
    let mut app = webfw::app();
    app.set("views", dir.as_path()).set("view engine", "c");
    app.engine("c", Curly::default());
    app.get("/", Render("s", json!({})));
    app.use_at("/sub", sub);
    let server = TestServer::start(app).await;
    assert_eq!(server.get("/sub").await.text(), "SHOUT");
    assert_eq!(server.get("/").await.text(), "shout");
}

// ---- minijinja ----

#[tokio::test]
async fn minijinja_views_extend_layouts_and_escape() {
    let dir = temp_dir("jinja");
    write(
        &dir,
        "layout.html",
        "<title>{{ site }}</title>{% block body %}{% endblock %}",
    );
    write(
        &dir,
        "pages/home.html",
        "{% extends \"layout.html\" %}{% block body %}{% include \"partials/hi.html\" %}{% endblock %}",
    );
    write(&dir, "partials/hi.html", "<p>Hi {{ name }}</p>");
    let mut app = webfw::app();
    app.set("views", dir.as_path()).set("view engine", "html");
    app.engine("html", webfw::view::MiniJinja::new());
    app.locals_mut().insert("site".into(), json!("S&S"));
    app.get("/", Render("pages/home", json!({ "name": "<Ada>" })));
    let res = TestServer::start(app).await.get("/").await;
    assert_eq!(res.status, 200);
    assert_eq!(res.text(), "<title>S&amp;S</title><p>Hi &lt;Ada&gt;</p>");
}

#[tokio::test]
async fn minijinja_errors_go_to_next() {
    let dir = temp_dir("jinja-err");
    write(&dir, "bad.html", "{% for %}");
    write(&dir, "missing-include.html", "{% include \"nope.html\" %}");
    let mut app = webfw::app();
    app.set("views", dir.as_path());
    app.engine("html", webfw::view::MiniJinja::new());
    app.get("/bad", Render("bad.html", json!({})));
    app.get("/inc", Render("missing-include.html", json!({})));
    app.use_(echo_error);
    let server = TestServer::start(app).await;
    let bad = server.get("/bad").await;
    assert_eq!(bad.status, 500);
    assert!(bad.text().contains("syntax error"), "{}", bad.text());
    let inc = server.get("/inc").await;
    assert_eq!(inc.status, 500);
    assert!(inc.text().contains("nope.html"), "{}", inc.text());
}

#[tokio::test]
async fn minijinja_escapes_views_of_any_extension_unless_turned_off() {
    use webfw::view::{Escape, MiniJinja};
    let dir = temp_dir("jinja-escape");
    for ext in ["ejs", "hbs", "tpl", "txt"] {
        write(&dir, &format!("page.{ext}"), "<p>{{ name }}</p>\n");
    }
    let mut app = webfw::app();
    app.set("views", dir.as_path());
    // The trap of the issue: a user's own environment, minijinja's defaults.
    app.engine(
        "ejs",
        MiniJinja::from_env(webfw::minijinja::Environment::new()),
    );
    app.engine("hbs", MiniJinja::new());
    app.engine(
        "tpl",
        MiniJinja::new()
            .escape(Escape::Ejs)
            .keep_trailing_newline(true),
    );
    app.engine(
        "txt",
        MiniJinja::from_env(webfw::minijinja::Environment::new()).escape(Escape::Environment),
    );
    let name = json!({ "name": "<img src=x onerror='a()'>/" });
    app.get("/ejs", Render("page.ejs", name.clone()));
    app.get("/hbs", Render("page.hbs", name.clone()));
    app.get("/tpl", Render("page.tpl", name.clone()));
    app.get("/txt", Render("page.txt", name));
    let server = TestServer::start(app).await;
    let minijinja = "<p>&lt;img src=x onerror=&#x27;a()&#x27;&gt;&#x2f;</p>";
    assert_eq!(server.get("/ejs").await.text(), minijinja);
    assert_eq!(server.get("/hbs").await.text(), minijinja);
    // EJS 3's `<%= name %>`, its newline kept.
    assert_eq!(
        server.get("/tpl").await.text(),
        "<p>&lt;img src=x onerror=&#39;a()&#39;&gt;/</p>\n"
    );
    // Escaping turned off knowingly: minijinja's rule escapes no `.txt`.
    assert_eq!(
        server.get("/txt").await.text(),
        "<p><img src=x onerror='a()'>/</p>"
    );
}

/// `res.format` with a branch that awaits `res.render`.
struct Negotiated;

impl Handler for Negotiated {
    fn call<'a>(&'a self, _req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        let users = json!({ "users": ["tobi", "loki"] });
        let for_html = users.clone();
        HandlerFuture::boxed(
            res.format_async(
                Format::new()
                    .on_async("html", move |res| {
                        Box::pin(async move { res.render("users.c", for_html).await })
                    })
                    .on("json", move |res| res.json(&users)),
            ),
        )
    }
}

#[tokio::test]
async fn format_branches_may_await_a_render() {
    let dir = temp_dir("format-async");
    write(&dir, "users.c", "<ul>{users}</ul>");
    let mut app = webfw::app();
    app.set("views", dir.as_path());
    app.engine("c", Curly::default());
    app.get("/users", Negotiated);
    app.get("/sync-call", |_req: &mut Request, res: &mut Response| {
        res.format(Format::new().on_async("html", |res| {
            Box::pin(async move { res.render("users.c", ()).await })
        }))
    });
    app.use_(echo_error);
    let server = TestServer::start(app).await;
    let html = server.get_with("/users", &[("Accept", "text/html")]).await;
    assert_eq!(html.status, 200);
    assert_eq!(
        html.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(html.header("vary"), Some("Accept"));
    assert_eq!(html.text(), r#"<ul>["tobi","loki"]</ul>"#);
    let json = server
        .get_with("/users", &[("Accept", "application/json")])
        .await;
    assert_eq!(json.json(), json!({ "users": ["tobi", "loki"] }));
    let none = server.get_with("/users", &[("Accept", "image/png")]).await;
    assert_eq!(
        none.status, 500,
        "echo_error answers the 406 error with 500"
    );
    assert_eq!(none.text(), "Not Acceptable");
    // An async branch given to the synchronous `format` says what to write.
    let wrong = server
        .get_with("/sync-call", &[("Accept", "text/html")])
        .await;
    assert!(
        wrong.text().contains("res.format_async(format).await"),
        "{}",
        wrong.text()
    );
}

/// Views kept in memory, as a database or the binary would keep them.
struct InMemory(&'static [(&'static str, &'static str)]);

impl webfw::view::ViewLookup for InMemory {
    fn lookup(
        &self,
        file_name: &str,
        _roots: &[PathBuf],
    ) -> std::result::Result<Option<webfw::view::FoundView>, Error> {
        Ok(self
            .0
            .iter()
            .find(|(n, _)| *n == file_name)
            .map(|(n, text)| webfw::view::FoundView::new(Path::new("memory").join(n), *text)))
    }
}

#[tokio::test]
async fn a_custom_view_lookup_replaces_the_files_for_the_app_and_its_sub_apps() {
    let mut app = webfw::app();
    app.set("view engine", "c");
    app.engine("c", Curly::default());
    app.view(InMemory(&[
        ("home.c", "<h1>{title}</h1>"),
        ("users/list.c", "users"),
    ]));
    app.get("/", Render("home", json!({ "title": "Welcome" })));
    app.get("/list", Render("users/list", json!({})));
    app.get("/missing", Render("nope", json!({})));
    let mut sub = webfw::app();
    sub.get("/", Render("home", json!({ "title": "from the sub-app" })));
    app.use_at("/sub", sub);
    app.use_(echo_error);
    let server = TestServer::start(app).await;
    assert_eq!(server.get("/").await.text(), "<h1>Welcome</h1>");
    assert_eq!(server.get("/list").await.text(), "users");
    assert_eq!(server.get("/sub").await.text(), "<h1>from the sub-app</h1>");
    let missing = server.get("/missing").await;
    assert_eq!(missing.status, 500);
    let cwd = std::env::current_dir().unwrap().join("views");
    assert_eq!(
        missing.text(),
        format!(
            "Failed to lookup view \"nope\" in views directory \"{}\"",
            cwd.display()
        )
    );
}
