//! Input checks shared by the handlers.

use serde::{Deserialize, Deserializer};
use webfw::Error;

use crate::errors::invalid;

/// The longest accepted name, email or title, in bytes.
pub const MAX_SHORT: usize = 255;

/// `value` trimmed (a password as given), or 422 "can't be blank" under
/// `field`.
pub fn required(field: &'static str, value: Option<String>) -> Result<String, Error> {
    let value = value.unwrap_or_default();
    if value.trim().is_empty() {
        return Err(invalid(field, "can't be blank"));
    }
    Ok(if field == "password" {
        value
    } else {
        value.trim().to_owned()
    })
}

/// As [`required`], refusing names, emails and titles past [`MAX_SHORT`]
/// bytes.
pub fn required_short(field: &'static str, value: Option<String>) -> Result<String, Error> {
    let value = required(field, value)?;
    if value.len() > MAX_SHORT {
        return Err(invalid(field, "is too long (at most 255 bytes)"));
    }
    Ok(value)
}

/// For `Option<Option<T>>` fields: absent is `None`, `null` is `Some(None)`.
pub fn optional_field<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}
