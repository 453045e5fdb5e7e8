use webfw::prelude::*;

mod api {
    pub mod users {
        use webfw::prelude::*;

        #[get("/users")]
        pub fn list(_req: &mut Request, res: &mut Response) -> Result {
            res.json(&serde_json::json!([]))
        }

        #[get("/users/:id")]
        pub(crate) async fn show(req: &mut Request, res: &mut Response) -> Result {
            let id = req.param("id").unwrap_or_default().to_owned();
            res.send(id)
        }
    }

    pub fn routes() -> webfw::Routes {
        webfw::routes![self::users::list, users::show]
    }
}

use api::users;

fn main() {
    let mut app = webfw::app();
    app.mount(routes![api::users::list, users::show, crate::api::users::list]);
    app.mount(api::routes());
}
