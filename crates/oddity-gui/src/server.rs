//! The listening socket and its connections: HTTP/1.1 served by hyper,
//! with a deadline for every request head (a client that sends nothing, or
//! a head byte by byte, or sits idle between requests, is dropped) and for
//! every request but the event stream.
//!
//! Connections are never kept waiting to be accepted while others sit
//! idle: at the cap ([`connection_cap`]), the oldest idle connection is
//! closed to make room for the next (idle: no request in flight, so a
//! page's event stream and a request being answered are never cut). Only
//! while every open connection has a request in flight do new ones wait
//! unaccepted. Connections never outnumber the cap, so the process never
//! runs out of file handles.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::Request;
use http_body::Frame;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::Notify;

/// Connections kept open at the same time when file handles allow.
pub const MAX_CONNECTIONS: usize = 256;
/// File handles left for everything but connections (engine pipes, the
/// listener, logs) when the cap is taken from the process's limit.
const FILES_KEPT: u64 = 64;
/// The longest wait for a complete request head (also the longest a
/// connection may sit idle between requests).
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(5);
/// The longest a request may take, its body included (the event stream
/// excepted).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// How long connections get to finish when the server stops.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

fn builder() -> hyper::server::conn::http1::Builder {
    let mut b = hyper::server::conn::http1::Builder::new();
    b.timer(TokioTimer::new())
        .header_read_timeout(HEAD_TIMEOUT)
        .max_buf_size(64 * 1024);
    b
}

/// Connections open at the same time: [`MAX_CONNECTIONS`], or fewer when
/// the process may open few files (`ulimit -n`), keeping some handles
/// for the rest.
pub fn connection_cap() -> usize {
    let cap = match file_limit() {
        Some(files) => files.saturating_sub(FILES_KEPT).min(MAX_CONNECTIONS as u64) as usize,
        None => MAX_CONNECTIONS,
    };
    cap.max(8)
}

/// The process's limit on open files, when there is one.
#[cfg(unix)]
fn file_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the struct it is given.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    // rlim_t is u64 on most systems, not on all.
    #[allow(clippy::unnecessary_cast)]
    let files = limit.rlim_cur as u64;
    (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(files)
}

#[cfg(not(unix))]
fn file_limit() -> Option<u64> {
    None
}

/// Serves one connection until the client or the server closes it.
pub async fn serve_connection<I>(io: I, router: Router)
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let service = TowerToHyperService::new(router);
    if let Err(e) = builder().serve_connection(TokioIo::new(io), service).await {
        log::debug!("connection ended: {e}");
    }
}

/// One open connection.
#[derive(Default)]
struct Connection {
    /// Requests whose answers are not yet wholly sent.
    in_flight: AtomicUsize,
    /// Set (and `close` told) when the connection is to be closed to make
    /// room; it counts as open until its task has closed it.
    closing: AtomicBool,
    close: Notify,
}

/// The open connections, oldest first.
#[derive(Default)]
struct Connections {
    open: Mutex<BTreeMap<u64, Arc<Connection>>>,
    next_id: AtomicU64,
    /// Told when a connection closes or goes idle.
    changed: Notify,
}

impl Connections {
    fn lock(&self) -> MutexGuard<'_, BTreeMap<u64, Arc<Connection>>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn add(&self) -> (u64, Arc<Connection>) {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let connection = Arc::new(Connection::default());
        self.lock().insert(id, connection.clone());
        (id, connection)
    }

    fn remove(&self, id: u64) {
        self.lock().remove(&id);
        self.changed.notify_one();
    }

    fn len(&self) -> usize {
        self.lock().len()
    }

    /// Closes the oldest connection with no request in flight, unless one
    /// is being closed already.
    fn close_oldest_idle(&self) {
        let open = self.lock();
        if open.values().any(|c| c.closing.load(Ordering::Acquire)) {
            return;
        }
        if let Some(idle) = open
            .values()
            .find(|c| c.in_flight.load(Ordering::Acquire) == 0)
        {
            idle.closing.store(true, Ordering::Release);
            idle.close.notify_one();
        }
    }
}

/// Marks a request of a connection in flight until dropped with the
/// request's answer, once that is wholly sent (or abandoned).
struct InFlight {
    connection: Arc<Connection>,
    connections: Arc<Connections>,
}

impl InFlight {
    fn new(connection: Arc<Connection>, connections: Arc<Connections>) -> InFlight {
        connection.in_flight.fetch_add(1, Ordering::AcqRel);
        InFlight {
            connection,
            connections,
        }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if self.connection.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.connections.changed.notify_one();
        }
    }
}

/// An answer's body that keeps its request in flight while it is sent.
struct Tracked {
    body: Body,
    _in_flight: InFlight,
}

impl http_body::Body for Tracked {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

/// Serves `stream` until it ends, the server stops, or it is closed to
/// make room while idle.
fn spawn_connection(
    stream: tokio::net::TcpStream,
    router: &Router,
    connections: &Arc<Connections>,
    graceful: &GracefulShutdown,
) {
    let (id, connection) = connections.add();
    let service = {
        let router = TowerToHyperService::new(router.clone());
        let connection = connection.clone();
        let connections = connections.clone();
        hyper::service::service_fn(move |request: Request<Incoming>| {
            let in_flight = InFlight::new(connection.clone(), connections.clone());
            let answer = hyper::service::Service::call(&router, request);
            async move {
                let response = answer.await?;
                Ok::<_, Infallible>(response.map(|body| Tracked {
                    body,
                    _in_flight: in_flight,
                }))
            }
        })
    };
    let serving = graceful.watch(builder().serve_connection(TokioIo::new(stream), service));
    let connections = connections.clone();
    tokio::spawn(async move {
        tokio::select! {
            ended = serving => if let Err(e) = ended {
                log::debug!("connection ended: {e}");
            },
            () = connection.close.notified() => log::debug!("closed an idle connection to make room"),
        }
        connections.remove(id);
    });
}

/// Accepts connections until `stop` completes, then gives the open ones a
/// moment to finish.
pub async fn serve(listener: TcpListener, router: Router, stop: impl Future<Output = ()>) {
    let cap = connection_cap();
    let connections = Arc::new(Connections::default());
    let graceful = GracefulShutdown::new();
    tokio::pin!(stop);
    'accept: loop {
        // At the cap: close the oldest idle connection (or, when every one
        // has a request in flight, wait for one to go idle) and accept
        // once it has gone.
        while connections.len() >= cap {
            connections.close_oldest_idle();
            tokio::select! {
                () = connections.changed.notified() => {}
                () = &mut stop => break 'accept,
            }
        }
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of file handles (or a connection reset before it
                    // was taken): make room, and try again shortly.
                    log::warn!("cannot accept a connection: {e}");
                    connections.close_oldest_idle();
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        spawn_connection(stream, &router, &connections, &graceful);
    }
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await;
}
