//! Starting `oddity gui` on a free port and talking plain HTTP/1.1 to it,
//! with timeouts so that a bug can never hang the test suite. Shared by
//! the `gui_*` tests.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_oddity")
}

/// A fast, repeatable engine for tests.
pub const FAST_ENGINE: &str = "e=oddity gtp --threads 1 --visits 300 --seed 3";

pub struct Gui {
    child: Child,
    /// `127.0.0.1:PORT`
    pub authority: String,
    pub url: String,
}

impl Gui {
    /// Starts the GUI with `args` (e.g. `--engine ...`) on a free port.
    pub fn start(args: &[&str]) -> Gui {
        let mut command = Command::new(binary());
        command.arg("gui").args(args);
        Gui::spawn(command)
    }

    /// As [`Gui::start`], with at most `files` open file handles.
    #[cfg(unix)]
    pub fn start_with_file_limit(files: u32, args: &[&str]) -> Gui {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(format!("ulimit -n {files} && exec \"$0\" gui \"$@\""))
            .arg(binary())
            .args(args);
        Gui::spawn(command)
    }

    fn spawn(mut command: Command) -> Gui {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("starting oddity gui");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .expect("reading the URL line");
        let url = first
            .trim()
            .strip_prefix("oddity gui: open ")
            .unwrap_or_else(|| panic!("no URL in {first:?}"))
            .to_string();
        let authority = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        Gui {
            child,
            authority,
            url,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one request; returns the status and the body.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.authority).expect("connecting");
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
        let has_host = headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host"));
        if !has_host {
            head.push_str(&format!("Host: {}\r\n", self.authority));
        }
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        stream.write_all(head.as_bytes()).unwrap();
        // The server may answer and close before reading a too-large body.
        let _ = stream.write_all(body);
        let mut raw = Vec::new();
        let _ = stream.read_to_end(&mut raw);
        let text = String::from_utf8_lossy(&raw).into_owned();
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no HTTP status in {text:?}"));
        let (headers_text, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let body = if headers_text
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            unchunk(body)
        } else {
            body.to_string()
        };
        (status, body)
    }

    /// Sends `raw` as it is on a new connection; returns the status line
    /// and the body of the answer ("" when the server closed without one).
    pub fn raw(&self, raw: &[u8]) -> (String, String) {
        let mut stream = TcpStream::connect(&self.authority).expect("connecting");
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let _ = stream.write_all(raw);
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let text = String::from_utf8_lossy(&answer).into_owned();
        let status = text.lines().next().unwrap_or("").to_string();
        let body = text
            .split_once("\r\n\r\n")
            .map_or("", |(_, b)| b)
            .to_string();
        (status, body)
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        self.request("GET", path, &[], b"")
    }

    pub fn post(&self, path: &str, json: &str) -> (u16, String) {
        self.request(
            "POST",
            path,
            &[("Content-Type", "application/json")],
            json.as_bytes(),
        )
    }

    pub fn state(&self) -> serde_json::Value {
        let (status, body) = self.get("/api/state");
        assert_eq!(status, 200, "{body}");
        serde_json::from_str(&body).expect("state is JSON")
    }

    /// Polls the state until `done` holds (panics after `limit`).
    pub fn wait_for(
        &self,
        limit: Duration,
        what: &str,
        done: impl Fn(&serde_json::Value) -> bool,
    ) -> serde_json::Value {
        let start = Instant::now();
        loop {
            let s = self.state();
            if done(&s) {
                return s;
            }
            assert!(start.elapsed() < limit, "timed out waiting for {what}: {s}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

fn unchunk(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, after)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || after.len() < n {
            break;
        }
        out.push_str(&after[..n]);
        rest = after[n..].trim_start_matches("\r\n");
    }
    out
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
