//! Sessions: a view counter and a login, in memory or (with `REDIS_URL`
//! set) in Redis, shared with Express apps using connect-redis.
//!
//! ```sh
//! cargo run --example session                                  # memory
//! REDIS_URL=redis://127.0.0.1:6379/ cargo run --example session  # Redis
//! curl -c jar -b jar localhost:3000/ ; curl -c jar -b jar localhost:3000/
//! ```
use webfw::prelude::*;
use webfw::session::{RedisStore, SessionOptions};

#[get("/")]
async fn views(req: &mut Request, res: &mut Response) -> Result {
    let n = req.session().get::<u64>("views").unwrap_or(0) + 1;
    req.session().set("views", n)?;
    let who = req
        .session()
        .get::<String>("user")
        .unwrap_or_else(|| "guest".into());
    res.send(format!("Hello {who}, {n} views\n"))
}

#[get("/login/:name")]
async fn login(req: &mut Request, res: &mut Response) -> Result {
    let name = req.param("name").unwrap_or("").to_owned();
    // A new id on login, against session fixation.
    req.session().regenerate().await?;
    req.session().set("user", name)?;
    res.redirect("/")
}

#[get("/logout")]
async fn logout(req: &mut Request, res: &mut Response) -> Result {
    req.session().destroy().await?;
    res.redirect("/")
}

fn main() -> std::io::Result<()> {
    let rt = tokio::runtime::Runtime::new()?;
    rt.block_on(async {
        let options = SessionOptions::new("keyboard cat").resave(false);
        let options = match std::env::var("REDIS_URL") {
            Ok(url) => {
                let store = RedisStore::connect(&url)
                    .await
                    .map_err(|e| std::io::Error::other(e.to_string()))?;
                options.store(store)
            }
            Err(_) => options,
        };
        let mut app = webfw::app();
        app.use_(webfw::session(options));
        app.mount(routes![views, login, logout]);
        let server = app.bind(3000).await?;
        println!("Session example listening on {:?}", server.local_addr());
        server.wait().await;
        Ok(())
    })
}
