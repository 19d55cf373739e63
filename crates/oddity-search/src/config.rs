//! The engine's configuration, one type for every front end: how the engine
//! searches ([`SearchParams`]: threads, memory, seed, policy, exploration,
//! the policy's tuning) and how long one search lasts when nothing else
//! decides (time and visits). The command line, the protocol's
//! `oddity-param`, the page's engines and the browser module all build an
//! [`EngineConfig`] and set its values from text through
//! [`EngineConfig::set`] or the readers here, so that a value is good or
//! bad everywhere alike, with the same words.

use std::time::Duration;

use crate::limits::Limits;
use crate::params::SearchParams;
use crate::policy::Policy;
use crate::tuning::TuningError;

/// The longest search any command takes: a day.
pub const MAX_SECONDS: f64 = 86_400.0;

/// The most search threads.
pub const MAX_THREADS: usize = 1024;

/// The engine's configuration: how it searches and how long.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineConfig {
    /// How the engine searches.
    pub params: SearchParams,
    /// Time per search; `None`: no time limit.
    pub time: Option<Duration>,
    /// Iterations per search.
    pub visits: Visits,
}

/// How many iterations one search may make.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Visits {
    /// The front end's own choice (each says what it is).
    #[default]
    Auto,
    /// No cap.
    Unlimited,
    /// At most this many (at least 1).
    Cap(u64),
}

impl Visits {
    /// The cap, with `auto` standing for [`Visits::Auto`].
    pub fn cap_or(self, auto: Option<u64>) -> Option<u64> {
        match self {
            Visits::Auto => auto,
            Visits::Unlimited => None,
            Visits::Cap(n) => Some(n),
        }
    }
}

/// The names [`EngineConfig::set`] takes besides the tuning's
/// ([`crate::tuning::NAMES`]).
pub const NAMES: [&str; 7] = [
    "threads",
    "visits",
    "time",
    "memory",
    "seed",
    "policy",
    "exploration",
];

impl EngineConfig {
    /// Sets the value called `name` from text: one of [`NAMES`] or a name
    /// of the policy's tuning. On an error nothing changes.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), ConfigError> {
        let bad = |e: BadValue| ConfigError::BadValue(name.to_string(), e);
        let p = &mut self.params;
        match name {
            "threads" => p.threads = threads(value).map_err(bad)?,
            "visits" => self.visits = visits(value).map_err(bad)?,
            "time" => self.time = time_limit(value).map_err(bad)?,
            "memory" => p.memory_mb = memory(value).map_err(bad)?,
            "seed" => p.seed = seed(value).map_err(bad)?,
            "policy" => p.policy = policy(value).map_err(bad)?,
            "exploration" => p.exploration = exploration(value).map_err(bad)?,
            _ => {
                return p.tuning.set(name, value).map_err(|e| match e {
                    TuningError::UnknownName => ConfigError::Unknown(name.to_string()),
                    TuningError::BadValue => ConfigError::BadValue(
                        name.to_string(),
                        BadValue(
                            "a value that parameter takes (protocol.md, oddity-param)".to_string(),
                        ),
                    ),
                    TuningError::Weights(why) => ConfigError::Weights(why),
                });
            }
        }
        Ok(())
    }

    /// The value called `name` as [`EngineConfig::set`] reads it; `None`
    /// for a name it does not take.
    pub fn get(&self, name: &str) -> Option<String> {
        let p = &self.params;
        Some(match name {
            "threads" => p.threads.to_string(),
            "visits" => match self.visits {
                Visits::Auto => "auto".to_string(),
                Visits::Unlimited => "0".to_string(),
                Visits::Cap(n) => n.to_string(),
            },
            "time" => self.time.map_or(0.0, |t| t.as_secs_f64()).to_string(),
            "memory" => p.memory_mb.to_string(),
            "seed" => p.seed.to_string(),
            "policy" => p.policy.to_string(),
            "exploration" => p
                .exploration
                .map_or_else(|| "auto".to_string(), |c| c.to_string()),
            _ => return p.tuning.get(name),
        })
    }

    /// The limits of one search: the time, and the visits with `auto`
    /// standing for [`Visits::Auto`].
    pub fn limits(&self, auto: Option<u64>) -> Limits {
        Limits {
            visits: self.visits.cap_or(auto),
            time: self.time,
            soft_time: None,
        }
    }
}

/// A value a setting does not take, and what it takes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected {0}")]
pub struct BadValue(String);

impl BadValue {
    /// A value refused: what was expected instead.
    pub fn expected(what: impl Into<String>) -> BadValue {
        BadValue(what.into())
    }
}

fn expected(what: impl Into<String>) -> BadValue {
    BadValue::expected(what)
}

/// Why [`EngineConfig::set`] refused a value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// No setting of that name.
    #[error("unknown parameter {0}")]
    Unknown(String),
    /// A value the setting does not take.
    #[error("{0}: {1}")]
    BadValue(String, BadValue),
    /// A weights file that cannot be read, and why.
    #[error("{0}")]
    Weights(String),
}

/// Search threads: 1 to [`MAX_THREADS`].
pub fn threads(text: &str) -> Result<usize, BadValue> {
    text.parse::<usize>()
        .ok()
        .filter(|n| (1..=MAX_THREADS).contains(n))
        .ok_or_else(|| expected(format!("1 to {MAX_THREADS} threads")))
}

/// Iterations per search: `auto`, a number, or 0 for no cap.
pub fn visits(text: &str) -> Result<Visits, BadValue> {
    if text.eq_ignore_ascii_case("auto") {
        return Ok(Visits::Auto);
    }
    match text.parse::<u64>() {
        Ok(0) => Ok(Visits::Unlimited),
        Ok(n) => Ok(Visits::Cap(n)),
        Err(_) => Err(expected("auto or a number of visits (0: no cap)")),
    }
}

