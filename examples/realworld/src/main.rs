//! `cargo run --release -p realworld`: the Conduit API on `PORT` (3000).

use realworld::Config;

fn main() -> std::io::Result<()> {
    let config = Config::from_env();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let app = realworld::app(&config)
            .await
            .map_err(|e| std::io::Error::other(format!("cannot open the database: {e}")))?;
        let server = app.bind(config.port).await?;
        println!("realworld: API on http://127.0.0.1:{}/api", config.port);
        server.wait_with_signals().await
    })
}
