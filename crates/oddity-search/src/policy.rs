//! The policy: what the search knows beyond the rules, by name.

use std::fmt;
use std::str::FromStr;

/// What the search knows beyond the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Policy {
    /// Textbook UCT: uniformly random playouts, no game knowledge, c = sqrt(2).
    /// Kept as the yardstick for the strength work.
    Plain,
    /// The engine's own settings: per-game exploration and the knowledge
    /// hooks as they are added.
    #[default]
    Default,
}

/// A policy name that is neither `plain` nor `default`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown policy '{0}' (plain, default)")]
pub struct UnknownPolicy(pub String);

impl FromStr for Policy {
    type Err = UnknownPolicy;
    fn from_str(s: &str) -> Result<Policy, UnknownPolicy> {
        match s.to_ascii_lowercase().as_str() {
            "plain" => Ok(Policy::Plain),
            "default" => Ok(Policy::Default),
            _ => Err(UnknownPolicy(s.to_string())),
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Policy::Plain => "plain",
            Policy::Default => "default",
        })
    }
}
