//! The middleware: multer's `makeMiddleware`, reading the body through the
//! parser and deciding what each part becomes.

use std::future::poll_fn;
use std::pin::Pin;
use std::sync::Arc;

use bytes::Bytes;
use http_body::Body as _;

use super::append_field::{Form, Refused};
use super::error::MulterError;
use super::file::{File, Files};
use super::headers::{Decoder, latin1, parse_content_type};
use super::options::MulterOptions;
use super::parser::{Event, Multipart, ParseLimits, ParseOptions};
use super::storage::{self, Sink};
use crate::body::Body;
use crate::error::Error;
use crate::handler::{Flow, Handler, HandlerFuture, Result};
use crate::request::{RawBody, Request};
use crate::response::Response;

/// busboy's default `fieldSize`.
const DEFAULT_FIELD_SIZE: u64 = 1024 * 1024;

/// Where files go on the request (multer's `fileStrategy`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Strategy {
    None,
    Value,
    Array,
    Object,
    /// `any()`: an array, and no per-field counts.
    Any,
}

/// The middleware that [`Multer`](super::Multer)'s methods return.
///
/// ```
/// let mw: webfw::multer::MulterMiddleware = webfw::multer(Default::default()).none();
/// let mut app = webfw::app();
/// app.post("/form", mw);
/// ```
#[derive(Clone, Debug)]
pub struct MulterMiddleware {
    options: Arc<MulterOptions>,
    fields: Arc<Vec<(String, Option<u64>)>>,
    strategy: Strategy,
}

/// `req.file`, kept in the request's extensions.
#[derive(Clone)]
pub(crate) struct UploadedFile(pub File);

impl MulterMiddleware {
    pub(crate) fn new(
        options: Arc<MulterOptions>,
        fields: Vec<(String, Option<u64>)>,
        strategy: Strategy,
    ) -> MulterMiddleware {
        MulterMiddleware {
            options,
            fields: Arc::new(fields),
            strategy,
        }
    }
}

impl Handler for MulterMiddleware {
    fn call<'a>(&'a self, req: &'a mut Request, _res: &'a mut Response) -> HandlerFuture<'a> {
        if req.is(&["multipart"]).is_none() {
            return HandlerFuture::ready(Ok(Flow::Next));
        }
        HandlerFuture::boxed(Box::pin(async move { self.run(req).await }))
    }
}

/// busboy's constructor checks of the request's `Content-Type`.
fn boundary(req: &Request) -> std::result::Result<Vec<u8>, Error> {
    let raw = req
        .headers()
        .get(http::header::CONTENT_TYPE)
        .map_or(&[][..], |v| v.as_bytes());
    let ct = parse_content_type(raw).ok_or_else(|| Error::new("Malformed content type"))?;
    if ct.type_ != "multipart" || ct.subtype != "form-data" {
        return Err(Error::new(format!(
            "Unsupported content type: {}",
            latin1(raw)
        )));
    }
    ct.param("boundary")
        .map(<[u8]>::to_vec)
        .ok_or_else(|| Error::new("Multipart: Boundary not found"))
}

/// `decodeFormDataName`: the three escapes the HTML spec asks browsers
/// to write in names (`%0A`, `%0D`, `%22`), reversed.
fn decode_form_data_name(s: &str) -> String {
    if !s.contains('%') {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('%') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let code = tail.get(..3).map(str::to_ascii_uppercase);
        match code.as_deref() {
            Some("%0A") => out.push('\n'),
            Some("%0D") => out.push('\r'),
            Some("%22") => out.push('"'),
            _ => {
                out.push('%');
                rest = &tail[1..];
                continue;
            }
        }
        rest = &tail[3..];
    }
    out.push_str(rest);
    out
}

