//! The listening socket and its connections: HTTP/1.1 served by hyper,
//! with a deadline for every request head (a client that sends nothing, or
//! a head byte by byte, or sits idle between requests, is dropped), a
//! deadline for every request but the event stream, and at most
//! [`MAX_CONNECTIONS`] connections at a time. Past the cap, new connections
//! wait unaccepted until one closes, so the process never runs out of
//! file handles.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// Connections served at the same time.
pub const MAX_CONNECTIONS: usize = 128;
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

/// Accepts connections until `stop` completes, then gives the open ones a
/// moment to finish.
pub async fn serve(listener: TcpListener, router: Router, stop: impl Future<Output = ()>) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let graceful = GracefulShutdown::new();
    tokio::pin!(stop);
    loop {
        let permit = tokio::select! {
            permit = slots.clone().acquire_owned() => match permit {
                Ok(p) => p,
                Err(_) => break,
            },
            () = &mut stop => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of file handles, or a connection reset before it
                    // was taken: try again shortly.
                    log::warn!("cannot accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let service = TowerToHyperService::new(router.clone());
        let connection = graceful.watch(builder().serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                log::debug!("connection ended: {e}");
            }
            drop(permit);
        });
    }
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await;
}
