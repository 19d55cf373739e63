//! Files read once and kept for the life of the program: the search's
//! settings are `Copy`, so they hold what a file gave by `'static`
//! reference.

use std::fmt::Display;
use std::sync::Mutex;

/// What a file gave: its path as given and its contents as read.
pub(crate) type Kept<T> = (&'static str, &'static T);

/// Reads the file at `path` and checks it by `parse`; the error names the
/// file (and `parse`'s error says where in it). What is read is kept in
/// `loaded` for the life of the program, and the same path read again to
/// the same contents gives the copy already kept.
pub(crate) fn read_kept<T: PartialEq + 'static, E: Display>(
    path: &str,
    loaded: &Mutex<Vec<Kept<T>>>,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Result<Kept<T>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let value = parse(&text).map_err(|e| format!("{path}: {e}"))?;
    let mut loaded = loaded.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&kept) = loaded.iter().find(|(p, v)| *p == path && **v == value) {
        return Ok(kept);
    }
    let kept: Kept<T> = (
        Box::leak(path.to_string().into_boxed_str()),
        Box::leak(Box::new(value)),
    );
    loaded.push(kept);
    Ok(kept)
}
