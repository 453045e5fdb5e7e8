//! The uploaded file (`req.file`, the items of `req.files`).

use std::path::PathBuf;

use bytes::Bytes;

/// A file from the form, as multer describes it. A file filter sees it
/// before any byte is stored (`size` 0, no `buffer` or `path`).
///
/// ```
/// use webfw::prelude::*;
/// fn show(req: &mut Request, res: &mut Response) -> Result {
///     match req.file() {
///         Some(f) => res.send(format!("{} ({} bytes, {})", f.originalname, f.size, f.mimetype)),
///         None => res.send("no file"),
///     }
/// }
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct File {
    /// The form field's name.
    pub fieldname: String,
    /// The file's name on the client (untrusted).
    pub originalname: String,
    /// The part's `Content-Transfer-Encoding` (`7bit` when absent).
    pub encoding: String,
    /// The part's media type (`text/plain` when absent).
    pub mimetype: String,
    /// Bytes stored.
    pub size: u64,
    /// The contents (memory storage).
    pub buffer: Option<Bytes>,
    /// The folder the file was written to (disk storage).
    pub destination: Option<PathBuf>,
    /// Its name in `destination` (disk storage).
    pub filename: Option<String>,
    /// `destination` joined with `filename` (disk storage).
    pub path: Option<PathBuf>,
}

/// `req.files`: an array for `array()` and `any()`, an object of arrays
/// keyed by field name (in JavaScript's key order) for `fields()`.
///
/// ```
/// use webfw::multer::Files;
/// let files = Files::Array(vec![]);
/// assert!(files.all().next().is_none());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Files {
    /// From `array(name)` and `any()`.
    Array(Vec<File>),
    /// From `fields([...])`: each field's files, in order.
    Object(Vec<(String, Vec<File>)>),
}

impl Files {
    /// The files of one field (every file when `Array`, whose files may
    /// come from several fields under `any()`).
    ///
    /// ```
    /// let files = webfw::multer::Files::Object(vec![("a".into(), vec![])]);
    /// assert_eq!(files.get("a").map(|f| f.len()), Some(0));
    /// ```
    pub fn get(&self, field: &str) -> Option<&[File]> {
        match self {
            Files::Array(v) => Some(v),
            Files::Object(m) => m
                .iter()
                .find(|(k, _)| k == field)
                .map(|(_, v)| v.as_slice()),
        }
    }

    /// Every file, in order.
    ///
    /// ```
    /// let files = webfw::multer::Files::Object(vec![]);
    /// assert_eq!(files.all().count(), 0);
    /// ```
    pub fn all(&self) -> Box<dyn Iterator<Item = &File> + '_> {
        match self {
            Files::Array(v) => Box::new(v.iter()),
            Files::Object(m) => Box::new(m.iter().flat_map(|(_, v)| v.iter())),
        }
    }
}
