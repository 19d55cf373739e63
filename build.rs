//! Names the commit this binary is built from, for `oddity --version`, the
//! engine's GTP `version` and the results files (`crate::BUILD`): the short
//! hash, with `, dirty` when what goes into the binary differs from it.

use std::process::Command;

/// What goes into the binary: a change to any of these makes a build dirty.
const BUILT_FROM: [&str; 6] = [
    "src",
    "crates",
    "build.rs",
    "Cargo.toml",
    "Cargo.lock",
    "docs/balance/summary.tsv",
];

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    for path in BUILT_FROM {
        println!("cargo:rerun-if-changed={path}");
    }
    // A commit or a checkout moves HEAD or its branch. The index is not
    // watched: staging changes neither the commit nor what differs from
    // it, and `git status` rewrites the index without changing anything.
    let mut refs = vec!["HEAD".to_string(), "packed-refs".into()];
    refs.extend(git(&["symbolic-ref", "-q", "HEAD"]));
    for name in refs {
        if let Some(path) = git(&["rev-parse", "--git-path", &name]) {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    let commit = match git(&["rev-parse", "--short=7", "HEAD"]) {
        Some(hash) => {
            let mut status = vec!["status", "--porcelain", "--"];
            status.extend(BUILT_FROM);
            match git(&status) {
                Some(changes) if changes.is_empty() => hash,
                Some(_) => format!("{hash}, dirty"),
                None => format!("{hash}, status unknown"),
            }
        }
        None => "commit unknown".into(),
    };
    println!("cargo:rustc-env=ODDITY_COMMIT={commit}");
}
