//! The soak and fault suite: run `soak/run` (it raises the descriptor limit
//! and builds in release). It starts `soak_server` on 127.0.0.1 and puts it
//! through connection churn, 2,000 idle connections, slowloris heads,
//! stalled and dripped bodies, clients that vanish mid-response, HTTP/2
//! clients that never read (many connections asking for large bodies at
//! once, and streams whose handler writes without waiting), and SIGTERM
//! under load; it prints one table row per phase (load held, faults
//! survived, the server's RSS high-water mark, requests lost) and exits
//! non-zero when a phase is past its bound.
//!
//! Environment: `SOAK_SERVER` (the server binary; default: `soak_server`
//! next to this one), `SOAK_PORT` (default 4190), `SOAK_CHURN_SECS`
//! (default 60).
use std::io::BufRead;
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Bounds the phases are held to.
const CHURN_HWM_MIB: u64 = 64;
const VANISH_GROWTH_MIB: u64 = 32;
/// 20 connections, each holding at most its 10 MiB session memory and the
/// 1 MiB body that crossed it, over what the earlier phases left.
const H2_BODIES_HWM_MIB: u64 = 64 + 20 * 11;
/// One connection's 10 MiB session memory and the 64 KiB chunk that
/// crossed it, and the streams' own state.
const H2_STREAMS_GROWTH_MIB: u64 = 10 + 16;
/// The server's deadlines (see `examples/soak_server.rs`) and the slack a
/// deadline checked every quarter period needs.
const HEADER_DEADLINE: Duration = Duration::from_millis(3000 * 5 / 4 + 1500);
const REQUEST_DEADLINE: Duration = HEADER_DEADLINE;
const KEEP_ALIVE_DEADLINE: Duration = Duration::from_millis(5000 * 5 / 4 + 1500);
const EXIT_DEADLINE: Duration = Duration::from_secs(5 + 3);

struct Row {
    phase: &'static str,
    load: String,
    faults: String,
    hwm_kib: u64,
    lost: String,
    pass: bool,
}

/// The server's current and high-water RSS, in KiB.
fn rss(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

/// Reads until the server closes; `None` if it does not within `limit`.
async fn read_until_close(stream: &mut TcpStream, limit: Duration) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0)) | Ok(Err(_)) => return Some(out),
            Ok(Ok(n)) => out.extend_from_slice(&buf[..n]),
        }
    }
}

const HELLO: &[u8] = b"GET / HTTP/1.1\r\nHost: soak\r\nConnection: close\r\n\r\n";