/// multer's `exceedsArrayIndexLimit`: only a name append-field reads as a
/// bracket path (`a[b][0]`, optionally ending in `[]`) can make an array,
/// and then any all-digit group above `limit` is too large.
fn exceeds_array_index(name: &str, limit: u64) -> bool {
    let Some(open) = name.find('[') else {
        return false;
    };
    if open == 0 {
        return false;
    }
    let mut rest = &name[open..];
    while !rest.is_empty() {
        if rest == "[]" {
            break;
        }
        let Some(inner) = rest.strip_prefix('[') else {
            return false;
        };
        let Some(close) = inner.find(']') else {
            return false;
        };
        if close == 0 {
            return false;
        }
        rest = &inner[close + 1..];
    }
    // The index test runs over the whole name, as multer's regex does.
    let mut s = name;
    while let Some(i) = s.find('[') {
        let after = &s[i + 1..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && after.as_bytes().get(digits) == Some(&b']') {
            let n: f64 = after[..digits].parse().unwrap_or(f64::INFINITY);
            if n > limit as f64 {
                return true;
            }
            s = &after[digits + 1..];
        } else {
            s = after;
        }
    }
    false
}

/// JavaScript's `string.length`.
fn js_len(s: &str) -> u64 {
    s.encode_utf16().count() as u64
}

fn code(code: &'static str, field: Option<&str>) -> Error {
    MulterError::new(code, field).into_error()
}

/// The file being read.
struct Current {
    file: File,
    sink: Option<Sink>,
}

/// One request's upload.
struct Upload<'m> {
    mw: &'m MulterMiddleware,
    form: Form,
    files_left: Vec<(String, u64)>,
    done: Vec<File>,
    current: Option<Current>,
    /// Bytes the form holds in memory (`MulterOptions::memory_limit`).
    held: u64,
}

