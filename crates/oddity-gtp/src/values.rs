//! The protocol's own parameters read from text into their types, used by
//! the command line's options (through clap) and by `oddity-param`; the
//! engine's configuration has its readers in [`oddity_search::config`].

use oddity_search::config::BadValue;
use oddity_search::time::TimeUse;

fn expected(what: &str) -> BadValue {
    BadValue::expected(what)
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
