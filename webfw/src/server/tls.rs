//! HTTPS through rustls.

use std::io;
use std::path::Path;
use std::sync::Arc;

use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// A certificate chain and private key for HTTPS.
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
        let certs: Vec<CertificateDer<'static>> =
            rustls_pemfile::certs(&mut &cert_pem[..]).collect::<Result<_, _>>()?;
        if certs.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "no certificate found in the PEM data: expected a -----BEGIN CERTIFICATE----- block",
            ));
        }
        let key: PrivateKeyDer<'static> = rustls_pemfile::private_key(&mut &key_pem[..])?
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "no private key found in the PEM data: expected a PRIVATE KEY block",
                )
            })?;
        let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
        let mut config = ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(io::Error::other)?
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .map_err(io::Error::other)?;
        config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        Ok(TlsConfig {
            config: Arc::new(config),
        })
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
