//! HTTPS with a rustls `ServerConfig` built by the user: client
//! certificates (mTLS) through `TlsConfig::from_server_config`.

use crate::common;

use std::sync::Arc;

use common::{guard, request};
use rcgen::{BasicConstraints, CertificateParams, IsCa, KeyPair};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use webfw::prelude::*;
use webfw::rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer, ServerName};
use webfw::rustls::server::WebPkiClientVerifier;
use webfw::rustls::{self, ClientConfig, RootCertStore, ServerConfig};
use webfw::{ListenOptions, TlsConfig};

/// A CA, a server certificate for `localhost` and a client certificate,
/// both signed by the CA.
struct Pki {
    ca: rcgen::Certificate,
    server: (rcgen::Certificate, KeyPair),
    client: (rcgen::Certificate, KeyPair),
}

fn pki() -> Pki {
    let ca_key = KeyPair::generate().unwrap();
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let leaf = |name: &str| {
        let key = KeyPair::generate().unwrap();
        let cert = CertificateParams::new(vec![name.to_string()])
            .unwrap()
            .signed_by(&key, &ca, &ca_key)
            .unwrap();
        (cert, key)
    };
    Pki {
        server: leaf("localhost"),
        client: leaf("client"),
        ca,
    }
}

fn key_der(key: &KeyPair) -> PrivateKeyDer<'static> {
    PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der()))
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

fn roots(pki: &Pki) -> Arc<RootCertStore> {
    let mut roots = RootCertStore::empty();
    roots.add(pki.ca.der().clone()).unwrap();
    Arc::new(roots)
}

/// A server that requires a client certificate signed by the CA.
fn mtls_server(pki: &Pki) -> TlsConfig {
    let verifier = WebPkiClientVerifier::builder_with_provider(roots(pki), provider())
        .build()
        .unwrap();
    let config = ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_client_cert_verifier(verifier)
        .with_single_cert(vec![pki.server.0.der().clone()], key_der(&pki.server.1))
        .unwrap();
    TlsConfig::from_server_config(Arc::new(config))
}

fn client(pki: &Pki, with_cert: bool) -> tokio_rustls::TlsConnector {
    let builder = ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots(pki));
    let config = if with_cert {
        builder
            .with_client_auth_cert(vec![pki.client.0.der().clone()], key_der(&pki.client.1))
            .unwrap()
    } else {
        builder.with_no_client_auth()
    };
    tokio_rustls::TlsConnector::from(Arc::new(config))
}

async fn serve(tls: TlsConfig) -> (webfw::Server, std::net::SocketAddr) {
    let mut app = webfw::app();
    app.get("/", |req: &mut Request, res: &mut Response| {
        let line = format!("{} {}", req.protocol(), req.secure());
        res.send(line)
    });
    let server = app
        .bind(ListenOptions::port(0).host("127.0.0.1").tls(tls))
        .await
        .unwrap();
    let addr = server.local_addr().unwrap();
    (server, addr)
}

/// Sends a GET over TLS and returns what came back, or the I/O error that
/// ended the exchange (a rejected client certificate surfaces there).
async fn get(
    connector: &tokio_rustls::TlsConnector,
    addr: std::net::SocketAddr,
) -> std::io::Result<Vec<u8>> {
    let tcp = tokio::net::TcpStream::connect(addr).await?;
    let name = ServerName::try_from("localhost").unwrap();
    let mut stream = connector.connect(name, tcp).await?;
    stream.write_all(&request("GET", "/", &[])).await?;
    let mut out = Vec::new();
    stream.read_to_end(&mut out).await?;
    Ok(out)
}

#[tokio::test]
async fn a_server_config_of_the_users_own_requires_client_certificates() {
    let pki = pki();
    let (_server, addr) = serve(mtls_server(&pki)).await;

    let raw = guard("mTLS request", get(&client(&pki, true), addr))
        .await
        .expect("a client with a CA-signed certificate is served");
    let res = common::parse_response(&raw, false);
    assert_eq!(res.status, 200);
    assert_eq!(res.text(), "https true");

    let refused = guard(
        "request without a certificate",
        get(&client(&pki, false), addr),
    )
    .await;
    let err = refused.expect_err("a client without a certificate is refused");
    assert!(
        err.to_string().contains("CertificateRequired"),
        "rustls names the missing certificate: {err}"
    );
}

#[test]
fn pem_without_a_private_key_says_what_block_it_wants() {
    let pki = pki();
    let err = TlsConfig::from_pem(pki.server.0.pem().as_bytes(), b"").unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    assert!(err.to_string().contains("PRIVATE KEY"), "{err}");
}
