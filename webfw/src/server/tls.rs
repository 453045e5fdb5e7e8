//! HTTPS through rustls (feature `tls`): the certificate and key a
//! listener serves with. The handshake is the connection's
//! ([`Conn::serve_tls`](super::conn::Conn::serve_tls)).

use std::io;
use std::path::Path;
use std::sync::Arc;

use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::pki_types::pem::{self, PemObject};
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// A certificate chain and private key for HTTPS.
///
/// Needs the `tls` feature.
///
/// ```no_run
/// let tls = webfw::TlsConfig::from_pem_files("cert.pem", "key.pem").unwrap();
/// ```
#[derive(Clone)]
pub struct TlsConfig {
    config: Arc<ServerConfig>,
}

impl std::fmt::Debug for TlsConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TlsConfig")
    }
}

impl TlsConfig {
    /// From PEM text: the certificate chain and the private key.
    ///
    /// # Errors
    /// When the PEM holds no certificate or key, or rustls rejects them.
    ///
    /// ```no_run
    /// let tls = webfw::TlsConfig::from_pem(b"-----BEGIN CERTIFICATE-----...", b"-----BEGIN PRIVATE KEY-----...");
    /// ```
    pub fn from_pem(cert_pem: &[u8], key_pem: &[u8]) -> io::Result<TlsConfig> {
        let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(cert_pem)
            .collect::<Result<_, _>>()
            .map_err(pem_error)?;
        if certs.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "no certificate found in the PEM data: expected a -----BEGIN CERTIFICATE----- block",
            ));
        }
        let key = PrivateKeyDer::from_pem_slice(key_pem).map_err(|e| match e {
            pem::Error::NoItemsFound => io::Error::new(
                io::ErrorKind::InvalidInput,
                "no private key found in the PEM data: expected a PRIVATE KEY block",
            ),
            e => pem_error(e),
        })?;
        let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
        let mut config = ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(io::Error::other)?
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .map_err(io::Error::other)?;
        config.alpn_protocols = ALPN.iter().map(|p| p.to_vec()).collect();
        Ok(TlsConfig::from_server_config(Arc::new(config)))
    }

    /// From a rustls [`ServerConfig`] built by hand: client certificates
    /// (mTLS), several certificates chosen by SNI, a resolver that reloads
    /// them, other protocol versions or cipher suites. Its ALPN list is kept
    /// as it is: include `h2` for HTTP/2 over TLS (the PEM constructors offer
    /// `h2` and `http/1.1`; only `http/1.1` without the `http2` feature,
    /// which answers a client that chose `h2` with a 400).
    /// [`webfw::rustls`](crate::rustls) is the rustls version webfw is built
    /// with.
    ///
    /// ```no_run
    /// use std::sync::Arc;
    /// use webfw::rustls::{self, ServerConfig, pki_types::{CertificateDer, PrivateKeyDer, pem::PemObject}};
    ///
    /// let certs = CertificateDer::pem_file_iter("cert.pem").unwrap().collect::<Result<Vec<_>, _>>().unwrap();
    /// let key = PrivateKeyDer::from_pem_file("key.pem").unwrap();
    /// let provider = Arc::new(rustls::crypto::ring::default_provider());
    /// let mut config = ServerConfig::builder_with_provider(provider)
    ///     .with_safe_default_protocol_versions()
    ///     .unwrap()
    ///     .with_no_client_auth()
    ///     .with_single_cert(certs, key)
    ///     .unwrap();
    /// config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    /// let tls = webfw::TlsConfig::from_server_config(Arc::new(config));
    /// let opts = webfw::ListenOptions::port(8443).tls(tls);
    /// ```
    pub fn from_server_config(config: Arc<ServerConfig>) -> TlsConfig {
        TlsConfig { config }
    }

    /// From two PEM files.
    ///
    /// # Errors
    /// When a file cannot be read or holds no usable certificate or key.
    ///
    /// ```no_run
    /// let tls = webfw::TlsConfig::from_pem_files("cert.pem", "key.pem").unwrap();
    /// ```
    pub fn from_pem_files(cert: impl AsRef<Path>, key: impl AsRef<Path>) -> io::Result<TlsConfig> {
        TlsConfig::from_pem(&std::fs::read(cert)?, &std::fs::read(key)?)
    }

    pub(crate) fn acceptor(&self) -> TlsAcceptor {
        TlsAcceptor::from(self.config.clone())
    }
}

/// The protocols the PEM constructors offer through ALPN.
#[cfg(feature = "http2")]
const ALPN: &[&[u8]] = &[b"h2", b"http/1.1"];
#[cfg(not(feature = "http2"))]
const ALPN: &[&[u8]] = &[b"http/1.1"];

fn pem_error(e: pem::Error) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, format!("bad PEM data: {e}"))
}

impl From<Arc<ServerConfig>> for TlsConfig {
    /// Same as [`TlsConfig::from_server_config`].
    ///
    /// ```no_run
    /// # fn config() -> std::sync::Arc<webfw::rustls::ServerConfig> { unimplemented!() }
    /// let tls: webfw::TlsConfig = config().into();
    /// ```
    fn from(config: Arc<ServerConfig>) -> TlsConfig {
        TlsConfig::from_server_config(config)
    }
}
