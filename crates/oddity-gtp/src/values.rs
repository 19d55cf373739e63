//! Engine parameters read from text into their types: one reader per
//! parameter, used by the command line's options (through clap) and by
//! `oddity-param`.

use oddity_search::Policy;
use oddity_search::bounds;
use oddity_search::time::TimeUse;

/// A value a parameter does not take, and what it takes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected {0}")]
pub struct BadValue(String);

fn expected(what: impl Into<String>) -> BadValue {
    BadValue(what.into())
}

/// The visit cap: `auto` (`None`) or a number, 0 for none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VisitCap(pub Option<u64>);

pub fn threads(text: &str) -> Result<usize, BadValue> {
    text.parse::<usize>()
        .ok()
        .filter(|&n| bounds::threads("threads", n).is_ok())
        .ok_or_else(|| expected(format!("1 to {} threads", bounds::MAX_THREADS)))
}

pub fn visits(text: &str) -> Result<VisitCap, BadValue> {
    if text == "auto" {
        return Ok(VisitCap(None));
    }
    text.parse()
        .map(|v| VisitCap(Some(v)))
        .map_err(|_| expected("auto or a number of visits (0: no cap)"))
}

/// Seconds a search takes: above 0, at most a day.
pub fn search_seconds(text: &str) -> Result<f64, BadValue> {
    text.parse::<f64>()
        .ok()
        .filter(|&t| bounds::seconds("time", t).is_ok())
        .ok_or_else(|| {
            expected(format!(
                "a number of seconds above 0 and at most {} (a day)",
                bounds::MAX_SECONDS
            ))
        })
}

/// Seconds per move; 0 for no time limit.
pub fn seconds(text: &str) -> Result<f64, BadValue> {
    text.parse::<f64>()
        .ok()
        .filter(|&t| t == 0.0 || bounds::seconds("time", t).is_ok())
        .ok_or_else(|| expected(format!("0 to {} seconds", bounds::MAX_SECONDS)))
}

/// Memory for the tree, MiB (at least 1).
pub fn memory(text: &str) -> Result<usize, BadValue> {
    text.parse::<usize>()
        .ok()
        .filter(|&m| m >= 1)
        .ok_or_else(|| expected("at least 1 MiB"))
}

pub fn seed(text: &str) -> Result<u64, BadValue> {
    text.parse()
        .map_err(|_| expected("a whole number from 0 to 18446744073709551615"))
}

/// On or off (also true/false, 1/0, yes/no).
pub fn switch(text: &str) -> Result<bool, BadValue> {
    match text.to_ascii_lowercase().as_str() {
        "on" | "true" | "1" | "yes" => Ok(true),
        "off" | "false" | "0" | "no" => Ok(false),
        _ => Err(expected("on or off")),
    }
}

/// How a clock's time is planned: `full` or `cautious`.
pub fn time_use(text: &str) -> Result<TimeUse, BadValue> {
    match text.to_ascii_lowercase().as_str() {
        "full" => Ok(TimeUse::Full),
        "cautious" => Ok(TimeUse::Cautious),
        _ => Err(expected("full or cautious")),
    }
}

/// The name [`time_use`] reads.
pub fn time_use_name(style: TimeUse) -> &'static str {
    match style {
        TimeUse::Full => "full",
        TimeUse::Cautious => "cautious",
    }
}

/// A win rate from 0 to 1.
pub fn resign(text: &str) -> Result<f64, BadValue> {
    text.parse::<f64>()
        .ok()
        .filter(|r| (0.0..=1.0).contains(r))
        .ok_or_else(|| expected("a win rate from 0 to 1"))
}

pub fn policy(text: &str) -> Result<Policy, BadValue> {
    text.parse().map_err(|_| expected("default or plain"))
}

/// The exploration constant: `auto` (`None`) or a number of at least 0.
pub fn exploration(text: &str) -> Result<Option<f64>, BadValue> {
    if text.eq_ignore_ascii_case("auto") {
        return Ok(None);
    }
    text.parse::<f64>()
        .ok()
        .filter(|c| *c >= 0.0 && c.is_finite())
        .map(Some)
        .ok_or_else(|| expected("auto or a number of at least 0"))
}
