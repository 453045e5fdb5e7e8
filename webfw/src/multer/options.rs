//! multer's options: storage, `limits`, `fileFilter`, `preservePath`,
//! `defParamCharset`, `defCharset`.

use std::path::Path;
use std::sync::Arc;

use super::file::File;
use super::storage::{DiskStorage, Storage};
use crate::error::Error;
use crate::request::Request;

pub(crate) type FileFilter = dyn Fn(&Request, &File) -> Result<bool, Error> + Send + Sync;

/// Options of [`multer`](super::multer()); the defaults are multer's
/// (memory storage, every file accepted, no limits but `fieldSize` 1 MiB,
/// parameters read as latin1, fields as UTF-8), with one bound multer does
/// not have: one request's form may hold at most 16 MiB in memory (see
/// [`memory_limit`](MulterOptions::memory_limit)).
///
/// ```
/// use webfw::multer::{MulterOptions, Limits};
/// let opts = MulterOptions::new()
///     .dest(std::env::temp_dir().join("uploads"))
///     .limits(Limits::new().file_size(10 * 1024 * 1024).files(3))
///     .file_filter(|_req, file| Ok(file.mimetype.starts_with("image/")));
/// ```
#[derive(Clone)]
pub struct MulterOptions {
    pub(crate) storage: Storage,
    pub(crate) limits: Limits,
    pub(crate) file_filter: Option<Arc<FileFilter>>,
    pub(crate) preserve_path: bool,
    pub(crate) def_param_charset: String,
    pub(crate) def_charset: String,
    pub(crate) memory_limit: Option<u64>,
}

/// What one request's form may hold in memory unless the app says otherwise.
pub(crate) const DEFAULT_MEMORY_LIMIT: u64 = 16 << 20;

impl Default for MulterOptions {
    fn default() -> Self {
        MulterOptions {
            storage: Storage::memory(),
            limits: Limits::default(),
            file_filter: None,
            preserve_path: false,
            def_param_charset: "latin1".to_owned(),
            def_charset: "utf8".to_owned(),
            memory_limit: Some(DEFAULT_MEMORY_LIMIT),
        }
    }
}

impl std::fmt::Debug for MulterOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MulterOptions")
            .field("storage", &self.storage)
            .field("limits", &self.limits)
            .field("preserve_path", &self.preserve_path)
            .field("memory_limit", &self.memory_limit)
            .finish_non_exhaustive()
    }
}

impl MulterOptions {
    /// multer's defaults.
    ///
    /// ```
    /// let opts = webfw::multer::MulterOptions::new();
    /// ```
    pub fn new() -> MulterOptions {
        MulterOptions::default()
    }

    /// `dest`: disk storage in this folder (created now), random names.
    ///
    /// ```
    /// let opts = webfw::multer::MulterOptions::new().dest(std::env::temp_dir());
    /// ```
    pub fn dest(self, dir: impl AsRef<Path>) -> MulterOptions {
        self.storage(Storage::disk(DiskStorage::new().destination(dir)))
    }

    /// `storage`: [`Storage::memory()`] or [`Storage::disk`].
    ///
    /// ```
    /// let opts = webfw::multer::MulterOptions::new().storage(webfw::multer::Storage::memory());
    /// ```
    pub fn storage(mut self, storage: Storage) -> MulterOptions {
        self.storage = storage;
        self
    }

    /// `limits`.
    ///
    /// ```
    /// let opts = webfw::multer::MulterOptions::new().limits(webfw::multer::Limits::new().fields(10));
    /// ```
    pub fn limits(mut self, limits: Limits) -> MulterOptions {
        self.limits = limits;
        self
    }

    /// `fileFilter`: `Ok(true)` stores the file, `Ok(false)` skips it
    /// silently (it does not count towards `maxCount`), `Err` fails the
    /// upload with that error.
    ///
    /// ```
    /// let opts = webfw::multer::MulterOptions::new()
    ///     .file_filter(|_req, file| Ok(file.originalname.ends_with(".png")));
    /// ```
    pub fn file_filter(
        mut self,
        f: impl Fn(&Request, &File) -> Result<bool, Error> + Send + Sync + 'static,
    ) -> MulterOptions {
        self.file_filter = Some(Arc::new(f));
        self
    }

    /// `preservePath`: keep the client's full path in `originalname`.
    ///
    /// ```
    /// let opts = webfw::multer::MulterOptions::new().preserve_path(true);
    /// ```
    pub fn preserve_path(mut self, on: bool) -> MulterOptions {
        self.preserve_path = on;
        self
    }

    /// The most bytes one request's form may hold in memory: the files
    /// memory storage keeps plus the text fields' values (default 16 MiB).
    /// npm's multer has no such bound, so with memory storage and no
    /// `limits.fileSize` a client could make it hold any amount; here one
    /// byte more fails the upload with `LIMIT_FILE_SIZE` (a file crossed
    /// it) or `LIMIT_FIELD_VALUE` (a field did), as multer's own limits do.
    /// `None` lifts the bound, as in multer; disk storage's files do not
    /// count, since they are written out as they arrive.
    ///
    /// ```
    /// let opts = webfw::multer::MulterOptions::new().memory_limit(Some(64 << 20));
    /// ```
    pub fn memory_limit(mut self, bytes: Option<u64>) -> MulterOptions {
        self.memory_limit = bytes;
        self
    }

    /// `defParamCharset`: how `name` and `filename` parameters without
    /// their own charset are read (default `latin1`, as browsers' UTF-8
    /// bytes then read as latin1 in multer; `utf8` reads them as UTF-8).
    ///
    /// ```
    /// let opts = webfw::multer::MulterOptions::new().def_param_charset("utf8");
    /// ```
    pub fn def_param_charset(mut self, charset: &str) -> MulterOptions {
        self.def_param_charset = charset.to_owned();
        self
    }

