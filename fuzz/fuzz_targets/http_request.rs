//! The GUI's HTTP server on any bytes sent over one connection: it never
//! panics or hangs, and answers in HTTP/1.x or closes the connection; an
//! error it answers in JSON is one line with no character that breaks or
//! hides text (what it quotes of the request is escaped). Every input gets
//! a fresh session with no engines.
#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use oddity_gui::engines::Shared;
use oddity_gui::http::{App, router};
use oddity_gui::server::serve_connection;
use oddity_rules::internals::is_one_line;
use oddity_session::PageSession;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const AUTHORITY: &str = "127.0.0.1:8080";

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
    })
}

fuzz_target!(|data: &[u8]| {
    let shared = Arc::new(Shared::new(PageSession::new(&[])));
    // A stopped server: the event stream ends at once instead of waiting.
    shared.stop();
    let app = Arc::new(App {
        shared,
        authorities: vec![AUTHORITY.to_string(), "localhost:8080".to_string()],
    });
    let answer = runtime().block_on(async move {
        let (client, server) = tokio::io::duplex(1 << 16);
        let served = tokio::spawn(serve_connection(server, router(app)));
        let (mut from_server, mut to_server) = tokio::io::split(client);
        let request = data.to_vec();
        let mut answer = Vec::new();
        let send = async {
            let _ = to_server.write_all(&request).await;
            let _ = to_server.shutdown().await;
        };
        let receive = from_server.read_to_end(&mut answer);
        let exchange = async {
            let ((), received) = tokio::join!(send, receive);
            received
        };
        let _ = tokio::time::timeout(std::time::Duration::from_secs(60), exchange)
            .await
            .expect("the server answers or closes in time");
        served.await.expect("the connection task ends");
        answer
    });
    assert!(
        answer.is_empty() || answer.starts_with(b"HTTP/1.1 ") || answer.starts_with(b"HTTP/1.0 "),
        "{:?}",
        String::from_utf8_lossy(&answer[..answer.len().min(200)])
    );
    // Each answer's body that is a JSON error (answers are kept alive, so
    // several may follow one another).
    let text = String::from_utf8_lossy(&answer);
    for body in text.split("\r\n\r\n").skip(1) {
        let Some(json) = body.split("HTTP/1.").next() else {
            continue;
        };
        if let Ok(serde_json::Value::Object(o)) = serde_json::from_str(json.trim())
            && let Some(error) = o.get("error")
        {
            assert!(error.as_str().is_some_and(is_one_line), "{json}");
        }
    }
});