impl Upload<'_> {
    /// Counts `n` more bytes held in memory; `false` once past the bound.
    fn hold(&mut self, n: usize) -> bool {
        self.held = self.held.saturating_add(n as u64);
        self.mw.options.memory_limit.is_none_or(|l| self.held <= l)
    }

    fn limits(&self) -> &super::Limits {
        &self.mw.options.limits
    }

    /// What multer does with one busboy event; `Err` is the upload's error.
    async fn event(&mut self, req: &Request, ev: Event) -> std::result::Result<(), Error> {
        match ev {
            Event::Field {
                name,
                value,
                truncated,
            } => {
                let raw = name.ok_or_else(|| code("MISSING_FIELD_NAME", None))?;
                let name = decode_form_data_name(&raw);
                if truncated || !self.hold(value.as_ref().map_or(0, String::len)) {
                    return Err(code("LIMIT_FIELD_VALUE", Some(&name)));
                }
                if self
                    .limits()
                    .field_name_size
                    .is_some_and(|l| js_len(&raw) > l)
                {
                    return Err(code("LIMIT_FIELD_KEY", None));
                }
                if self
                    .limits()
                    .field_nesting_depth
                    .is_some_and(|l| name.matches('[').count() as u64 > l)
                {
                    return Err(code("LIMIT_FIELD_NESTING", Some(&name)));
                }
                if let Some(l) = self.limits().field_array_index_limit
                    && exceeds_array_index(&name, l)
                {
                    return Err(code("LIMIT_FIELD_ARRAY_INDEX", Some(&name)));
                }
                self.form.append(&name, value).map_err(|r| match r {
                    Refused::Nesting => code("LIMIT_FIELD_NESTING", Some(&name)),
                    Refused::ArrayIndex => code("LIMIT_FIELD_ARRAY_INDEX", Some(&name)),
                })
            }
            Event::File {
                name,
                filename,
                encoding,
                mime_type,
            } => {
                let originalname = filename.map(|f| decode_form_data_name(&f));
                let raw = name.ok_or_else(|| code("MISSING_FIELD_NAME", None))?;
                let fieldname = decode_form_data_name(&raw);
                let Some(originalname) = originalname.filter(|f| !f.is_empty()) else {
                    return Ok(());
                };
                if self
                    .limits()
                    .field_name_size
                    .is_some_and(|l| js_len(&raw) > l)
                {
                    return Err(code("LIMIT_FIELD_KEY", None));
                }
                let file = File {
                    fieldname,
                    originalname,
                    encoding,
                    mimetype: mime_type,
                    ..File::default()
                };
                if !self.filter(req, &file)? {
                    return Ok(());
                }
                let sink = self.mw.options.storage.open(req, &file).await?;
                self.current = Some(Current {
                    file,
                    sink: Some(sink),
                });
                Ok(())
            }
            Event::FileData(data) => self.write(&data).await,
            Event::FileLimit => match &self.current {
                Some(c) => Err(MulterError::new("LIMIT_FILE_SIZE", Some(&c.file.fieldname))
                    .with_filename(&c.file.originalname)
                    .into_error()),
                None => Ok(()),
            },
            Event::FileEnd => {
                let Some(mut c) = self.current.take() else {
                    return Ok(());
                };
                if let Some(sink) = c.sink.take() {
                    sink.finish(&mut c.file).await?;
                }
                self.done.push(c.file);
                Ok(())
            }
            Event::FilesLimit => Err(code("LIMIT_FILE_COUNT", None)),
            Event::FieldsLimit => Err(code("LIMIT_FIELD_COUNT", None)),
            Event::PartsLimit => Err(code("LIMIT_PART_COUNT", None)),
            Event::Malformed => Err(Error::new("Malformed part header")),
        }
    }

    async fn write(&mut self, data: &Bytes) -> std::result::Result<(), Error> {
        let in_memory = matches!(
            self.current,
            Some(Current {
                sink: Some(Sink::Memory(_)),
                ..
            })
        );
        if in_memory && !self.hold(data.len()) {
            let c = self.current.as_ref().map(|c| &c.file);
            return Err(
                MulterError::new("LIMIT_FILE_SIZE", c.map(|f| f.fieldname.as_str()))
                    .with_filename(c.map_or("", |f| f.originalname.as_str()))
                    .into_error(),
            );
        }
        if let Some(Current {
            sink: Some(sink), ..
        }) = self.current.as_mut()
        {
            sink.write(data).await?;
        }
        Ok(())
    }

    /// multer's wrapped file filter: the field's `maxCount`, then the
    /// app's filter. A skipped file keeps its slot.
    fn filter(&mut self, req: &Request, file: &File) -> std::result::Result<bool, Error> {
        let counted = self.mw.strategy != Strategy::Any;
        if counted {
            let left = self
                .files_left
                .iter()
                .find(|(n, _)| *n == file.fieldname)
                .map_or(0, |(_, l)| *l);
            if left == 0 {
                return Err(
                    MulterError::new("LIMIT_UNEXPECTED_FILE", Some(&file.fieldname))
                        .with_filename(&file.originalname)
                        .into_error(),
                );
            }
        }
        let keep = match &self.mw.options.file_filter {
            Some(f) => f(req, file)?,
            None => true,
        };
        if keep
            && counted
            && let Some((_, l)) = self
                .files_left
                .iter_mut()
                .find(|(n, _)| *n == file.fieldname)
        {
            *l -= 1;
        }
        Ok(keep)
    }

    /// The upload failed: stored files go, as multer removes them.
    async fn clean_up(&mut self) {
        if let Some(c) = self.current.take()
            && let Some(sink) = c.sink
        {
            sink.discard().await;
        }
        for f in self.done.drain(..) {
            storage::remove(&f).await;
        }
    }

    /// `req.file` / `req.files` as the strategy puts them.
    fn place(self, req: &mut Request) {
        match self.mw.strategy {
            Strategy::None => {}
            Strategy::Value => {
                if let Some(f) = self.done.into_iter().last() {
                    req.extensions_mut().insert(UploadedFile(f));
                }
            }
            Strategy::Array | Strategy::Any => {
                req.extensions_mut().insert(Files::Array(self.done));
            }
            Strategy::Object => {
                let mut by_field: Vec<(String, Vec<File>)> = Vec::new();
                for f in self.done {
                    match by_field.iter_mut().find(|(k, _)| *k == f.fieldname) {
                        Some((_, v)) => v.push(f),
                        None => by_field.push((f.fieldname.clone(), vec![f])),
                    }
                }
                // A JavaScript object lists array-index keys first.
                let (mut idx, rest): (Vec<_>, Vec<_>) = by_field
                    .into_iter()
                    .partition(|(k, _)| crate::http::qs::array_index(k).is_some());
                crate::http::sort::sort_by_key(&mut idx, |(k, _)| crate::http::qs::array_index(k));
                idx.extend(rest);
                req.extensions_mut().insert(Files::Object(idx));
            }
        }
    }
}

