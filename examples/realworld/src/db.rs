//! The database: one pool for SQLite or PostgreSQL, created and migrated at
//! start.
//!
//! sqlx's `any` driver runs the same SQL on both (placeholders are `$1`,
//! which SQLite also reads by number), so every query exists once; the only
//! backend-specific text is the id column of the schema. The cost is that
//! values cross as the few types both share (integers, text), which is all
//! this app stores: timestamps are ISO 8601 text, flags are counts.

use sqlx::any::{AnyPoolOptions, install_default_drivers};

/// The connection pool.
pub type Db = sqlx::AnyPool;

/// The schema; `{ID}` is the auto-increment primary key of the backend.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS users (
    id {ID}, email TEXT NOT NULL UNIQUE, username TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL, bio TEXT, image TEXT
);
CREATE TABLE IF NOT EXISTS follows (
    follower_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    followee_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (follower_id, followee_id)
);
CREATE TABLE IF NOT EXISTS articles (
    id {ID}, slug TEXT NOT NULL UNIQUE, title TEXT NOT NULL,
    description TEXT NOT NULL, body TEXT NOT NULL, tag_list TEXT NOT NULL,
    author_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS articles_author ON articles(author_id);
CREATE TABLE IF NOT EXISTS article_tags (
    article_id BIGINT NOT NULL REFERENCES articles(id) ON DELETE CASCADE,
    tag TEXT NOT NULL, PRIMARY KEY (article_id, tag)
);
CREATE INDEX IF NOT EXISTS article_tags_tag ON article_tags(tag);
CREATE TABLE IF NOT EXISTS favorites (
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    article_id BIGINT NOT NULL REFERENCES articles(id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, article_id)
);
CREATE INDEX IF NOT EXISTS favorites_article ON favorites(article_id);
CREATE TABLE IF NOT EXISTS comments (
    id {ID}, body TEXT NOT NULL,
    article_id BIGINT NOT NULL REFERENCES articles(id) ON DELETE CASCADE,
    author_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS comments_article ON comments(article_id);
";

/// Connects to `url` (`sqlite:…` or `postgres://…`), creating a SQLite file
/// if missing, and creates the tables that do not exist yet.
pub async fn connect(url: &str) -> Result<Db, sqlx::Error> {
    install_default_drivers();
    let sqlite = url.starts_with("sqlite:");
    let url = if sqlite && !url.contains("mode=") {
        let sep = if url.contains('?') { '&' } else { '?' };
        format!("{url}{sep}mode=rwc")
    } else {
        url.to_owned()
    };
    let pool = AnyPoolOptions::new()
        .max_connections(if sqlite { 4 } else { 16 })
        .connect(&url)
        .await?;
    let id = if sqlite {
        // Readers do not wait for the writer; the mode is stored in the file.
        sqlx::query("PRAGMA journal_mode = WAL")
            .execute(&pool)
            .await?;
        "INTEGER PRIMARY KEY"
    } else {
        "BIGSERIAL PRIMARY KEY"
    };
    for statement in SCHEMA.split(';').map(str::trim).filter(|s| !s.is_empty()) {
        sqlx::query(&statement.replace("{ID}", id))
            .execute(&pool)
            .await?;
    }
    Ok(pool)
}
