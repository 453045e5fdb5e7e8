//! The request timeout on HTTP/2: a stream whose body stalls gets its 408
//! alone, and the connection's other streams go on (on HTTP/1.1 the
//! connection is closed after the 408).

use crate::common;

use std::time::Duration;

use bytes::Bytes;
use common::{TestServer, async_handler, guard};
use tokio::net::TcpStream;
use webfw::ListenOptions;
use webfw::prelude::*;

#[tokio::test]
async fn a_stalled_http2_body_gets_408_on_its_stream_and_the_connection_goes_on() {
    let mut app = webfw::app();
    app.post(
        "/upload",
        async_handler(|req, res| {
            Box::pin(async move {
                let body = webfw::body::read_limited(req, 1 << 20).await?;
                res.send(format!("{} bytes", body.len()))
            })
        }),
    );
    app.get("/", |_: &mut Request, res: &mut Response| res.send("ok"));
    let srv = TestServer::start_with(
        app,
        ListenOptions::port(0).request_timeout(Duration::from_millis(300)),
    )
    .await;
    let tcp = TcpStream::connect(srv.addr).await.unwrap();
    let (client, connection) = guard("h2 handshake", h2::client::handshake(tcp))
        .await
        .unwrap();
    tokio::spawn(connection);
    let mut client = guard("h2 ready", client.ready()).await.unwrap();

    let post = http::Request::post("http://x/upload").body(()).unwrap();
    let (stalled, mut body) = client.send_request(post, false).unwrap();
    body.send_data(Bytes::from_static(b"0123456789"), false)
        .unwrap();
    let head = guard("the stalled stream's answer", stalled).await.unwrap();
    assert_eq!(head.status(), 408);

    let mut client = guard("h2 ready", client.ready()).await.unwrap();
    let get = http::Request::get("http://x/").body(()).unwrap();
    let (response, _) = client.send_request(get, true).unwrap();
    let head = guard("h2 response", response).await.unwrap();
    assert_eq!(head.status(), 200);
    let mut data = head.into_body();
    let chunk = guard("h2 data", data.data()).await.unwrap().unwrap();
    assert_eq!(&chunk[..], b"ok");
}
