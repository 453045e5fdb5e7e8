//! An app frozen for serving: Express's `app.handle` for the top app, and
//! the function `app.use` wraps a mounted sub-app in. It holds the app as
//! its handlers see it ([`AppRef`]) and the app's frozen router.

use http::HeaderValue;

use crate::app_ref::AppRef;
use crate::error::Error;
use crate::handler::{Handler, HandlerFuture};
use crate::outcome::Flow;
use crate::request::Request;
use crate::response::Response;
use crate::router::{Exit, Resume, RouterRef};

const X_POWERED_BY: http::HeaderName = http::HeaderName::from_static("x-powered-by");
const POWERED_BY_VALUE: HeaderValue = HeaderValue::from_static("webfw");

/// An app frozen for serving: what its handlers see of it and its router
/// (none when nothing was registered).
pub(crate) struct ServedApp {
    app: AppRef,
    router: Option<RouterRef>,
}

impl ServedApp {
    pub(crate) fn new(app: AppRef, router: Option<RouterRef>) -> ServedApp {
        ServedApp { app, router }
    }

    /// What the app's handlers see of it (`req.app`).
    pub(crate) fn app(&self) -> &AppRef {
        &self.app
    }

    /// `expressInit`: the `X-Powered-By` header.
    fn init(&self, res: &mut Response) {
        if self.app.settings().x_powered_by {
            res.insert_header(X_POWERED_BY, POWERED_BY_VALUE);
        }
    }

    /// Runs a request through the top-level app and the final handler, as
    /// far as its handlers are synchronous: `Some` when the rest must be
    /// awaited through [`ServedApp::resume_root`].
    pub(crate) fn handle_root_now(
        &self,
        req: &mut Request,
        res: &mut Response,
    ) -> Option<Box<Resume>> {
        let exit = match self.router.as_ref() {
            Some(router) => {
                self.init(res);
                match router.run_now(req, res) {
                    Ok(exit) => exit,
                    Err(resume) => return Some(resume),
                }
            }
            None => {
                // Express 5's `app.handle` sets the header even without a
                // router; Express 4 returned before its init middleware.
                if self.app.dialect().is_express5() {
                    self.init(res);
                }
                Exit::Next(None)
            }
        };
        self.finish_root(req, res, exit);
        None
    }

    /// Goes on with a request [`ServedApp::handle_root_now`] stopped.
    pub(crate) async fn resume_root(
        &self,
        req: &mut Request,
        res: &mut Response,
        resume: Box<Resume>,
    ) {
        let exit = match self.router.as_ref() {
            // Not boxed: only nested routers recurse.
            Some(router) => router.resume(req, res, resume).await,
            None => Exit::Next(None),
        };
        self.finish_root(req, res, exit);
    }

    /// What the top-level app does once its router is done.
    fn finish_root(&self, req: &mut Request, res: &mut Response, exit: Exit) {
        let env = &self.app.settings().env;
        match exit {
            Exit::Done if res.headers_sent() => {
                if !res.finished() {
                    let _ = res.end();
                }
            }
            Exit::Done => {
                let err = Error::new(format!(
                    "a handler for {} {} returned Flow::Done without sending a response",
                    req.method(),
                    req.original_url()
                ));
                crate::final_handler::respond(req, res, Some(err), env);
            }
            Exit::Next(err) => crate::final_handler::respond(req, res, err, env),
        }
    }
}

/// A mounted sub-app runs as one handler of its parent's layer (Express's
/// `mounted_app` plus `expressInit`): `req.app` is this app while inside,
/// the parent after.
impl Handler for ServedApp {
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        let Some(router) = self.router.as_ref() else {
            return HandlerFuture::ready(Ok(Flow::Next));
        };
        HandlerFuture::boxed(Box::pin(async move {
            let parent = std::mem::replace(&mut req.app, self.app.clone());
            // An Express 5 app on either side reads `req.query` anew.
            let reparse = self.app.dialect().is_express5() || parent.dialect().is_express5();
            if reparse {
                req.reset_query();
            }
            res.set_app(self.app.clone());
            self.init(res);
            let exit = router.run(req, res).await;
            res.set_app(parent.clone());
            req.app = parent;
            if reparse {
                req.reset_query();
            }
            exit.into_result()
        }))
    }
}

impl std::fmt::Debug for ServedApp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.app.fmt(f)
    }
}
