//! Talking to the real `oddity` binary over pipes, with timeouts so that a
//! bug can never hang the test suite. Shared by the `gtp*` tests.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Generous: only guards against hangs, also on a busy machine.
pub const TIMEOUT: Duration = Duration::from_secs(300);

pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_oddity")
}

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Vec<u8>>,
    buf: Vec<u8>,
    closed: bool,
}

impl Engine {
    /// Starts `oddity` with `args` (fast settings are added first).
    pub fn start(args: &[&str]) -> Engine {
        let mut all = vec![
            "--threads",
            "1",
            "--visits",
            "64",
            "--time",
            "0",
            "--seed",
            "7",
        ];
        all.extend_from_slice(args);
        Self::start_raw(&all)
    }

    pub fn start_raw(args: &[&str]) -> Engine {
        Self::spawn(Command::new(binary()).args(args))
    }

    pub fn spawn(cmd: &mut Command) -> Engine {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting the engine");
        let mut stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut chunk = [0u8; 65536];
            loop {
                match stdout.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if tx.send(chunk[..n].to_vec()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            rx,
            buf: Vec::new(),
            closed: false,
        }
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("writing to the engine");
        stdin.flush().unwrap();
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Closes the engine's input.
    pub fn close(&mut self) {
        self.stdin = None;
    }

    fn fill(&mut self, deadline: Instant) -> bool {
        if self.closed {
            return false;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(left) {
            Ok(chunk) => {
                self.buf.extend_from_slice(&chunk);
                true
            }
            Err(RecvTimeoutError::Timeout) => panic!(
                "engine did not answer in time; got so far: {:?}",
                String::from_utf8_lossy(&self.buf)
            ),
            Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                false
            }
        }
    }

    /// The next line of output (without LF); `None` at the end of output.
    pub fn line(&mut self) -> Option<String> {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(i) = self.buf.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=i).collect();
                return Some(String::from_utf8(line[..i].to_vec()).expect("UTF-8 output"));
            }
            if !self.fill(deadline) {
                return None;
            }
        }
    }

    /// The next whole response, including its `=`/`?` and id, without the
    /// blank line that ends it.
    pub fn response(&mut self) -> String {
        let mut lines = Vec::new();
        loop {
            let line = self.line().expect("response ended early");
            if line.is_empty() {
                break;
            }
            lines.push(line);
        }
        lines.join("\n")
    }

    /// Sends a command and returns its response text without the `=`/`?`;
    /// `Err` for a failure response.
    pub fn cmd(&mut self, line: &str) -> Result<String, String> {
        self.send(line);
        let r = self.response();
        let body = r[1..].trim_start_matches(|c: char| c.is_ascii_digit());
        let body = body.strip_prefix(' ').unwrap_or(body).to_string();
        match r.as_bytes()[0] {
            b'=' => Ok(body),
            b'?' => Err(body),
            _ => panic!("not a response: {r:?}"),
        }
    }

    pub fn ok(&mut self, line: &str) -> String {
        self.cmd(line)
            .unwrap_or_else(|e| panic!("{line}: failed with {e}"))
    }

    pub fn fails(&mut self, line: &str) -> String {
        match self.cmd(line) {
            Ok(r) => panic!("{line}: expected a failure, got {r:?}"),
            Err(e) => e,
        }
    }

    /// All output until the engine closes stdout.
    pub fn rest(&mut self) -> String {
        let deadline = Instant::now() + TIMEOUT;
        while self.fill(deadline) {}
        String::from_utf8(std::mem::take(&mut self.buf)).expect("UTF-8 output")
    }

    /// Waits for the process to exit; its exit code.
    pub fn wait(&mut self) -> i32 {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            assert!(Instant::now() < deadline, "engine did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Plays `engine` against itself until the game is over; the moves.
pub fn self_play(engine: &mut Engine, max_turns: usize) -> Vec<String> {
    let mut moves = Vec::new();
    let mut seat = "b";
    for _ in 0..max_turns {
        if engine.ok("oddity-result") != "running" {
            return moves;
        }
        let m = engine.ok(&format!("genmove {seat}"));
        moves.push(m);
        seat = if seat == "b" { "w" } else { "b" };
    }
    panic!("game did not end in {max_turns} turns: {moves:?}");
}
