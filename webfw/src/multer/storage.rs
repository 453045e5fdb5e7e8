//! Where uploaded bytes go: memory (`multer.memoryStorage()`) or disk
//! (`multer.diskStorage({destination, filename})`), streamed as they
//! arrive, so disk storage holds no more than a chunk in memory.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bytes::Bytes;
use tokio::io::AsyncWriteExt;

use super::file::File;
use crate::error::Error;
use crate::request::Request;

type PathFn = dyn Fn(&Request, &File) -> Result<PathBuf, Error> + Send + Sync;
type NameFn = dyn Fn(&Request, &File) -> Result<String, Error> + Send + Sync;

/// A storage engine.
///
/// ```
/// use webfw::multer::{Storage, DiskStorage};
/// let memory = Storage::memory();
/// let disk = Storage::disk(DiskStorage::new().destination(std::env::temp_dir()));
/// ```
#[derive(Clone)]
pub struct Storage(Kind);

#[derive(Clone)]
enum Kind {
    Memory,
    Disk(DiskStorage),
}

impl Storage {
    /// `multer.memoryStorage()`: each file's bytes in `file.buffer`; one
    /// request's files and fields hold at most
    /// [`MulterOptions::memory_limit`](super::MulterOptions::memory_limit)
    /// (16 MiB unless set), and `limits.fileSize` bounds each file.
    ///
    /// ```
    /// let s = webfw::multer::Storage::memory();
    /// ```
    pub fn memory() -> Storage {
        Storage(Kind::Memory)
    }

    /// `multer.diskStorage(opts)`: each file written to disk as it arrives.
    ///
    /// ```
    /// let s = webfw::multer::Storage::disk(webfw::multer::DiskStorage::new());
    /// ```
    pub fn disk(disk: DiskStorage) -> Storage {
        Storage(Kind::Disk(disk))
    }

    /// Starts storing `file`.
    pub(crate) async fn open(&self, req: &Request, file: &File) -> Result<Sink, Error> {
        match &self.0 {
            Kind::Memory => Ok(Sink::Memory(Vec::new())),
            Kind::Disk(d) => {
                let destination = match &d.destination {
                    Destination::Temp => std::env::temp_dir(),
                    Destination::Dir(p) => p.clone(),
                    Destination::Fn(f) => f(req, file)?,
                };
                let filename = match &d.filename {
                    Some(f) => f(req, file)?,
                    None => random_name()?,
                };
                let path = destination.join(&filename);
                let out = tokio::fs::File::create(&path)
                    .await
                    .map_err(|e| open_error(&e, &path))?;
                Ok(Sink::Disk {
                    out,
                    destination,
                    filename,
                    path,
                    written: 0,
                })
            }
        }
    }
}

impl std::fmt::Debug for Storage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.0 {
            Kind::Memory => "Storage::memory()",
            Kind::Disk(_) => "Storage::disk(..)",
        })
    }
}

/// Node's error for a write stream that cannot open its file
/// (`ENOENT: no such file or directory, open '…'`), with its `code`.
fn open_error(e: &std::io::Error, path: &Path) -> Error {
    use std::io::ErrorKind as K;
    let (code, text) = match e.kind() {
        K::NotFound => ("ENOENT", "no such file or directory"),
        K::NotADirectory => ("ENOTDIR", "not a directory"),
        K::PermissionDenied => ("EACCES", "permission denied"),
        K::IsADirectory => ("EISDIR", "illegal operation on a directory"),
        K::InvalidFilename => ("ENAMETOOLONG", "name too long"),
        _ => return Error::new(e.to_string()),
    };
    Error::new(format!("{code}: {text}, open '{}'", path.display())).with_code(code)
}

/// multer's default file name: 16 random bytes in hex, no extension.
fn random_name() -> Result<String, Error> {
    let mut raw = [0u8; 16];
    getrandom::getrandom(&mut raw).map_err(|e| Error::new(e.to_string()))?;
    Ok(raw.iter().map(|b| format!("{b:02x}")).collect())
}

#[derive(Clone)]
enum Destination {
    Temp,
    Dir(PathBuf),
    Fn(Arc<PathFn>),
}