/// A number of seconds a search takes: above 0, at most [`MAX_SECONDS`].
/// The one reader of durations: the command line's times, the protocol's
/// and the JSON queries' go through it or [`check_seconds`].
pub fn seconds(text: &str) -> Result<Duration, BadValue> {
    text.trim()
        .parse::<f64>()
        .map_err(|_| seconds_expected())
        .and_then(check_seconds)
}

fn seconds_expected() -> BadValue {
    expected(format!(
        "a number of seconds above 0 and at most {MAX_SECONDS} (a day)"
    ))
}

/// A number of seconds from 0 to [`MAX_SECONDS`] (a margin, an increment).
pub fn duration(text: &str) -> Result<Duration, BadValue> {
    if text.trim().parse::<f64>() == Ok(0.0) {
        return Ok(Duration::ZERO);
    }
    seconds(text).map_err(|_| expected(format!("a number of seconds from 0 to {MAX_SECONDS}")))
}

/// `seconds` as a duration, the number already read (a JSON field, a
/// form's): above 0 and at most [`MAX_SECONDS`], as [`seconds`] takes.
pub fn check_seconds(seconds: f64) -> Result<Duration, BadValue> {
    (seconds.is_finite() && seconds > 0.0 && seconds <= MAX_SECONDS)
        .then(|| Duration::from_secs_f64(seconds))
        .ok_or_else(seconds_expected)
}

/// A time limit: as [`seconds`], or 0 for none.
pub fn time_limit(text: &str) -> Result<Option<Duration>, BadValue> {
    if text.parse::<f64>() == Ok(0.0) {
        return Ok(None);
    }
    seconds(text)
        .map(Some)
        .map_err(|_| expected(format!("0 (no limit) to {MAX_SECONDS} seconds")))
}

/// Memory for the tree, MiB (at least 1).
pub fn memory(text: &str) -> Result<usize, BadValue> {
    text.parse::<usize>()
        .ok()
        .filter(|&m| m >= 1)
        .ok_or_else(|| expected("at least 1 MiB"))
}

/// A random seed.
pub fn seed(text: &str) -> Result<u64, BadValue> {
    text.parse()
        .map_err(|_| expected("a whole number from 0 to 18446744073709551615"))
}

/// The search policy: `default` or `plain`.
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

/// On or off (also true/false, 1/0, yes/no).
pub fn switch(text: &str) -> Result<bool, BadValue> {
    match text.to_ascii_lowercase().as_str() {
        "on" | "true" | "1" | "yes" => Ok(true),
        "off" | "false" | "0" | "no" => Ok(false),
        _ => Err(expected("on or off")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back_what_was_set() {
        let mut config = EngineConfig::default();
        for (name, value) in [
            ("threads", "3"),
            ("visits", "500"),
            ("time", "0.25"),
            ("memory", "64"),
            ("seed", "7"),
            ("policy", "plain"),
            ("exploration", "0.5"),
        ] {
            config.set(name, value).unwrap();
            assert_eq!(config.get(name).as_deref(), Some(value), "{name}");
        }
        assert_eq!(config.params.threads, 3);
        assert_eq!(config.visits, Visits::Cap(500));
        assert_eq!(config.time, Some(Duration::from_millis(250)));
        assert_eq!(config.params.memory_mb, 64);
        assert_eq!(config.params.policy, Policy::Plain);
        for name in NAMES {
            assert!(config.get(name).is_some(), "{name}");
        }
    }

    #[test]
    fn a_bad_value_is_named_and_changes_nothing() {
        let mut config = EngineConfig::default();
        let before = config.clone();
        for (name, value) in [
            ("threads", "0"),
            ("threads", "1025"),
            ("visits", "-1"),
            ("time", "-1"),
            ("time", "86401"),
            ("time", "NaN"),
            ("memory", "0"),
            ("seed", "x"),
            ("policy", "best"),
            ("exploration", "-0.1"),
        ] {
            let e = config.set(name, value).unwrap_err();
            assert!(
                e.to_string().starts_with(&format!("{name}: expected")),
                "{e}"
            );
        }
        assert_eq!(
            config.set("nonsense", "1"),
            Err(ConfigError::Unknown("nonsense".into()))
        );
        assert_eq!(config, before);
    }

    #[test]
    fn zero_means_no_limit_and_auto_the_front_ends_choice() {
        let mut config = EngineConfig::default();
        config.set("time", "0").unwrap();
        config.set("visits", "0").unwrap();
        assert_eq!(config.limits(Some(9)), Limits::default());
        config.set("visits", "auto").unwrap();
        assert_eq!(config.limits(Some(9)).visits, Some(9));
        assert_eq!(config.get("visits").as_deref(), Some("auto"));
    }

    #[test]
    fn seconds_have_one_range() {
        assert_eq!(seconds("0.5"), Ok(Duration::from_millis(500)));
        assert!(seconds(&MAX_SECONDS.to_string()).is_ok());
        for bad in ["0", "-1", "NaN", "inf", "86400.5", "x", ""] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(time_limit("0"), Ok(None));
        assert_eq!(duration("0"), Ok(Duration::ZERO));
        assert_eq!(duration("1.5"), Ok(Duration::from_millis(1500)));
        assert!(duration("-1").is_err());
    }

    #[test]
    fn tuning_names_go_to_the_tuning() {
        let mut config = EngineConfig::default();
        config.set("rave", "off").unwrap();
        assert_eq!(config.get("rave").as_deref(), Some("off"));
        assert!(matches!(
            config.set("rave", "maybe"),
            Err(ConfigError::BadValue(..))
        ));
    }
}
