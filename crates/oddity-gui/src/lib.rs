//! `oddity gui`: a web page that plays the four games against engine
//! processes spoken to over GTP, shows their analysis live, and keeps
//! records. A layer over the rules and over engine processes: it never
//! calls the search itself.
//!
//! The game itself, its checks, what the page draws and the page's
//! requests are the session crate's (`oddity-session`, which the static
//! page runs in the tab too). Parts here: `engines` (the thread that drives
//! the engine processes), `info` (the analysis lines engines stream, read
//! into the session's candidates), `http` (the page, the JSON API and the event
//! stream, with their guards), `server` (connections, with their deadlines
//! and cap).

pub mod engines;
pub mod http;
pub mod info;
pub mod server;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use engines::Shared;
use oddity_client::EngineSpec;
use oddity_session::PageSession;

pub struct Config {
    pub engines: Vec<EngineSpec>,
    pub host: IpAddr,
    /// 0: any free port.
    pub port: u16,
    /// Start the system's browser on the page.
    pub open: bool,
}

/// The `host:port` spellings a browser may use for this server.
fn authorities(addr: SocketAddr) -> Vec<String> {
    let port = addr.port();
    let mut names = vec![match addr.ip() {
        IpAddr::V4(ip) => format!("{ip}:{port}"),
        IpAddr::V6(ip) => format!("[{ip}]:{port}"),
    }];
    if addr.ip().is_loopback() {
        names.push(format!("localhost:{port}"));
    }
    names
}

/// Why the GUI server cannot start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("no engine: give at least one --engine NAME=COMMAND")]
    NoEngine,
    #[error(
        "--host {0} would answer on every address, but requests are only accepted for the \
         address they were sent to: give the one browsers will use (e.g. 192.168.1.5)"
    )]
    AnyAddress(IpAddr),
    #[error("cannot start the server: {0}")]
    Runtime(#[source] std::io::Error),
    #[error("cannot listen on {host}:{port}: {source}")]
    Listen {
        host: IpAddr,
        port: u16,
        source: std::io::Error,
    },
    #[error("cannot listen: {0}")]
    Address(#[source] std::io::Error),
    #[error("cannot start the engine thread: {0}")]
    EngineThread(#[source] std::io::Error),
}

/// Serves until interrupted (Ctrl-C); then quits the engines.
pub fn serve(config: Config) -> Result<(), ServeError> {
    if config.engines.is_empty() {
        return Err(ServeError::NoEngine);
    }
    if config.host.is_unspecified() {
        return Err(ServeError::AnyAddress(config.host));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind((config.host, config.port))
            .await
            .map_err(|source| ServeError::Listen {
                host: config.host,
                port: config.port,
                source,
            })?;
        let addr = listener.local_addr().map_err(ServeError::Address)?;
        if !config.host.is_loopback() {
            eprintln!(
                "WARNING: oddity gui listens on {addr}, which is NOT loopback: anyone who can \
                 reach this address can play, start engine searches and read the game. \
                 There is no password. Use --host 127.0.0.1 unless you mean it."
            );
        }
        let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
        let shared = Arc::new(Shared::new(PageSession::new(&names)));
        let driver = {
            let shared = shared.clone();
            let specs = config.engines.clone();
            std::thread::Builder::new()
                .name("engines".into())
                .spawn(move || engines::drive(shared, specs))
                .map_err(ServeError::EngineThread)?
        };
        let app = Arc::new(http::App {
            shared: shared.clone(),
            authorities: authorities(addr),
        });
        let url = format!("http://{}/", authorities(addr)[0]);
        println!("oddity gui: open {url}");
        for e in &config.engines {
            eprintln!("engine {}: {}", e.name, e.command_line());
        }
        if config.open {
            open_browser(&url);
        }
        server::serve(listener, http::router(app), {
            let shared = shared.clone();
            async move {
                let _ = tokio::signal::ctrl_c().await;
                eprintln!("oddity gui: stopping");
                // Ends the pages' event streams, so the server can stop.
                shared.stop();
            }
        })
        .await;
        shared.stop();
        let _ = driver.join();
        Ok(())
    })
}

fn open_browser(url: &str) {
    if let Err(e) = opener::open_browser(url) {
        eprintln!("cannot start a browser ({e}); open {url} yourself");
    }
}
