//! oddity in the browser: the rules and the engine compiled to WebAssembly
//! with `wasm-bindgen`, for a page and the dedicated Web Worker that runs
//! the engine so that the page never waits for it (`web/` holds the page,
//! the worker and the build script).
//!
//! - [`Game`]: a game checked by the rules (new game, turns, undo, the end
//!   with its counts, SGF), the same Rust code the native programs use.
//! - [`Engine`]: the search with the exact solver near the end, within a
//!   memory budget the page chooses ([`memory`]).
//! - [`bench`](mod@bench): the speed figures of `oddity bench`, measured in the tab.
//!
//! Built plainly (`wasm32-unknown-unknown`) the module has one thread.
//! Built with WebAssembly threads and the `threads` feature (nightly
//! `-Z build-std`, see `web/build.sh`) it also exports `initThreadPool`,
//! which starts rayon's pool of Web Workers; the search then runs its
//! threads there. Such a module needs a cross-origin isolated page (the
//! COOP and COEP headers), since its memory is a `SharedArrayBuffer`.
//!
//! Errors cross to JavaScript as strings (thrown). Reports and states are
//! JSON strings, whose fields are those of the types in [`engine`] and
//! [`game`].

#![warn(missing_docs)]

pub mod bench;
pub mod engine;
pub mod game;
pub mod memory;

pub use engine::{Engine, threads_built};
pub use game::Game;

#[cfg(feature = "threads")]
pub use wasm_bindgen_rayon::init_thread_pool;
