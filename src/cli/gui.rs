//! `oddity gui`: the web GUI (see `docs/gui.md`).

use std::net::IpAddr;

use clap::Args;

use oddity_client::EngineSpec;
use oddity_gui::Config;

/// The engine used when no `--engine` is given: this program's GTP engine.
const DEFAULT_ENGINE: &str = "oddity=oddity gtp";

/// A web page to play Xodd, Yodd, Odd and Onyx against GTP engines.
#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Example:\n  oddity gui --engine 'fast=oddity gtp --visits 400' \
    --engine 'strong=oddity gtp --time 5' --open"
)]
pub struct GuiArgs {
    /// An engine as 'NAME=COMMAND LINE' (repeat for several). A program named
    /// `oddity` is this executable. Default: 'oddity=oddity gtp'.
    #[arg(long = "engine", value_name = "NAME=COMMAND")]
    pub engines: Vec<String>,
    /// Port to listen on (default: a free port).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Address to listen on. Anything but loopback lets other machines play.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// Open the page in the system's browser.
    #[arg(long)]
    pub open: bool,
}

pub fn run(args: &GuiArgs) -> Result<(), String> {
    let texts = if args.engines.is_empty() {
        vec![DEFAULT_ENGINE.to_string()]
    } else {
        args.engines.clone()
    };
    let mut engines: Vec<EngineSpec> = Vec::new();
    for text in &texts {
        let spec = EngineSpec::parse(text).map_err(|e| e.to_string())?;
        if engines.iter().any(|e| e.name == spec.name) {
            return Err(format!("two engines are named '{}'", spec.name));
        }
        if spec.name.eq_ignore_ascii_case("human") {
            return Err("'human' is a seat, not an engine name".into());
        }
        engines.push(spec);
    }
    oddity_gui::serve(Config {
        engines,
        host: args.host,
        port: args.port,
        open: args.open,
    })
    .map_err(|e| e.to_string())
}
