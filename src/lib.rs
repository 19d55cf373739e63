//! oddity's command line: each command's arguments and the wiring of the
//! layers below it. The layers are crates of the workspace: the rules
//! (`oddity-rules`), the solver, the patterns and the search; the GTP
//! engine (`oddity-gtp`), the engine client (`oddity-client`), tournaments
//! (`oddity-tournament`), analysis (`oddity-analysis`) and the web GUI's
//! server (`oddity-gui`). docs/architecture.md draws them.

pub mod cli;
pub mod version;

pub use version::BUILD;
