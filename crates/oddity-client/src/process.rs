//! Engine processes: start a program, talk GTP to it with a timeout on every
//! wait, and kill it when it misbehaves.
//!
//! Each engine's stdout is read by its own thread that forwards lines over a
//! channel, so the referee never blocks on a silent engine: every wait is a
//! `recv_timeout` that also watches the tournament's stop flag.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

/// How to start one engine: a name for the tables, a command line, an
/// optional working directory, and GTP commands sent after each start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    pub program: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub init: Vec<String>,
}

/// Why an engine's `NAME=COMMAND LINE` cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineSpecError {
    #[error("engine '{0}': expected NAME=COMMAND LINE")]
    NoName(String),
    #[error("engine '{0}': the name must be non-empty, without spaces or quotes")]
    BadName(String),
    #[error("engine '{0}': empty command line")]
    NoCommand(String),
    #[error("engine command line '{0}': unclosed quote or trailing \\")]
    Unbalanced(String),
}

impl EngineSpec {
    /// Parses `NAME=COMMAND LINE`. The command line is split into words like
    /// a POSIX shell does for quotes and backslashes (no variables, no globs).
    /// A program named `oddity` is this very executable, so several `oddity`
    /// configurations can be compared without installing anything.
    pub fn parse(text: &str) -> Result<EngineSpec, EngineSpecError> {
        let (name, command) = text
            .split_once('=')
            .ok_or_else(|| EngineSpecError::NoName(text.to_string()))?;
        let name = name.trim();
        if name.is_empty() || name.chars().any(|c| c.is_whitespace() || c == '"') {
            return Err(EngineSpecError::BadName(text.to_string()));
        }
        let mut words = split_command_line(command)?;
        if words.is_empty() {
            return Err(EngineSpecError::NoCommand(name.to_string()));
        }
        let mut program = words.remove(0);
        if program == "oddity"
            && let Ok(me) = std::env::current_exe()
        {
            program = me.to_string_lossy().into_owned();
        }
        Ok(EngineSpec {
            name: name.to_string(),
            program,
            args: words,
            dir: None,
            init: Vec::new(),
        })
    }

    /// The command line, quoted so that it splits back into the same words.
    pub fn command_line(&self) -> String {
        let words = std::iter::once(&self.program).chain(&self.args);
        shlex::try_join(words.map(String::as_str))
            .unwrap_or_else(|_| format!("{} {}", self.program, self.args.join(" ")))
    }
}

/// Splits a command line into words as a POSIX shell does for quotes and
/// backslashes (no variables, no globs; `#` starts a comment).
pub fn split_command_line(text: &str) -> Result<Vec<String>, EngineSpecError> {
    shlex::split(text).ok_or_else(|| EngineSpecError::Unbalanced(text.to_string()))
}

/// Reads a response's first line, `=ID text` or `?ID text`, for command
/// `id`: whether it is a success, and the text after the id.
fn status_line(line: &str, id: u32) -> Result<(bool, String), Fault> {
    let ok = match line.chars().next() {
        Some('=') => true,
        Some('?') => false,
        _ => return Err(Fault::Garbage(line.to_string())),
    };
    let rest = &line[1..];
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits != id.to_string() {
        // Answers must carry the id sent (GTP echoes it).
        return Err(Fault::Garbage(line.to_string()));
    }
    Ok((ok, rest[digits.len()..].trim().to_string()))
}

/// What went wrong talking to an engine. Each kind is a forfeit reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The process exited or closed its output.
    Crash(String),
    /// No complete answer within the time allowed.
    Timeout(Duration),
    /// A stdout line that is not GTP.
    Garbage(String),
    /// `?` answer to a command the referee needs.
    Refused { command: String, message: String },
    /// The tournament is stopping, or the engine was stopped from outside
    /// (SIGTERM, SIGINT, SIGHUP); not the engine's fault.
    Aborted,
}

