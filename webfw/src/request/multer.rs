//! `req.file` and `req.files`: what the multer middleware stored.

use crate::multer::{File, Files};
use crate::request::Request;

impl Request {
    /// `req.file`: the file [`single`](crate::multer::Multer::single)
    /// stored, if one came.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::POST, "/");
    /// assert!(req.file().is_none());
    /// ```
    pub fn file(&self) -> Option<&File> {
        self.extensions()
            .get::<crate::multer::UploadedFile>()
            .map(|f| &f.0)
    }

    /// `req.files`: the files [`array`](crate::multer::Multer::array),
    /// [`any`](crate::multer::Multer::any) (an array) or
    /// [`fields`](crate::multer::Multer::fields) (by field) stored; `None`
    /// when no such middleware read the request.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::POST, "/");
    /// assert!(req.files().is_none());
    /// ```
    pub fn files(&self) -> Option<&Files> {
        self.extensions().get::<Files>()
    }
}
