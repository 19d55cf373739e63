//! The layering the compiler cannot see inside the application crate, and
//! the picture of it in docs/architecture.md, drawn from the code: which
//! top-level module of `src/` names which (`crate::NAME`), and which
//! library crate depends on which (their `Cargo.toml`). Also checks that
//! no layer above the rules decides by comparing game kinds, and that no
//! child module imports its parent.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The library crates, lowest first, as the application names them.
const CRATES: [(&str, &str); 4] = [
    ("oddity-rules", "rules"),
    ("oddity-solver", "solver"),
    ("oddity-patterns", "patterns"),
    ("oddity-search", "search"),
];

/// What each top-level module of the application may use besides the
/// rules (which every layer may use) and the shared `lines`, `heat` and
/// `fairness`.
const ALLOWED: [(&str, &[&str]); 10] = [
    ("render", &[]),
    ("engine", &[]),
    ("tournament", &["engine", "search", "render"]),
    ("gtp", &["search", "solver", "render"]),
    ("analysis", &["search", "solver", "patterns", "render"]),
    ("gui", &["engine", "render"]),
    ("cli", &["*"]),
    ("heat", &[]),
    ("lines", &[]),
    ("fairness", &[]),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of `src/` belongs to (`None` for lib.rs and
/// main.rs).
fn top_module(file: &Path) -> Option<String> {
    let rel = file.strip_prefix(Path::new(ROOT).join("src")).unwrap();
    let first = rel.components().next()?.as_os_str().to_str()?.to_string();
    match first.as_str() {
        "lib.rs" | "main.rs" => None,
        name => Some(name.trim_end_matches(".rs").to_string()),
    }
}

/// The text of a file without its `#[cfg(test)]` module (the unit tests,
/// at the end of a file, may use anything).
fn code_of(file: &Path) -> String {
    let text = fs::read_to_string(file).unwrap();
    match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// Application module -> modules (and library crates) it names.
fn app_edges() -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(&Path::new(ROOT).join("src"), &mut files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let Some(from) = top_module(&file) else {
            continue;
        };
        let entry = edges.entry(from.clone()).or_default();
        let code = code_of(&file);
        for (at, _) in code.match_indices("crate::") {
            let name: String = code[at + 7..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            if !name.is_empty() && name != from && name != "with_game" {
                entry.insert(name);
            }
        }
    }
    edges
}

/// Library crate -> library crates it depends on.
fn crate_edges() -> Vec<(&'static str, Vec<&'static str>)> {
    CRATES
        .iter()
        .map(|&(name, _)| {
            let manifest =
                fs::read_to_string(Path::new(ROOT).join("crates").join(name).join("Cargo.toml"))
                    .unwrap();
            let deps = CRATES
                .iter()
                .map(|&(dep, _)| dep)
                .filter(|dep| manifest.contains(&format!("\n{dep} = ")))
                .collect();
            (name, deps)
        })
        .collect()
}

/// The picture: a Mermaid graph, each arrow from a user to what it uses.
fn picture() -> String {
    let mut text = String::from("```mermaid\ngraph BT\n");
    for (name, short) in CRATES {
        text += &format!("    {short}[\"{name}\"]\n");
    }
    for (name, deps) in crate_edges() {
        let short = CRATES.iter().find(|c| c.0 == name).unwrap().1;
        for dep in deps {
            let to = CRATES.iter().find(|c| c.0 == dep).unwrap().1;
            text += &format!("    {short} --> {to}\n");
        }
    }
    for (from, uses) in app_edges() {
        for to in uses {
            text += &format!("    {from} --> {to}\n");
        }
    }
    text + "```\n"
}

#[test]
fn the_layers_are_as_allowed() {
    for (from, uses) in app_edges() {
        let allowed = ALLOWED
            .iter()
            .find(|(name, _)| *name == from)
            .unwrap_or_else(|| panic!("src/{from}: a new top-level module; add it to ALLOWED"))
            .1;
        for to in uses {
            let ok = ["rules", "lines", "heat", "fairness"].contains(&to.as_str())
                || allowed.contains(&"*")
                || allowed.contains(&to.as_str());
            assert!(ok, "src/{from} uses crate::{to}, which its layer may not");
        }
    }
}

#[test]
fn the_documented_picture_is_drawn_from_the_code() {
    let doc = fs::read_to_string(Path::new(ROOT).join("docs/architecture.md")).unwrap();
    let expected = picture();
    assert!(
        doc.contains(&expected),
        "docs/architecture.md should hold the layers as the code has them:\n{expected}"
    );
}

#[test]
fn only_the_rules_compare_game_kinds() {
    let mut files = Vec::new();
    rust_files(&Path::new(ROOT).join("src"), &mut files);
    for (name, _) in CRATES.iter().skip(1) {
        rust_files(
            &Path::new(ROOT).join("crates").join(name).join("src"),
            &mut files,
        );
    }
    for file in files {
        let code = code_of(&file);
        for line in code.lines() {
            let compares = line.contains("== GameKind::")
                || line.contains("!= GameKind::")
                || (line.contains("matches!(") && line.contains("GameKind::"));
            assert!(
                !compares,
                "{}: a game-kind comparison outside the rules crate (ask GameKind instead): {}",
                file.display(),
                line.trim()
            );
        }
    }
}

/// The paths a `use` tree names at its top: `a::b` gives `a::b`,
/// `{a, b::{c, d}}` gives `a` and `b::{c, d}`.
fn top_level_items(tree: &str) -> Vec<&str> {
    let Some(list) = tree.trim().strip_prefix('{') else {
        return vec![tree];
    };
    let list = list.strip_suffix('}').unwrap_or(list);
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in list.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&list[start..]);
    items
}

#[test]
fn no_child_module_imports_its_parent() {
    let mut files = Vec::new();
    rust_files(&Path::new(ROOT).join("src"), &mut files);
    for (name, _) in CRATES {
        rust_files(
            &Path::new(ROOT).join("crates").join(name).join("src"),
            &mut files,
        );
    }
    for file in files {
        let stem = file.file_stem().unwrap().to_str().unwrap();
        if ["mod", "lib", "main"].contains(&stem) {
            continue;
        }
        let dir = file.parent().unwrap();
        let is_sibling = |name: &str| {
            dir.join(format!("{name}.rs")).is_file() || dir.join(name).join("mod.rs").is_file()
        };
        let code = code_of(&file);
        for (at, _) in code.match_indices("use super::") {
            let rest = &code[at + "use super::".len()..];
            let rest = &rest[..rest.find(';').unwrap()];
            for name in top_level_items(rest) {
                let first = name.trim().split("::").next().unwrap();
                assert!(
                    first.is_empty() || first == "*" || is_sibling(first),
                    "{}: imports `{first}` from its parent module; move it to a module of its own",
                    file.display()
                );
            }
        }
    }
}