impl Fault {
    pub fn reason(&self) -> &'static str {
        match self {
            Fault::Crash(_) => "crash",
            Fault::Timeout(_) => "timeout",
            Fault::Garbage(_) => "garbage output",
            Fault::Refused { .. } => "protocol error",
            Fault::Aborted => "aborted",
        }
    }

    pub fn detail(&self) -> String {
        match self {
            Fault::Crash(why) => why.clone(),
            Fault::Timeout(d) => format!("no answer within {:.3} s", d.as_secs_f64()),
            Fault::Garbage(line) => format!("not a GTP response: '{}'", clip(line, 80)),
            Fault::Refused { command, message } => {
                format!("answered '? {}' to '{command}'", clip(message, 80))
            }
            Fault::Aborted => "tournament stopped".into(),
        }
    }
}

fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(max).collect();
        s.push('…');
        s
    }
}

/// Whether a process was ended by SIGTERM, SIGINT or SIGHUP: stopped from
/// outside, as a job scheduler stops a job, rather than crashed.
#[cfg(unix)]
fn stopped_from_outside(status: std::process::ExitStatus) -> bool {
    use std::os::unix::process::ExitStatusExt;
    matches!(status.signal(), Some(1 | 2 | 15))
}

#[cfg(not(unix))]
fn stopped_from_outside(_: std::process::ExitStatus) -> bool {
    false
}

enum Line {
    Text(String),
    Eof,
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    next_id: u32,
    dead: bool,
}

