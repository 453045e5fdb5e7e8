//! Settings from the environment: `PORT`, `DATABASE_URL`, `JWT_SECRET`, `LOG`.

/// The secret used when `JWT_SECRET` is unset: fine on a laptop, public on
/// the internet, hence the warning.
const DEV_SECRET: &str = "realworld-development-secret-change-me";

/// How the app runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// `PORT`, default 3000.
    pub port: u16,
    /// `DATABASE_URL`: `sqlite:path` or `postgres://…`; default the file
    /// `conduit.db` in the example's folder.
    pub database_url: String,
    /// `JWT_SECRET`, the HMAC key of the tokens.
    pub jwt_secret: String,
    /// Request logging (morgan's `dev` format on stdout); `LOG=off` turns it off.
    pub log: bool,
}

impl Config {
    /// Reads the environment; warns on stderr when the development secret
    /// is used.
    pub fn from_env() -> Config {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let jwt_secret = var("JWT_SECRET").unwrap_or_else(|| {
            eprintln!(
                "realworld: JWT_SECRET is not set; using the development secret, \
                 which anyone can read in the source: set JWT_SECRET in production"
            );
            DEV_SECRET.to_owned()
        });
        Config {
            port: var("PORT").and_then(|p| p.parse().ok()).unwrap_or(3000),
            database_url: var("DATABASE_URL").unwrap_or_else(default_database_url),
            jwt_secret,
            log: var("LOG").is_none_or(|v| v != "off"),
        }
    }
}

/// `sqlite:<the example's folder>/conduit.db`.
pub fn default_database_url() -> String {
    format!("sqlite:{}/conduit.db", env!("CARGO_MANIFEST_DIR"))
}
