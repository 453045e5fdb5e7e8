//! `Vary` header merging exactly as the `vary` 1.1.2 package does it (`res.vary`).
//!
//! ```
//! use webfw_http::vary::{VaryError, append_vary};
//! assert_eq!(append_vary(None, &["bad name"]).unwrap_err(), VaryError::InvalidHeaderName);
//! ```

use std::fmt;

/// Why a `Vary` update was refused; the texts are the package's `TypeError` messages.
///
/// ```
/// use webfw_http::vary::{VaryError, append_vary};
/// assert_eq!(append_vary(None, &["bad name"]).unwrap_err(), VaryError::InvalidHeaderName);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VaryError {
    /// A field given as a string was empty (`field argument is required`).
    FieldRequired,
    /// A field is not a valid header name token (`field argument contains an invalid header name`).
    InvalidHeaderName,
}

impl fmt::Display for VaryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            VaryError::FieldRequired => "field argument is required",
            VaryError::InvalidHeaderName => "field argument contains an invalid header name",
        })
    }
}

impl std::error::Error for VaryError {}

/// Returns the new `Vary` value after adding `fields` to `current` (the existing header, if any).
///
/// Each element of `fields` is a comma-separated list, like the string form `res.vary('a, b')`
/// (spaces around entries are dropped; an empty element is an error). Then:
/// every name must be a header token; `current == "*"` stays `*`; a `*` among the new names or
/// the existing ones gives `*`; otherwise names not already present (case-insensitively) are
/// appended in the case given, joined with `, ` to the unchanged existing text.
///
/// ```
/// use webfw_http::vary::append_vary;
/// assert_eq!(append_vary(None, &["Accept"]).unwrap(), "Accept");
/// assert_eq!(append_vary(Some("Accept"), &["accept, Origin", "User-Agent"]).unwrap(),
///            "Accept, Origin, User-Agent");
/// assert_eq!(append_vary(Some("Accept"), &["*"]).unwrap(), "*");
/// assert!(append_vary(None, &["bad name"]).is_err());
/// ```
pub fn append_vary(current: Option<&str>, fields: &[&str]) -> Result<String, VaryError> {
    let mut names = Vec::with_capacity(fields.len());
    for field in fields {
        // `vary.append(header, '')` rejects an empty string before parsing it.
        if field.is_empty() {
            return Err(VaryError::FieldRequired);
        }
        names.extend(parse_list(field));
    }
    append_vary_fields(current, &names)
}

/// Like [`append_vary`], but each element of `fields` is one header name, never split on
/// commas: the array form `res.vary(['a', 'b'])`, where `'a, b'` is an invalid name.
///
/// ```
/// use webfw_http::vary::append_vary_fields;
/// assert_eq!(append_vary_fields(Some("Accept"), &["Origin"]).unwrap(), "Accept, Origin");
/// assert!(append_vary_fields(None, &["Accept, Origin"]).is_err());
/// ```
pub fn append_vary_fields(current: Option<&str>, fields: &[&str]) -> Result<String, VaryError> {
    if !fields.iter().all(|f| is_field_name(f)) {
        return Err(VaryError::InvalidHeaderName);
    }

    let header = current.unwrap_or("");
    if header == "*" {
        return Ok(header.to_owned());
    }

    // Existing names compare lower-cased (Unicode rules, as JS `toLowerCase`).
    let lowered = header.to_lowercase();
    let mut seen: Vec<String> = parse_list(&lowered).map(str::to_owned).collect();

    if fields.contains(&"*") || seen.iter().any(|v| v == "*") {
        return Ok("*".to_owned());
    }

    let mut value = header.to_owned();
    for field in fields {
        let lower = field.to_ascii_lowercase();
        if !seen.contains(&lower) {
            seen.push(lower);
            if !value.is_empty() {
                value.push_str(", ");
            }
            value.push_str(field);
        }
    }
    Ok(value)
}

/// vary's tokenizer: split on commas and drop U+0020 around each entry (empties kept).
fn parse_list(s: &str) -> impl Iterator<Item = &str> {
    s.split(',').map(|piece| piece.trim_matches(' '))
}

