//! Which build this is, for `oddity --version`, the engine's GTP `version`
//! and the results files.

/// This build as `oddity --version` names it: the version and the commit
/// it was built from (`0.1.0 (88c9764)`), with `, dirty` when what goes into
/// the binary differed from that commit (build.rs).
pub const BUILD: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("ODDITY_COMMIT"), ")");