impl EngineProcess {
    /// Starts the program. An error here means the program cannot be run
    /// at all (missing, not executable, bad directory).
    pub fn start(spec: &EngineSpec, stderr_log: Option<&PathBuf>) -> std::io::Result<Self> {
        let mut command = Command::new(&spec.program);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        match stderr_log {
            Some(path) => {
                let file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)?;
                command.stderr(Stdio::from(file));
            }
            None => {
                command.stderr(Stdio::null());
            }
        }
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        // A terminal's Ctrl-C goes to the whole foreground process group; the
        // engines get their own group so that only the runner sees it and can
        // stop them cleanly instead of recording crashes.
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let mut child = command.spawn()?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        thread::Builder::new()
            .name(format!("{}-stdout", spec.name))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => {
                            let _ = tx.send(Line::Eof);
                            return;
                        }
                        Ok(_) => {
                            let text = String::from_utf8_lossy(&buf);
                            // GTP input rules: control characters other than
                            // HT and LF are dropped (CRLF works); HT is a space.
                            let line: String = text
                                .chars()
                                .filter(|&c| c == '\t' || !c.is_control())
                                .map(|c| if c == '\t' { ' ' } else { c })
                                .collect();
                            if tx.send(Line::Text(line)).is_err() {
                                return;
                            }
                        }
                    }
                }
            })?;
        Ok(EngineProcess {
            child,
            stdin,
            lines: rx,
            next_id: 1,
            dead: false,
        })
    }

    pub fn is_dead(&self) -> bool {
        self.dead
    }

    /// Why a process that closed its output ended: a crash, but for a
    /// signal that stops processes from outside (a job scheduler's cancel
    /// or requeue, a closed terminal), which is no fault of the engine's and
    /// abandons its game ([`Fault::Aborted`]).
    fn ended(&mut self) -> Fault {
        // Give a dying process a moment so its exit status can be reported.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                if stopped_from_outside(status) {
                    return Fault::Aborted;
                }
                return Fault::Crash(format!("engine exited ({status})"));
            }
            thread::sleep(Duration::from_millis(5));
        }
        Fault::Crash("engine closed its output".into())
    }

    /// Sends `command` and waits up to `timeout` for the complete answer.
    /// Returns the text after `=id ` (lines joined with `\n`); a `?` answer
    /// is `Fault::Refused`.
    pub fn command(
        &mut self,
        command: &str,
        timeout: Duration,
        stop: &AtomicBool,
    ) -> Result<String, Fault> {
        if self.dead {
            return Err(Fault::Crash("engine is not running".into()));
        }
        let id = self.next_id;
        self.next_id += 1;
        self.send_line(&format!("{id} {command}"))?;
        let deadline = Instant::now() + timeout;
        let mut result: Option<(bool, Vec<String>)> = None;
        loop {
            if stop.load(Ordering::Relaxed) {
                return Err(Fault::Aborted);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Fault::Timeout(timeout));
            }
            let wait = (deadline - now).min(Duration::from_millis(50));
            let Some(line) = self.next_line(wait)? else {
                continue;
            };
            match &mut result {
                None => {
                    if line.trim().is_empty() {
                        continue;
                    }
                    let (ok, text) = status_line(&line, id)?;
                    result = Some((ok, vec![text]));
                }
                Some((ok, lines)) => {
                    if line.trim().is_empty() {
                        let text = lines.join("\n").trim().to_string();
                        return if *ok {
                            Ok(text)
                        } else {
                            Err(Fault::Refused {
                                command: command.to_string(),
                                message: text,
                            })
                        };
                    }
                    lines.push(line.trim_end().to_string());
                }
            }
        }
    }

    /// Sends a command whose answer streams (`lz-analyze`, `genmove_analyze`):
    /// every line after the status line goes to `on_line` as it arrives,
    /// until the empty line that ends the answer. Once `finish()` returns
    /// true, `finish_line` is sent (an empty line ends an analysis,
    /// `# interrupt` a `genmove`) and the end is awaited for up to `grace`.
    /// `timeout` bounds the whole answer; `None` waits for `finish()`.
    pub fn stream(
        &mut self,
        command: &str,
        timeout: Option<Duration>,
        finish: &mut dyn FnMut() -> bool,
        finish_line: &str,
        on_line: &mut dyn FnMut(&str),
    ) -> Result<(), Fault> {
        if self.dead {
            return Err(Fault::Crash("engine is not running".into()));
        }
        let id = self.next_id;
        self.next_id += 1;
        self.send_line(&format!("{id} {command}"))?;
        let started = Instant::now();
        let mut deadline = timeout.map(|t| started + t);
        let grace = Duration::from_secs(5);
        let mut finishing = false;
        // None until the status line; then whether it was `=`, and the
        // message of a `?` answer.
        let mut status: Option<(bool, Vec<String>)> = None;
        loop {
            if !finishing && finish() {
                finishing = true;
                self.send_line(finish_line)?;
                let end = Instant::now() + grace;
                deadline = Some(deadline.map_or(end, |d| d.min(end)));
            }
            if let Some(d) = deadline
                && Instant::now() >= d
            {
                return Err(Fault::Timeout(Instant::now() - started));
            }
            let Some(line) = self.next_line(Duration::from_millis(50))? else {
                continue;
            };
            match &mut status {
                None if line.trim().is_empty() => {}
                None => {
                    let (ok, text) = status_line(&line, id)?;
                    status = Some((ok, vec![text]));
                }
                Some((ok, message)) => {
                    if line.trim().is_empty() {
                        if *ok {
                            return Ok(());
                        }
                        return Err(Fault::Refused {
                            command: command.to_string(),
                            message: message.join("\n").trim().to_string(),
                        });
                    }
                    if *ok {
                        on_line(line.trim_end());
                    } else {
                        message.push(line.trim_end().to_string());
                    }
                }
            }
        }
    }

    /// The engine's next output line, if one arrives within `wait`; a closed
    /// output marks the engine dead.
    fn next_line(&mut self, wait: Duration) -> Result<Option<String>, Fault> {
        match self.lines.recv_timeout(wait) {
            Ok(Line::Text(line)) => Ok(Some(line)),
            Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.dead = true;
                Err(self.ended())
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
        }
    }

    fn send_line(&mut self, line: &str) -> Result<(), Fault> {
        let sent = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|_| stdin.flush()),
            None => Err(std::io::Error::other("stdin closed")),
        };
        if sent.is_err() {
            self.dead = true;
            return Err(self.ended());
        }
        Ok(())
    }

    /// Whether the process has ended on its own, and how (checked without
    /// waiting, so an idle engine's death is noticed before it is needed).
    pub fn exited(&mut self) -> Option<String> {
        if self.dead {
            return Some("engine is not running".into());
        }
        match self.child.try_wait() {
            Ok(Some(status)) => {
                self.dead = true;
                Some(format!("engine exited ({status})"))
            }
            _ => None,
        }
    }

    /// Asks the engine to quit, waits briefly, then kills it.
    pub fn quit(mut self) {
        if !self.dead
            && let Some(stdin) = self.stdin.as_mut()
        {
            let _ = writeln!(stdin, "quit").and_then(|_| stdin.flush());
        }
        self.stdin = None;
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Kills the process (a hung or misbehaving engine).
    pub fn kill(&mut self) {
        self.dead = true;
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(
            split_command_line(r#"a  'b c' "d \"e\"" f\ g"#).unwrap(),
            vec!["a", "b c", "d \"e\"", "f g"]
        );
        assert!(split_command_line("'open").is_err());
        assert!(split_command_line("a\\").is_err());
        let spec = EngineSpec::parse(r#"x=prog 'two words' "it's" plain"#).unwrap();
        assert_eq!(
            split_command_line(&spec.command_line()).unwrap(),
            ["prog", "two words", "it's", "plain"]
        );
        assert_eq!(split_command_line("  ").unwrap(), Vec::<String>::new());
    }

    #[test]
    fn parses_engine_specs() {
        let e = EngineSpec::parse("fast=./eng --visits 100").unwrap();
        assert_eq!(e.name, "fast");
        assert_eq!(e.program, "./eng");
        assert_eq!(e.args, vec!["--visits", "100"]);
        assert!(EngineSpec::parse("noequals").is_err());
        assert!(EngineSpec::parse("a b=x").is_err());
        assert!(EngineSpec::parse("a=").is_err());
    }

    #[cfg(unix)]
    fn shell(script: &str) -> EngineProcess {
        let spec = EngineSpec {
            name: "sh".into(),
            program: "sh".into(),
            args: vec!["-c".into(), script.into()],
            dir: None,
            init: Vec::new(),
        };
        EngineProcess::start(&spec, None).unwrap()
    }

    #[cfg(unix)]
    #[test]
    fn reads_gtp_framing() {
        let stop = AtomicBool::new(false);
        let t = Duration::from_secs(5);
        // Multi-line answer, CRLF line ends, a failure, a wrong id, then EOF.
        let mut e = shell(
            r#"read a; printf '\n=1 one\r\ntwo\r\n\r\n'; read a; printf '?2 illegal move\n\n';
               read a; printf '=7 x\n\n'; exit 0"#,
        );
        assert_eq!(e.command("a", t, &stop).unwrap(), "one\ntwo");
        assert_eq!(
            e.command("b", t, &stop),
            Err(Fault::Refused {
                command: "b".into(),
                message: "illegal move".into()
            })
        );
        assert!(matches!(e.command("c", t, &stop), Err(Fault::Garbage(_))));
        assert!(matches!(e.command("d", t, &stop), Err(Fault::Crash(_))));
    }

    #[cfg(unix)]
    #[test]
    fn streams_lines_and_finishes_on_request() {
        let t = Duration::from_secs(5);
        // A genmove_analyze: lines, then the end; then an analysis that runs
        // until a line arrives, then a refused stream.
        let mut e = shell(
            r#"read a; printf '=1\ninfo move A1\nplay A1\n\n';
               read a; printf '=2\ninfo x\ninfo y\n'; read b; printf '\n';
               read a; printf '?3 no\n\n'; exit 0"#,
        );
        let mut lines = Vec::new();
        e.stream("g", Some(t), &mut || false, "", &mut |l| {
            lines.push(l.to_string())
        })
        .unwrap();
        assert_eq!(lines, vec!["info move A1", "play A1"]);
        let mut n = 0;
        let mut polls = 0;
        e.stream(
            "a",
            None,
            &mut || {
                polls += 1;
                polls > 3
            },
            "",
            &mut |_| n += 1,
        )
        .unwrap();
        assert_eq!(n, 2);
        assert!(matches!(
            e.stream("b", Some(t), &mut || false, "", &mut |_| {}),
            Err(Fault::Refused { .. })
        ));
    }

    #[cfg(unix)]
    #[test]
    fn times_out_and_stops() {
        let mut e = shell("sleep 5");
        let stop = AtomicBool::new(false);
        let r = e.command("genmove b", Duration::from_millis(100), &stop);
        assert_eq!(r, Err(Fault::Timeout(Duration::from_millis(100))));
        stop.store(true, Ordering::Relaxed);
        let r = e.command("genmove b", Duration::from_secs(5), &stop);
        assert_eq!(r, Err(Fault::Aborted));
        e.kill();
    }
}
