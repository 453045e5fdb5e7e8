//! `MulterError`: multer's error codes and messages.

use std::fmt;

use crate::error::Error;

/// An error multer raises itself (`err instanceof multer.MulterError`):
/// a `code`, multer's message for it, and the field (and file name) it is
/// about. It reaches error handlers as the source of an [`Error`] named
/// `MulterError` whose `code` is the same; [`MulterError::of`] finds it.
/// Like multer's, it has no status, so the final handler answers 500
/// unless the app's error handler picks one.
///
/// ```
/// use webfw::multer::MulterError;
/// let err = MulterError::new("LIMIT_FILE_SIZE", Some("avatar")).into_error();
/// assert_eq!(err.name(), "MulterError");
/// assert_eq!(err.code(), Some("LIMIT_FILE_SIZE"));
/// assert_eq!(err.message(), "File too large");
/// assert_eq!(err.status(), 500);
/// assert_eq!(MulterError::of(&err).unwrap().field(), Some("avatar"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct MulterError {
    code: &'static str,
    field: Option<String>,
    filename: Option<String>,
}

impl MulterError {
    /// An error with one of multer's codes (`LIMIT_PART_COUNT`,
    /// `LIMIT_FILE_SIZE`, `LIMIT_FILE_COUNT`, `LIMIT_FIELD_KEY`,
    /// `LIMIT_FIELD_VALUE`, `LIMIT_FIELD_COUNT`, `LIMIT_UNEXPECTED_FILE`,
    /// `MISSING_FIELD_NAME`, `LIMIT_FIELD_NESTING`, `LIMIT_FIELD_ARRAY_INDEX`)
    /// about `field` (an empty name counts as none, as in multer).
    ///
    /// ```
    /// let e = webfw::multer::MulterError::new("LIMIT_FIELD_COUNT", None);
    /// assert_eq!(e.to_string(), "Too many fields");
    /// ```
    pub fn new(code: &'static str, field: Option<&str>) -> MulterError {
        MulterError {
            code,
            field: field.filter(|f| !f.is_empty()).map(str::to_owned),
            filename: None,
        }
    }

    pub(crate) fn with_filename(mut self, filename: &str) -> MulterError {
        self.filename = Some(filename.to_owned()).filter(|f| !f.is_empty());
        self
    }

    /// `err.code`.
    ///
    /// ```
    /// assert_eq!(webfw::multer::MulterError::new("LIMIT_PART_COUNT", None).code(), "LIMIT_PART_COUNT");
    /// ```
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// `err.message`: multer's text for the code.
    ///
    /// ```
    /// assert_eq!(webfw::multer::MulterError::new("LIMIT_FILE_COUNT", None).message(), "Too many files");
    /// ```
    pub fn message(&self) -> &'static str {
        match self.code {
            "LIMIT_PART_COUNT" => "Too many parts",
            "LIMIT_FILE_SIZE" => "File too large",
            "LIMIT_FILE_COUNT" => "Too many files",
            "LIMIT_FIELD_KEY" => "Field name too long",
            "LIMIT_FIELD_VALUE" => "Field value too long",
            "LIMIT_FIELD_COUNT" => "Too many fields",
            "LIMIT_UNEXPECTED_FILE" => "Unexpected file field",
            "MISSING_FIELD_NAME" => "Field name missing",
            "LIMIT_FIELD_NESTING" => "Field name nesting too deep",
            "LIMIT_FIELD_ARRAY_INDEX" => "Field name array index too large",
            "STREAM_DESTROYED" => "File stream was destroyed",
            "INVALID_FIELD_NAME" => "Invalid field name",
            _ => "Unknown error",
        }
    }

    /// `err.field`: the field the error is about, if any.
    ///
    /// ```
    /// assert_eq!(webfw::multer::MulterError::new("LIMIT_FIELD_COUNT", None).field(), None);
    /// ```
    pub fn field(&self) -> Option<&str> {
        self.field.as_deref()
    }

    /// `err.filename`: the client's file name, for errors about a file.
    ///
    /// ```
    /// assert_eq!(webfw::multer::MulterError::new("LIMIT_FILE_SIZE", Some("f")).filename(), None);
    /// ```
    pub fn filename(&self) -> Option<&str> {
        self.filename.as_deref()
    }

    /// The chain's [`Error`]: named `MulterError`, with this code and
    /// message, no status, and this error as its source.
    ///
    /// ```
    /// let err = webfw::multer::MulterError::new("LIMIT_FIELD_KEY", None).into_error();
    /// assert_eq!(err.message(), "Field name too long");
    /// ```
    pub fn into_error(self) -> Error {
        Error::new(self.message())
            .with_name("MulterError")
            .with_code(self.code)
            .with_source(self)
    }

    /// The `MulterError` an [`Error`] carries (`err instanceof MulterError`).
    ///
    /// ```
    /// assert!(webfw::multer::MulterError::of(&webfw::Error::new("x")).is_none());
    /// ```
    pub fn of(err: &Error) -> Option<&MulterError> {
        err.source()?.downcast_ref::<MulterError>()
    }
}

impl fmt::Display for MulterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for MulterError {}