/// The next chunk of the body; `Err` when the client went away.
async fn next_chunk(body: &mut RawBody) -> Option<std::result::Result<Bytes, ()>> {
    loop {
        let frame = poll_fn(|cx| Pin::new(&mut *body).poll_frame(cx)).await?;
        match frame {
            Ok(f) => {
                if let Ok(data) = f.into_data() {
                    return Some(Ok(data));
                }
            }
            Err(_) => return Some(Err(())),
        }
    }
}

impl MulterMiddleware {
    fn parse_options(&self) -> ParseOptions {
        let l = &self.options.limits;
        ParseOptions {
            limits: ParseLimits {
                field_size: Some(l.field_size.unwrap_or(DEFAULT_FIELD_SIZE).saturating_add(1)),
                file_size: l.file_size.map(|n| n.saturating_add(1)),
                files: l.files,
                fields: l.fields,
                parts: l.parts.map(|n| n.saturating_add(1)),
            },
            param_decoder: Decoder::for_charset(&self.options.def_param_charset),
            def_charset: self.options.def_charset.clone(),
            preserve_path: self.options.preserve_path,
        }
    }

    async fn run(&self, req: &mut Request) -> Result {
        let boundary = boundary(req)?;
        let mut parser = Multipart::new(&boundary, self.parse_options());
        let mut up = Upload {
            mw: self,
            form: Form::default(),
            files_left: self
                .fields
                .iter()
                .map(|(n, c)| (n.clone(), c.unwrap_or(u64::MAX)))
                .collect(),
            done: Vec::new(),
            current: None,
            held: 0,
        };
        let mut body = req.take_body();
        let mut events = Vec::new();
        let mut failed: Option<Error> = None;
        let mut ended = false;
        while let Some(chunk) = next_chunk(&mut body).await {
            let Ok(chunk) = chunk else {
                failed = Some(Error::new("Request aborted"));
                break;
            };
            parser.push(&chunk, &mut events);
            if let Err(e) = up.events(req, &mut events).await {
                failed = Some(e);
                break;
            }
        }
        if failed.is_none() {
            ended = true;
            let end = parser.finish(&mut events);
            let first = up.events(req, &mut events).await;
            failed = first.err().or_else(|| end.err().map(Error::new));
        }
        if let Some(err) = failed {
            up.clean_up().await;
            req.set_body(Body::Value(up.form.to_value()));
            if !ended {
                // multer reads the rest of the body before passing the
                // error on, so a client still sending gets the answer.
                while let Some(Ok(_)) = next_chunk(&mut body).await {}
            }
            return Err(err);
        }
        req.set_body(Body::Value(up.form.to_value()));
        up.place(req);
        Ok(Flow::Next)
    }
}

impl Upload<'_> {
    /// Handles queued events in order; the first error stops them.
    async fn events(
        &mut self,
        req: &Request,
        events: &mut Vec<Event>,
    ) -> std::result::Result<(), Error> {
        let mut result = Ok(());
        for ev in events.drain(..) {
            if result.is_ok() {
                result = self.event(req, ev).await;
            }
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_index_limit_reads_names_as_multer_does() {
        assert!(exceeds_array_index("a[11]", 10));
        assert!(!exceeds_array_index("a[10]", 10));
        assert!(exceeds_array_index("a[b][0][99]", 10));
        assert!(exceeds_array_index("a[[99]", 10));
        assert!(exceeds_array_index("a[99][]", 10));
        assert!(!exceeds_array_index("a[99]x", 10));
        assert!(!exceeds_array_index("[99]", 10));
        assert!(!exceeds_array_index("a[][99]", 10));
        assert!(!exceeds_array_index("a", 10));
    }

    #[test]
    fn form_data_names_lose_only_the_three_escapes() {
        assert_eq!(decode_form_data_name("a%22b%0a%0D%41%"), "a\"b\n\r%41%");
        assert_eq!(js_len("é😀"), 3);
    }
}
