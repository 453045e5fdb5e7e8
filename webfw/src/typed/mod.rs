//! Typed access to the request (`req.body_as`, `req.query_as`,
//! `req.params_as`): serde deserialization whose failures are 400 errors
//! naming the field and what was expected.

mod coerce;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::Error;

/// Deserializes `value` as JSON data (strict types), or a 400 naming the
/// field.
pub(crate) fn from_json<T: DeserializeOwned>(value: &Value, what: &str) -> Result<T, Error> {
    serde_path_to_error::deserialize(value).map_err(|e| bad_request(what, e))
}

/// Deserializes `value`, whose leaves are strings, coercing them to the
/// target types; a 400 naming the field on failure.
pub(crate) fn from_strings<T: DeserializeOwned>(value: &Value, what: &str) -> Result<T, Error> {
    serde_path_to_error::deserialize(coerce::Coerce(value)).map_err(|e| bad_request(what, e))
}

fn bad_request<E: std::fmt::Display>(what: &str, e: serde_path_to_error::Error<E>) -> Error {
    let path = e.path().to_string();
    let message = if path == "." {
        format!("invalid {what}: {}", e.inner())
    } else {
        format!("invalid {what}: field `{path}`: {}", e.inner())
    };
    Error::status_message(400, message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Page {
        page: u32,
        #[serde(default)]
        desc: bool,
        tags: Vec<String>,
        q: Option<String>,
        ratio: Option<f64>,
    }

    #[test]
    fn strings_coerce() {
        let v = json!({"page": "3", "desc": "true", "tags": "a", "q": "", "ratio": "0.5"});
        let p: Page = from_strings(&v, "query string").unwrap();
        assert_eq!(
            p,
            Page {
                page: 3,
                desc: true,
                tags: vec!["a".into()],
                q: None,
                ratio: Some(0.5)
            }
        );
        let v = json!({"page": "1", "tags": ["x", "y"]});
        let p: Page = from_strings(&v, "query string").unwrap();
        assert_eq!(p.tags, ["x", "y"]);
    }

    #[test]
    fn errors_name_the_field() {
        let v = json!({"page": "abc", "tags": []});
        let err = from_strings::<Page>(&v, "query string").unwrap_err();
        assert_eq!(err.status(), 400);
        assert_eq!(
            err.message(),
            "invalid query string: field `page`: invalid value: string \"abc\", expected u32"
        );
        let err = from_strings::<Page>(&json!({"tags": []}), "query string").unwrap_err();
        assert_eq!(err.message(), "invalid query string: missing field `page`");
    }

    #[test]
    fn one_parameter_reads_as_a_scalar() {
        let id: u64 = from_strings(&json!({"id": "42"}), "route parameters").unwrap();
        assert_eq!(id, 42);
        #[derive(Deserialize, Debug, PartialEq)]
        #[serde(rename_all = "lowercase")]
        enum Kind {
            Open,
            Done,
        }
        let k: Kind = from_strings(&json!({"k": "done"}), "route parameters").unwrap();
        assert_eq!(k, Kind::Done);
    }

    #[test]
    fn json_is_strict() {
        let err = from_json::<Page>(&json!({"page": "3", "tags": []}), "request body").unwrap_err();
        assert_eq!(
            err.message(),
            "invalid request body: field `page`: invalid type: string \"3\", expected u32"
        );
    }
}
