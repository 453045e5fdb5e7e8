//! Authentication: Argon2id password hashes and HS256 tokens sent as
//! `Authorization: Token <jwt>`.
//!
//! The token is a plain JWT (header, claims, HMAC-SHA256 signature, each
//! base64url without padding), written with the workspace's `hmac`, `sha2`
//! and `base64` crates: one algorithm, fixed by the server, so a JWT crate's
//! algorithm negotiation would only add surface.

use std::sync::LazyLock;

use argon2::Argon2;
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use webfw::prelude::*;

use crate::errors::unauthorized;
use crate::state::ctx;
use crate::time::unix_now;

/// How long a token is valid: 30 days.
pub const TOKEN_TTL_SECS: i64 = 30 * 24 * 3600;

/// The `Authorization` header's longest accepted value; a token is ~200 bytes.
const MAX_TOKEN_LEN: usize = 4096;

const HEADER: &str = r#"{"alg":"HS256","typ":"JWT"}"#;

/// The HMAC key tokens are signed with (`JWT_SECRET`).
pub struct Keys {
    secret: Vec<u8>,
}

/// A token's claims.
#[derive(Serialize, Deserialize)]
pub struct Claims {
    /// The user's id.
    pub sub: i64,
    /// Issued at, seconds since the epoch.
    pub iat: i64,
    /// Expires at, seconds since the epoch.
    pub exp: i64,
}

impl Keys {
    /// Keys from a secret.
    pub fn new(secret: &str) -> Keys {
        Keys {
            secret: secret.as_bytes().to_vec(),
        }
    }

    fn mac(&self) -> Hmac<Sha256> {
        // HMAC takes a key of any length.
        Hmac::<Sha256>::new_from_slice(&self.secret).expect("HMAC accepts any key length")
    }

    /// A token for user `id`, valid for [`TOKEN_TTL_SECS`].
    pub fn token_for(&self, id: i64) -> String {
        let now = unix_now();
        self.sign(&Claims {
            sub: id,
            iat: now,
            exp: now + TOKEN_TTL_SECS,
        })
    }

    /// A token with these claims (tests sign expired ones with it).
    pub fn sign(&self, claims: &Claims) -> String {
        let head = URL_SAFE_NO_PAD.encode(HEADER);
        let body = URL_SAFE_NO_PAD.encode(serde_json::to_vec(claims).unwrap_or_default());
        let signing_input = format!("{head}.{body}");
        let mut mac = self.mac();
        mac.update(signing_input.as_bytes());
        let sig = URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes());
        format!("{signing_input}.{sig}")
    }

    /// The claims of a token this server signed and that has not expired.
    pub fn verify(&self, token: &str) -> std::result::Result<Claims, &'static str> {
        let mut parts = token.split('.');
        let (Some(head), Some(body), Some(sig), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err("is malformed");
        };
        let sig = URL_SAFE_NO_PAD.decode(sig).map_err(|_| "is malformed")?;
        let mut mac = self.mac();
        mac.update(head.as_bytes());
        mac.update(b".");
        mac.update(body.as_bytes());
        mac.verify_slice(&sig).map_err(|_| "is invalid")?;
        let header: serde_json::Value = URL_SAFE_NO_PAD
            .decode(head)
            .ok()
            .and_then(|h| serde_json::from_slice(&h).ok())
            .ok_or("is malformed")?;
        if header["alg"] != "HS256" {
            return Err("is invalid");
        }
        let claims: Claims = URL_SAFE_NO_PAD
            .decode(body)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .ok_or("is malformed")?;
        if claims.exp <= unix_now() {
            return Err("has expired");
        }
        Ok(claims)
    }
}

/// The authenticated user of a request, set by [`authenticate`].
#[derive(Clone, Copy)]
pub struct Viewer(pub i64);

/// Reads `Authorization: Token <jwt>` (or `Bearer`) when present: a valid
/// token makes its user the request's [`Viewer`]; a bad one is a 401 even
/// on public routes, so a client learns its token is stale.
#[middleware]
pub fn authenticate(req: &mut Request, _res: &mut Response) -> Result {
    let Some(value) = req.get("authorization") else {
        return next();
    };
    if value.len() > MAX_TOKEN_LEN {
        return Err(unauthorized("is too long"));
    }
    let token = value
        .strip_prefix("Token ")
        .or_else(|| value.strip_prefix("Bearer "))
        .ok_or_else(|| unauthorized("must be sent as `Authorization: Token <jwt>`"))?
        .trim();
    let claims = ctx(req)?.keys.verify(token).map_err(unauthorized)?;
    req.extensions_mut().insert(Viewer(claims.sub));
    next()
}

/// The viewer's id, if the request carries a valid token.
pub fn viewer(req: &Request) -> Option<i64> {
    req.extensions().get::<Viewer>().map(|v| v.0)
}

/// The viewer's id, or 401 for a route that needs a login.
pub fn require_viewer(req: &Request) -> std::result::Result<i64, Error> {
    viewer(req).ok_or_else(|| unauthorized("is missing"))
}

/// An Argon2id PHC string for `password`, computed off the async workers.
pub async fn hash_password(password: String) -> std::result::Result<String, Error> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
    })
    .await
    .ok()
    .and_then(|r| r.ok())
    .ok_or_else(|| Error::status_message(500, "password hashing failed").with_expose(false))
}

/// Whether `password` matches the stored `hash`. Without a hash (no such
/// user) a made-up one is checked all the same, so the answer takes as long
/// and a login does not tell which emails are registered.
pub async fn verify_password(password: String, hash: Option<String>) -> bool {
    static DECOY: LazyLock<String> = LazyLock::new(|| {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(b"decoy", &salt)
            .map(|h| h.to_string())
            .unwrap_or_default()
    });
    tokio::task::spawn_blocking(move || {
        let known = hash.is_some();
        let hash = hash.unwrap_or_else(|| DECOY.clone());
        let ok = PasswordHash::new(&hash).is_ok_and(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        });
        known && ok
    })
    .await
    .unwrap_or(false)
}
