//! The values every front end accepts for the search's limits (the
//! protocol, the command line, JSON queries), so that a value is good or
//! bad everywhere alike.

/// The longest search any command takes: a day.
pub const MAX_SECONDS: f64 = 86_400.0;

/// The most search threads.
pub const MAX_THREADS: usize = 1024;

/// A limit out of its range; the message names the option or field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoundError {
    #[error("{0} must be a number of seconds above 0 and at most 86400 (a day)")]
    /// A time out of range; names the option or field.
    Seconds(String),
    #[error("{0} must be a whole number of threads from 1 to 1024")]
    /// A number of threads out of range; names the option or field.
    Threads(String),
}

/// A search time in seconds: above 0, at most [`MAX_SECONDS`].
pub fn seconds(name: &str, value: f64) -> Result<f64, BoundError> {
    if value.is_finite() && value > 0.0 && value <= MAX_SECONDS {
        Ok(value)
    } else {
        Err(BoundError::Seconds(name.to_string()))
    }
}

/// A number of search threads: 1 to [`MAX_THREADS`].
pub fn threads(name: &str, value: usize) -> Result<usize, BoundError> {
    if (1..=MAX_THREADS).contains(&value) {
        Ok(value)
    } else {
        Err(BoundError::Threads(name.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_have_one_range() {
        assert_eq!(seconds("--time", 0.5), Ok(0.5));
        assert_eq!(seconds("--time", MAX_SECONDS), Ok(MAX_SECONDS));
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, MAX_SECONDS + 1.0] {
            let e = seconds("--time", bad).unwrap_err();
            assert!(e.to_string().starts_with("--time must be"), "{e}");
        }
        assert_eq!(threads("threads", 1), Ok(1));
        assert_eq!(threads("threads", MAX_THREADS), Ok(MAX_THREADS));
        assert!(threads("threads", 0).is_err());
        assert!(threads("threads", MAX_THREADS + 1).is_err());
    }
}
