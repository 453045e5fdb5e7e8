//! Express: `app.post('/profile', multer({ dest: 'uploads/' }).single('avatar'), fn)`
//!
//! webfw: `app.post("/profile", (webfw::multer(MulterOptions::new().dest("uploads/")).single("avatar"), f))`
//!
//! `multipart/form-data` uploads as multer 2.5 (with busboy 1.6) reads
//! them: `single(name)`, `array(name, maxCount)`, `fields([...])`,
//! `none()`, `any()`; memory or disk storage; `limits`; a file filter;
//! multer's errors ([`MulterError`]). Text fields go to `req.body()` with
//! append-field's names (`a[b]`, `a[]`, repeated names); files to
//! [`req.file()`](crate::Request::file) / [`req.files()`](crate::Request::files).
//!
//! The body is parsed as it streams, by a bounded state machine; files
//! stream to their storage (disk storage holds one chunk at a time). After
//! an error the rest of the body is read and thrown away before the error
//! goes on, as multer drains it, so the client always gets the answer.
//! Requests that are not multipart pass through untouched.
//!
//! ```
//! use webfw::prelude::*;
//! use webfw::multer::{MulterOptions, Limits};
//!
//! fn upload(req: &mut Request, res: &mut Response) -> Result {
//!     let name = req.file().map(|f| f.originalname.clone()).unwrap_or_default();
//!     res.send(format!("got {name}"))
//! }
//! let upload_mw = webfw::multer(MulterOptions::new().limits(Limits::new().file_size(1 << 20)));
//! let mut app = webfw::app();
//! app.post("/profile", (upload_mw.single("avatar"), upload));
//! ```

mod append_field;
mod error;
mod file;
mod headers;
mod middleware;
mod options;
mod parser;
mod part_head;
mod search;
mod storage;

pub use error::MulterError;
pub use file::{File, Files};
pub use middleware::MulterMiddleware;
pub(crate) use middleware::UploadedFile;
pub use options::{FieldSpec, Limits, MulterOptions};
pub use storage::{DiskStorage, Storage};

#[cfg(fuzzing)]
#[doc(hidden)]
pub use parser::fuzz as __fuzz_parse;

use std::sync::Arc;

use middleware::Strategy;

/// `multer(options)`: an upload parser; pick what it accepts with
/// [`single`](Multer::single), [`array`](Multer::array),
/// [`fields`](Multer::fields), [`none`](Multer::none) or [`any`](Multer::any).
///
/// ```
/// let upload = webfw::multer(webfw::multer::MulterOptions::new());
/// let mut app = webfw::app();
/// app.post("/photos", upload.array("photos", Some(12)));
/// ```
pub fn multer(options: MulterOptions) -> Multer {
    Multer {
        options: Arc::new(options),
    }
}

/// What [`multer()`] returns.
///
/// ```
/// let upload: webfw::multer::Multer = webfw::multer(Default::default());
/// ```
#[derive(Clone, Debug)]
pub struct Multer {
    options: Arc<MulterOptions>,
}

impl Multer {
    fn make(&self, fields: Vec<(String, Option<u64>)>, strategy: Strategy) -> MulterMiddleware {
        MulterMiddleware::new(self.options.clone(), fields, strategy)
    }

    /// `upload.single(name)`: one file from field `name`, in `req.file()`;
    /// a second is `LIMIT_UNEXPECTED_FILE`.
    ///
    /// ```
    /// let mw = webfw::multer(Default::default()).single("avatar");
    /// ```
    pub fn single(&self, name: &str) -> MulterMiddleware {
        self.make(vec![(name.to_owned(), Some(1))], Strategy::Value)
    }

    /// `upload.array(name, maxCount)`: files from field `name` in
    /// `req.files()` (an array); more than `max_count` is
    /// `LIMIT_UNEXPECTED_FILE` (`None`: no bound).
    ///
    /// ```
    /// let mw = webfw::multer(Default::default()).array("photos", Some(2));
    /// ```
    pub fn array(&self, name: &str, max_count: Option<u64>) -> MulterMiddleware {
        self.make(vec![(name.to_owned(), max_count)], Strategy::Array)
    }

    /// `upload.fields([{name, maxCount}])`: files from these fields in
    /// `req.files()` (an object of arrays).
    ///
    /// ```
    /// use webfw::multer::FieldSpec;
    /// let mw = webfw::multer(Default::default())
    ///     .fields(&[FieldSpec::new("avatar").max_count(1), FieldSpec::new("gallery")]);
    /// ```
    pub fn fields(&self, fields: &[FieldSpec]) -> MulterMiddleware {
        let fields = fields
            .iter()
            .map(|f| (f.name.clone(), f.max_count))
            .collect();
        self.make(fields, Strategy::Object)
    }

    /// `upload.none()`: text fields only; any file is `LIMIT_UNEXPECTED_FILE`.
    ///
    /// ```
    /// let mw = webfw::multer(Default::default()).none();
    /// ```
    pub fn none(&self) -> MulterMiddleware {
        self.make(Vec::new(), Strategy::None)
    }

    /// `upload.any()`: every file (that the file filter accepts), in
    /// `req.files()` (an array).
    ///
    /// ```
    /// let mw = webfw::multer(Default::default()).any();
    /// ```
    pub fn any(&self) -> MulterMiddleware {
        self.make(Vec::new(), Strategy::Any)
    }
}