/// `/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/`: an HTTP token.
fn is_field_name(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(crate::is_tchar)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(current: Option<&str>, fields: &[&str]) -> String {
        append_vary(current, fields).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn sets_field_when_header_absent_or_empty() {
        assert_eq!(ok(None, &["Accept"]), "Accept");
        assert_eq!(ok(Some(""), &["Accept"]), "Accept");
    }

    #[test]
    fn reference_examples_accumulate_in_order() {
        let v = ok(None, &["Accept"]);
        let v = ok(Some(&v), &["accept, Origin"]);
        let v = append_vary_fields(Some(&v), &["User-Agent"]).unwrap();
        assert_eq!(v, "Accept, Origin, User-Agent");
    }

    #[test]
    fn existing_names_are_matched_case_insensitively_and_kept_verbatim() {
        assert_eq!(ok(Some("ACCEPT"), &["accept"]), "ACCEPT");
        assert_eq!(
            ok(Some("Accept-Encoding"), &["accept-encoding", "Cookie"]),
            "Accept-Encoding, Cookie"
        );
    }

    #[test]
    fn new_names_keep_the_given_case_and_are_deduplicated() {
        assert_eq!(ok(None, &["Origin", "ORIGIN", "origin"]), "Origin");
        assert_eq!(ok(None, &["a, A, b"]), "a, b");
    }

    #[test]
    fn comma_lists_in_each_field_are_split_and_trimmed() {
        assert_eq!(ok(None, &["  Accept ,Origin  "]), "Accept, Origin");
        assert_eq!(
            ok(Some("Accept"), &["Origin,User-Agent", "Cookie"]),
            "Accept, Origin, User-Agent, Cookie"
        );
    }

    #[test]
    fn star_header_stays_star() {
        assert_eq!(ok(Some("*"), &["Accept"]), "*");
    }

    #[test]
    fn star_field_or_star_in_header_gives_star() {
        assert_eq!(ok(Some("Accept"), &["*"]), "*");
        assert_eq!(ok(Some("Accept"), &["Origin, *"]), "*");
        assert_eq!(ok(Some("Accept, *"), &["Origin"]), "*");
        assert_eq!(ok(None, &["*"]), "*");
    }

    #[test]
    fn field_names_are_validated_before_star_rules() {
        assert_eq!(ok(Some("*"), &["*"]), "*");
        assert_eq!(
            append_vary(Some("*"), &["bad name"]),
            Err(VaryError::InvalidHeaderName)
        );
    }

    #[test]
    fn invalid_names_are_rejected_with_the_package_message() {
        for bad in ["a b", "a:b", "a\"b", "a,", ",a", "é", "a@b", "(x)"] {
            let err = append_vary(None, &[bad]).unwrap_err();
            assert_eq!(
                err.to_string(),
                "field argument contains an invalid header name",
                "{bad}"
            );
        }
    }

    #[test]
    fn empty_string_field_is_required_error() {
        let err = append_vary(Some("Accept"), &[""]).unwrap_err();
        assert_eq!(err, VaryError::FieldRequired);
        assert_eq!(err.to_string(), "field argument is required");
    }

    #[test]
    fn array_form_does_not_split_commas_and_rejects_empty_names() {
        assert_eq!(
            append_vary_fields(None, &["a, b"]),
            Err(VaryError::InvalidHeaderName)
        );
        assert_eq!(
            append_vary_fields(None, &[""]),
            Err(VaryError::InvalidHeaderName)
        );
        assert_eq!(append_vary_fields(None, &["A", "B"]).unwrap(), "A, B");
    }

    #[test]
    fn no_fields_leave_the_header_unchanged_or_collapse_a_star() {
        assert_eq!(append_vary_fields(Some("Accept"), &[]).unwrap(), "Accept");
        assert_eq!(append_vary_fields(Some("Accept, *"), &[]).unwrap(), "*");
        assert_eq!(append_vary(None, &[]).unwrap(), "");
    }

    #[test]
    fn odd_existing_text_is_kept_verbatim() {
        assert_eq!(ok(Some("Accept, "), &["Origin"]), "Accept, , Origin");
        assert_eq!(ok(Some(" Accept"), &["accept"]), " Accept");
    }

    #[test]
    fn all_token_characters_are_valid_names() {
        let name = "!#$%&'*+-.^_`|~09AZaz";
        assert_eq!(append_vary_fields(None, &[name]).unwrap(), name);
    }
}