    /// `defCharset`: the charset of text fields whose part names none
    /// (default `utf8`).
    ///
    /// ```
    /// let opts = webfw::multer::MulterOptions::new().def_charset("latin1");
    /// ```
    pub fn def_charset(mut self, charset: &str) -> MulterOptions {
        self.def_charset = charset.to_owned();
        self
    }
}

/// multer's `limits`; each unset one is multer's default (no bound,
/// except `fieldSize` 1 MiB). Values are "at most": one byte (or part, or
/// file) more is the error.
///
/// ```
/// let limits = webfw::multer::Limits::new().file_size(1_000_000).files(1).parts(20);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub(crate) field_name_size: Option<u64>,
    pub(crate) field_size: Option<u64>,
    pub(crate) fields: Option<u64>,
    pub(crate) file_size: Option<u64>,
    pub(crate) files: Option<u64>,
    pub(crate) parts: Option<u64>,
    pub(crate) header_pairs: Option<u64>,
    pub(crate) field_nesting_depth: Option<u64>,
    pub(crate) field_array_index_limit: Option<u64>,
}

impl Limits {
    /// No limits set.
    ///
    /// ```
    /// let limits = webfw::multer::Limits::new();
    /// ```
    pub fn new() -> Limits {
        Limits::default()
    }

    /// `fieldNameSize`: the longest field name, in UTF-16 units as
    /// JavaScript counts (`LIMIT_FIELD_KEY`).
    ///
    /// ```
    /// let limits = webfw::multer::Limits::new().field_name_size(100);
    /// ```
    pub fn field_name_size(mut self, n: u64) -> Limits {
        self.field_name_size = Some(n);
        self
    }

    /// `fieldSize`: the longest text value, in bytes (`LIMIT_FIELD_VALUE`;
    /// default 1 MiB).
    ///
    /// ```
    /// let limits = webfw::multer::Limits::new().field_size(1024);
    /// ```
    pub fn field_size(mut self, n: u64) -> Limits {
        self.field_size = Some(n);
        self
    }

    /// `fields`: the most text fields (`LIMIT_FIELD_COUNT`).
    ///
    /// ```
    /// let limits = webfw::multer::Limits::new().fields(10);
    /// ```
    pub fn fields(mut self, n: u64) -> Limits {
        self.fields = Some(n);
        self
    }

    /// `fileSize`: the largest file, in bytes (`LIMIT_FILE_SIZE`).
    ///
    /// ```
    /// let limits = webfw::multer::Limits::new().file_size(5 << 20);
    /// ```
    pub fn file_size(mut self, n: u64) -> Limits {
        self.file_size = Some(n);
        self
    }

    /// `files`: the most files (`LIMIT_FILE_COUNT`).
    ///
    /// ```
    /// let limits = webfw::multer::Limits::new().files(2);
    /// ```
    pub fn files(mut self, n: u64) -> Limits {
        self.files = Some(n);
        self
    }

    /// `parts`: the most parts, fields and files together (`LIMIT_PART_COUNT`).
    ///
    /// ```
    /// let limits = webfw::multer::Limits::new().parts(100);
    /// ```
    pub fn parts(mut self, n: u64) -> Limits {
        self.parts = Some(n);
        self
    }

    /// `headerPairs`: accepted as multer accepts it; busboy 1.6's multipart
    /// parser ignores it and keeps at most 1,999 header lines of a part in
    /// any case (a part's header block is bounded at 16 KiB).
    ///
    /// ```
    /// let limits = webfw::multer::Limits::new().header_pairs(2000);
    /// ```
    pub fn header_pairs(mut self, n: u64) -> Limits {
        self.header_pairs = Some(n);
        self
    }
}

impl Limits {
    /// `fieldNestingDepth`: the most `[` a text field's name may hold
    /// (`a[b][c]` has 2; `LIMIT_FIELD_NESTING`). Without it, names still
    /// nest at most 128 levels.
    ///
    /// ```
    /// let limits = webfw::multer::Limits::new().field_nesting_depth(4);
    /// ```
    pub fn field_nesting_depth(mut self, n: u64) -> Limits {
        self.field_nesting_depth = Some(n);
        self
    }

    /// `fieldArrayIndexLimit`: the largest array index a text field's
    /// name may use (`a[7]`; `LIMIT_FIELD_ARRAY_INDEX`). Without it, the
    /// indexes of a form may still leave at most 100,000 empty slots.
    ///
    /// ```
    /// let limits = webfw::multer::Limits::new().field_array_index_limit(100);
    /// ```
    pub fn field_array_index_limit(mut self, n: u64) -> Limits {
        self.field_array_index_limit = Some(n);
        self
    }
}

/// One entry of [`Multer::fields`](super::Multer::fields): `{name, maxCount}`.
///
/// ```
/// let spec = webfw::multer::FieldSpec::new("gallery").max_count(8);
/// ```
#[derive(Clone, Debug)]
pub struct FieldSpec {
    pub(crate) name: String,
    pub(crate) max_count: Option<u64>,
}

impl FieldSpec {
    /// A field with no bound on its files.
    ///
    /// ```
    /// let spec = webfw::multer::FieldSpec::new("docs");
    /// ```
    pub fn new(name: &str) -> FieldSpec {
        FieldSpec {
            name: name.to_owned(),
            max_count: None,
        }
    }

    /// `maxCount`.
    ///
    /// ```
    /// let spec = webfw::multer::FieldSpec::new("avatar").max_count(1);
    /// ```
    pub fn max_count(mut self, n: u64) -> FieldSpec {
        self.max_count = Some(n);
        self
    }
}
