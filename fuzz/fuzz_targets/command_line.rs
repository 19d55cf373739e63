//! The command line on any arguments (the input split at zero bytes):
//! reading it never panics, and a refusal's message quotes no argument
//! raw that holds a character that breaks or hides text; each of its
//! lines is one line. Nothing is run.
#![no_main]

use std::ffi::OsString;

use libfuzzer_sys::fuzz_target;
use oddity::cli;
use oddity_rules::internals::{is_one_line, needs_escape};

fuzz_target!(|data: &[u8]| {
    let mut args = vec![OsString::from("oddity")];
    args.extend(
        data.split(|&b| b == 0)
            .map(|a| OsString::from(String::from_utf8_lossy(a).into_owned())),
    );
    let Err(message) = cli::parse(&args) else {
        return;
    };
    for line in message.lines() {
        assert!(is_one_line(line), "{message:?}");
    }
    for arg in &args {
        let arg = arg.to_string_lossy();
        if arg.chars().any(needs_escape) {
            assert!(
                !message.contains(arg.as_ref()),
                "{arg:?} raw in {message:?}"
            );
        }
    }
});
