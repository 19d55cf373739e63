//! oddity in the browser: the page's session and the engine compiled to
//! WebAssembly with `wasm-bindgen`, for the static page and the dedicated
//! Web Worker that runs the engine so that the page never waits for it
//! (`web/` holds the worker, the page's transport and the build script;
//! the page itself is `oddity gui`'s).
//!
//! - [`TabSession`]: the game the page shows, the same session as `oddity
//!   gui`'s (`oddity_session`: game tree, the rules' checks, the page's
//!   requests and state as JSON), driving the engine of the tab.
//! - [`Engine`]: the search with the exact solver near the end, within a
//!   memory budget the page chooses ([`memory`]), stopped through a flag
//!   the page can write while it searches.
//! - [`bench`](mod@bench): the speed figures of `oddity bench`, measured in the tab.
//!
//! Built plainly (`wasm32-unknown-unknown`) the module has one thread.
//! Built with WebAssembly threads and the `threads` feature (nightly
//! `-Z build-std`, see `web/build.sh`) it also exports `initThreadPool`,
//! which starts rayon's pool of Web Workers; the search then runs its
//! threads there. Such a module needs a cross-origin isolated page (the
//! COOP and COEP headers), since its memory is a `SharedArrayBuffer`.
//!
//! Errors cross to JavaScript as strings (thrown). Reports, requests and
//! states are JSON strings, whose fields are those of the types in
//! [`engine`] and of `oddity_session`.

#![warn(missing_docs)]

pub mod bench;
pub mod engine;
pub mod memory;
pub mod session;

pub use engine::{Engine, set_option, threads_built};
pub use session::TabSession;

#[cfg(feature = "threads")]
pub use wasm_bindgen_rayon::init_thread_pool;

/// In the browser, the heap is bounded by the page's memory budget.
#[cfg(target_family = "wasm")]
#[global_allocator]
static ALLOCATOR: memory::Bounded = memory::Bounded;