async fn churn(addr: SocketAddr, secs: u64, pid: u32) -> Row {
    let ok = Arc::new(AtomicU64::new(0));
    let failed = Arc::new(AtomicU64::new(0));
    let end = Instant::now() + Duration::from_secs(secs);
    let mut tasks = Vec::new();
    for _ in 0..4 {
        let (ok, failed) = (ok.clone(), failed.clone());
        tasks.push(tokio::spawn(async move {
            while Instant::now() < end {
                let good = async {
                    let mut s = TcpStream::connect(addr).await.ok()?;
                    s.write_all(HELLO).await.ok()?;
                    let body = read_until_close(&mut s, Duration::from_secs(10)).await?;
                    body.ends_with(b"hello").then_some(())
                };
                if good.await.is_some() {
                    ok.fetch_add(1, Ordering::Relaxed);
                } else {
                    failed.fetch_add(1, Ordering::Relaxed);
                }
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let (ok, failed) = (ok.load(Ordering::Relaxed), failed.load(Ordering::Relaxed));
    let (_, hwm) = rss(pid);
    Row {
        phase: "connection churn",
        load: format!("{ok} conns in {secs} s ({}/s)", ok / secs.max(1)),
        faults: format!("{failed} failed"),
        hwm_kib: hwm,
        lost: failed.to_string(),
        pass: failed == 0 && hwm <= CHURN_HWM_MIB * 1024,
    }
}

async fn idle(addr: SocketAddr, pid: u32) -> Row {
    const N: usize = 2000;
    let mut conns = Vec::with_capacity(N);
    let mut answered = 0;
    for _ in 0..N {
        let Ok(mut s) = TcpStream::connect(addr).await else {
            continue;
        };
        if s.write_all(b"GET / HTTP/1.1\r\nHost: soak\r\n\r\n")
            .await
            .is_err()
        {
            continue;
        }
        let mut buf = [0u8; 1024];
        let mut got = Vec::new();
        while !got.ends_with(b"hello") {
            match tokio::time::timeout(Duration::from_secs(5), s.read(&mut buf)).await {
                Ok(Ok(n)) if n > 0 => got.extend_from_slice(&buf[..n]),
                _ => break,
            }
        }
        if got.ends_with(b"hello") {
            answered += 1;
            conns.push(s);
        }
    }
    let (held_rss, _) = rss(pid);
    let closed = close_count(conns, KEEP_ALIVE_DEADLINE).await;
    let (_, hwm) = rss(pid);
    Row {
        phase: "2,000 idle keep-alive",
        load: format!("{answered}/{N} held (RSS {})", mib(held_rss)),
        faults: format!("{closed}/{answered} closed ≤ {:?}", KEEP_ALIVE_DEADLINE),
        hwm_kib: hwm,
        lost: (N - answered).to_string(),
        pass: answered == N && closed == answered,
    }
}

/// How many of `conns` the server closes within `limit`.
async fn close_count(conns: Vec<TcpStream>, limit: Duration) -> usize {
    let tasks: Vec<_> = conns
        .into_iter()
        .map(|mut s| tokio::spawn(async move { read_until_close(&mut s, limit).await.is_some() }))
        .collect();
    let mut closed = 0;
    for t in tasks {
        closed += usize::from(t.await.unwrap_or(false));
    }
    closed
}

/// Clients that send `first`, then one byte of `drip` every 500 ms: each
/// must be closed (with a 408) within `limit`.
async fn stalled(
    addr: SocketAddr,
    pid: u32,
    phase: &'static str,
    n: usize,
    first: &'static [u8],
    drip: bool,
    limit: Duration,
) -> Row {
    let tasks: Vec<_> = (0..n)
        .map(|_| {
            tokio::spawn(async move {
                let mut s = TcpStream::connect(addr).await.ok()?;
                s.write_all(first).await.ok()?;
                let (mut rd, mut wr) = s.into_split();
                let dripper = tokio::spawn(async move {
                    if drip {
                        loop {
                            tokio::time::sleep(Duration::from_millis(500)).await;
                            if wr.write_all(b"x").await.is_err() {
                                break;
                            }
                        }
                    }
                    std::future::pending::<()>().await;
                });
                let mut out = Vec::new();
                let read = tokio::time::timeout(limit, rd.read_to_end(&mut out)).await;
                dripper.abort();
                let closed = read.is_ok();
                Some((closed, out.starts_with(b"HTTP/1.1 408 ")))
            })
        })
        .collect();
    let (mut closed, mut with_408) = (0, 0);
    for t in tasks {
        if let Ok(Some((c, r))) = t.await {
            closed += usize::from(c);
            with_408 += usize::from(r);
        }
    }
    let (_, hwm) = rss(pid);
    Row {
        phase,
        load: format!("{n} clients"),
        faults: format!("{closed}/{n} closed ≤ {limit:?}, {with_408} got 408"),
        hwm_kib: hwm,
        lost: "-".into(),
        pass: closed == n,
    }
}

async fn vanish(addr: SocketAddr, pid: u32) -> Row {
    const N: usize = 20;
    let (before, _) = rss(pid);
    let mut left = 0;
    for _ in 0..N {
        let Ok(mut s) = TcpStream::connect(addr).await else {
            continue;
        };
        let _ = s
            .write_all(b"GET /stream HTTP/1.1\r\nHost: soak\r\n\r\n")
            .await;
        let mut buf = [0u8; 1024];
        if matches!(s.read(&mut buf).await, Ok(n) if n > 0) {
            left += 1;
        }
        drop(s);
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (after, hwm) = rss(pid);
    let growth = after.saturating_sub(before);
    Row {
        phase: "clients vanish mid-stream",
        load: format!("{left}/{N} left after the head, 3 s"),
        faults: format!("RSS {} → {}", mib(before), mib(after)),
        hwm_kib: hwm,
        lost: "-".into(),
        pass: left == N && growth <= VANISH_GROWTH_MIB * 1024,
    }
}

/// An HTTP/2 frame: its 9-byte header, then `payload`.
fn h2_frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let len = payload.len() as u32;
    let mut f = len.to_be_bytes()[1..].to_vec();
    f.extend_from_slice(&[kind, flags]);
    f.extend_from_slice(&stream.to_be_bytes());
    f.extend_from_slice(payload);
    f
}

/// What an HTTP/2 client that never reads sends: the preface with `window`
/// as every stream's initial window (and as the connection's when `window`
/// is larger than the default), then one HEADERS frame per GET of `path`.
fn h2_never_reading(path: &str, streams: u32, window: u32) -> (Vec<u8>, Vec<Vec<u8>>) {
    let mut preface = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
    let mut settings = 4u16.to_be_bytes().to_vec();
    settings.extend_from_slice(&window.to_be_bytes());
    preface.extend(h2_frame(0x4, 0, 0, &settings));
    if window > 65_535 {
        preface.extend(h2_frame(0x8, 0, 0, &(window - 65_535).to_be_bytes()));
    }
    // HPACK: GET and http from the static table; :authority and :path as
    // literals with indexed names, never indexed themselves.
    let mut block = vec![0x82, 0x86, 0x01, 4];
    block.extend_from_slice(b"soak");
    block.extend_from_slice(&[0x04, path.len() as u8]);
    block.extend_from_slice(path.as_bytes());
    // END_STREAM | END_HEADERS
    let streams = (0..streams)
        .map(|i| h2_frame(0x1, 0x5, 2 * i + 1, &block))
        .collect();
    (preface, streams)
}

/// Asks for `/` until the server answers (within `limit`): how long that
/// took.
async fn served_again(addr: SocketAddr, limit: Duration) -> Option<Duration> {
    let start = Instant::now();
    while start.elapsed() < limit {
        let answered = async {
            let mut s = TcpStream::connect(addr).await.ok()?;
            s.write_all(HELLO).await.ok()?;
            let body = read_until_close(&mut s, limit).await?;
            body.ends_with(b"hello").then_some(())
        };
        if answered.await.is_some() {
            return Some(start.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    None
}

/// What [`h2_hold`] saw.
struct Held {
    opened: usize,
    /// The server's RSS at the end of the hold, in KiB.
    rss: u64,
    /// How long after the connections closed `/` was answered again.
    again: Option<Duration>,
}

/// Opens `conns` HTTP/2 connections at once; each sends `preface`, then its
/// streams `pace` apart, and is held unread for `hold`, then closed.
async fn h2_hold(
    addr: SocketAddr,
    pid: u32,
    conns: usize,
    (preface, streams): (Vec<u8>, Vec<Vec<u8>>),
    pace: Duration,
    hold: Duration,
) -> Held {
    let (preface, streams) = (Arc::new(preface), Arc::new(streams));
    let opened: Vec<_> = (0..conns)
        .map(|_| {
            let (preface, streams) = (preface.clone(), streams.clone());
            tokio::spawn(async move {
                let mut s = TcpStream::connect(addr).await.ok()?;
                s.write_all(&preface).await.ok()?;
                if pace.is_zero() {
                    s.write_all(&streams.concat()).await.ok()?;
                } else {
                    for frame in streams.iter() {
                        tokio::time::sleep(pace).await;
                        s.write_all(frame).await.ok()?;
                    }
                }
                Some(s)
            })
        })
        .collect();
    let mut held = Vec::new();
    for t in opened {
        if let Ok(Some(s)) = t.await {
            held.push(s);
        }
    }
    tokio::time::sleep(hold).await;
    let (rss, _) = rss(pid);
    let opened = held.len();
    drop(held);
    Held {
        opened,
        rss,
        again: served_again(addr, Duration::from_secs(10)).await,
    }
}

/// The "faults survived" cell of an HTTP/2 phase.
fn h2_faults(before: u64, during: u64, again: Option<Duration>) -> String {
    let again = match again {
        Some(t) => format!("served again {:.1} s after", t.as_secs_f64()),
        None => "not served again within 10 s".into(),
    };
    format!("RSS {} → {}, {again}", mib(before), mib(during))
}

/// Issue #30, item 1: 20 HTTP/2 connections at once, each asking for 100
/// responses of 1 MiB (a stream every 5 ms) and never reading, with windows
/// wide open: every body is handed to the HTTP/2 layer at once, which holds
/// it once the socket's buffers are full.
async fn h2_bodies(addr: SocketAddr, pid: u32) -> Row {
    const CONNS: usize = 20;
    let (before, _) = rss(pid);
    let request = h2_never_reading("/big", 100, i32::MAX as u32);
    let pace = Duration::from_millis(5);
    let hold = Duration::from_secs(2);
    let Held {
        opened,
        rss: during,
        again,
    } = h2_hold(addr, pid, CONNS, request, pace, hold).await;
    let (_, hwm) = rss(pid);
    Row {
        phase: "HTTP/2 bodies never read",
        load: format!("{opened}/{CONNS} conns × 100 × 1 MiB"),
        faults: h2_faults(before, during, again),
        hwm_kib: hwm,
        lost: "-".into(),
        pass: opened == CONNS && again.is_some() && hwm <= H2_BODIES_HWM_MIB * 1024,
    }
}

/// Issue #30, item 2: one HTTP/2 connection of 100 streams whose handler
/// writes 64 KiB chunks without awaiting `drain` until a write fails, to a
/// client whose windows are closed.
async fn h2_streams(addr: SocketAddr, pid: u32) -> Row {
    let (before, _) = rss(pid);
    let request = h2_never_reading("/flood", 100, 0);
    let hold = Duration::from_secs(2);
    let Held {
        opened,
        rss: during,
        again,
    } = h2_hold(addr, pid, 1, request, Duration::ZERO, hold).await;
    let (_, hwm) = rss(pid);
    let growth = during.saturating_sub(before);
    Row {
        phase: "HTTP/2 streams never read",
        load: format!("{opened}/1 conn × 100 streams"),
        faults: h2_faults(before, during, again),
        hwm_kib: hwm,
        lost: "-".into(),
        pass: opened == 1 && again.is_some() && growth <= H2_STREAMS_GROWTH_MIB * 1024,
    }
}

async fn sigterm(addr: SocketAddr, server: &mut Child) -> Row {
    let pid = server.id();
    let received = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    for _ in 0..16 {
        let (received, stop) = (received.clone(), stop.clone());
        tasks.push(tokio::spawn(async move {
            'conns: while !stop.load(Ordering::Relaxed) {
                let Ok(mut s) = TcpStream::connect(addr).await else {
                    return;
                };
                loop {
                    if s.write_all(b"GET /slow HTTP/1.1\r\nHost: soak\r\n\r\n")
                        .await
                        .is_err()
                    {
                        continue 'conns;
                    }
                    let mut got = Vec::new();
                    let mut buf = [0u8; 1024];
                    while !got.ends_with(b"slow") {
                        match tokio::time::timeout(Duration::from_secs(10), s.read(&mut buf)).await
                        {
                            Ok(Ok(n)) if n > 0 => got.extend_from_slice(&buf[..n]),
                            _ => continue 'conns,
                        }
                    }
                    received.fetch_add(1, Ordering::Relaxed);
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                }
            }
        }));
    }
    // A client that never finishes its body holds the shutdown until its
    // deadline.
    let mut holder = TcpStream::connect(addr).await.ok();
    if let Some(h) = holder.as_mut() {
        let _ = h
            .write_all(b"POST /upload HTTP/1.1\r\nHost: soak\r\nContent-Length: 1000\r\n\r\nab")
            .await;
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let _ = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status();
    let signalled = Instant::now();
    let mut exited = None;
    while signalled.elapsed() < EXIT_DEADLINE {
        if let Ok(Some(_)) = server.try_wait() {
            exited = Some(signalled.elapsed());
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    stop.store(true, Ordering::Relaxed);
    if exited.is_none() {
        let _ = server.kill();
    }
    let _ = server.wait();
    for t in tasks {
        t.abort();
    }
    drop(holder);
    let received = received.load(Ordering::Relaxed);
    let mut out = String::new();
    if let Some(stdout) = server.stdout.take() {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(|l| l.ok())
        {
            out = line;
        }
    }
    // "slow started S answered A": every request a handler started must
    // have reached its client.
    let nums: Vec<u64> = out
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    let lost = match nums.as_slice() {
        [started, _] => Some(started.saturating_sub(received)),
        _ => None,
    };
    Row {
        phase: "SIGTERM under load",
        load: format!("16 clients, {received} answered"),
        faults: match exited {
            Some(t) => format!("exited {:.1} s after SIGTERM", t.as_secs_f64()),
            None => format!("still running {EXIT_DEADLINE:?} after SIGTERM (killed)"),
        },
        hwm_kib: 0,
        lost: lost.map_or("unknown".into(), |l| l.to_string()),
        pass: exited.is_some() && lost == Some(0),
    }
}

fn start_server(port: u16) -> std::io::Result<(Child, SocketAddr)> {
    let path = std::env::var_os("SOAK_SERVER").map_or_else(
        || {
            let me = std::env::current_exe().expect("own path");
            me.with_file_name("soak_server")
        },
        Into::into,
    );
    let mut child = Command::new(&path)
        .arg(port.to_string())
        .stdout(Stdio::piped())
        .spawn()?;
    let mut line = String::new();
    let stdout = child.stdout.take().expect("piped");
    let mut reader = std::io::BufReader::new(stdout);
    reader.read_line(&mut line)?;
    child.stdout = Some(reader.into_inner());
    let addr = line
        .trim()
        .strip_prefix("ready ")
        .and_then(|a| a.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("unexpected server output {line:?}")))?;
    Ok((child, addr))
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let port = std::env::var("SOAK_PORT")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(4190);
    let churn_secs = std::env::var("SOAK_CHURN_SECS")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(60);
    let (mut server, addr) = start_server(port)?;
    let pid = server.id();
    let mut rows = Vec::new();
    let started = Instant::now();
    rows.push(churn(addr, churn_secs, pid).await);
    rows.push(idle(addr, pid).await);
    rows.push(
        stalled(
            addr,
            pid,
            "slowloris heads",
            200,
            b"GET / HTTP/1.1\r\nHost: soak\r\n",
            true,
            HEADER_DEADLINE,
        )
        .await,
    );
    rows.push(
        stalled(
            addr,
            pid,
            "stalled bodies",
            200,
            b"POST /upload HTTP/1.1\r\nHost: soak\r\nContent-Length: 1000\r\n\r\n0123456789",
            false,
            REQUEST_DEADLINE,
        )
        .await,
    );
    rows.push(
        stalled(
            addr,
            pid,
            "dripped bodies",
            100,
            b"POST /upload HTTP/1.1\r\nHost: soak\r\nContent-Length: 100000\r\n\r\n",
            true,
            REQUEST_DEADLINE,
        )
        .await,
    );
    rows.push(vanish(addr, pid).await);
    // The streams first: their bound is on growth, which the bodies' memory,
    // given back slowly after their phase, would hide.
    rows.push(h2_streams(addr, pid).await);
    rows.push(h2_bodies(addr, pid).await);
    let (_, hwm) = rss(pid);
    let mut last = sigterm(addr, &mut server).await;
    last.hwm_kib = hwm;
    rows.push(last);

    println!(
        "| phase | load held | faults survived | RSS high-water | requests lost | within bounds |"
    );
    println!("|---|---|---|---|---|---|");
    for r in &rows {
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            r.phase,
            r.load,
            r.faults,
            mib(r.hwm_kib),
            r.lost,
            if r.pass { "yes" } else { "NO" }
        );
    }
    println!("total {:.0} s", started.elapsed().as_secs_f64());
    if rows.iter().all(|r| r.pass) {
        Ok(())
    } else {
        std::process::exit(1)
    }
}