/// Options of disk storage: the folder (`destination`, the system's
/// temporary folder by default) and the file's name in it (`filename`,
/// 32 random hex digits by default, as multer names them).
///
/// ```
/// use webfw::multer::DiskStorage;
/// let disk = DiskStorage::new()
///     .destination(std::env::temp_dir().join("uploads"))
///     .filename(|_req, file| Ok(format!("upload-{}", file.originalname.len())));
/// ```
#[derive(Clone)]
pub struct DiskStorage {
    destination: Destination,
    filename: Option<Arc<NameFn>>,
}

impl Default for DiskStorage {
    fn default() -> Self {
        DiskStorage {
            destination: Destination::Temp,
            filename: None,
        }
    }
}

impl DiskStorage {
    /// Files in the system's temporary folder, with random names.
    ///
    /// ```
    /// let disk = webfw::multer::DiskStorage::new();
    /// ```
    pub fn new() -> DiskStorage {
        DiskStorage::default()
    }

    /// `destination: 'dir'`: the folder, created now (with its parents)
    /// as multer creates it; if that fails, each upload fails with the
    /// error of writing there.
    ///
    /// ```
    /// let disk = webfw::multer::DiskStorage::new().destination(std::env::temp_dir());
    /// ```
    pub fn destination(mut self, dir: impl AsRef<Path>) -> DiskStorage {
        let dir = dir.as_ref().to_path_buf();
        let _ = std::fs::create_dir_all(&dir);
        self.destination = Destination::Dir(dir);
        self
    }

    /// `destination: (req, file, cb) => …`: the folder for each file
    /// (which must exist).
    ///
    /// ```
    /// let disk = webfw::multer::DiskStorage::new()
    ///     .destination_fn(|_req, file| Ok(std::env::temp_dir().join(&file.fieldname)));
    /// ```
    pub fn destination_fn(
        mut self,
        f: impl Fn(&Request, &File) -> Result<PathBuf, Error> + Send + Sync + 'static,
    ) -> DiskStorage {
        self.destination = Destination::Fn(Arc::new(f));
        self
    }

    /// `filename: (req, file, cb) => …`: the file's name in its folder.
    ///
    /// ```
    /// let disk = webfw::multer::DiskStorage::new().filename(|_req, f| Ok(f.fieldname.clone()));
    /// ```
    pub fn filename(
        mut self,
        f: impl Fn(&Request, &File) -> Result<String, Error> + Send + Sync + 'static,
    ) -> DiskStorage {
        self.filename = Some(Arc::new(f));
        self
    }
}

/// A file being stored.
pub(crate) enum Sink {
    Memory(Vec<u8>),
    Disk {
        out: tokio::fs::File,
        destination: PathBuf,
        filename: String,
        path: PathBuf,
        written: u64,
    },
}

impl Sink {
    pub(crate) async fn write(&mut self, data: &Bytes) -> Result<(), Error> {
        match self {
            Sink::Memory(buf) => buf.extend_from_slice(data),
            Sink::Disk { out, written, .. } => {
                out.write_all(data).await?;
                *written += data.len() as u64;
            }
        }
        Ok(())
    }

    /// The file is complete: what storage adds to it.
    pub(crate) async fn finish(self, file: &mut File) -> Result<(), Error> {
        match self {
            Sink::Memory(buf) => {
                file.size = buf.len() as u64;
                file.buffer = Some(Bytes::from(buf));
            }
            Sink::Disk {
                mut out,
                destination,
                filename,
                path,
                written,
            } => {
                out.flush().await?;
                drop(out);
                file.size = written;
                file.destination = Some(destination);
                file.filename = Some(filename);
                file.path = Some(path);
            }
        }
        Ok(())
    }

    /// The upload failed: the partial file goes.
    pub(crate) async fn discard(self) {
        if let Sink::Disk { out, path, .. } = self {
            drop(out);
            let _ = tokio::fs::remove_file(path).await;
        }
    }
}

/// Removes a stored file after the upload failed (`_removeFile`).
pub(crate) async fn remove(file: &File) {
    if let Some(p) = &file.path {
        let _ = tokio::fs::remove_file(p).await;
    }
}
