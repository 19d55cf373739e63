//! Every claim of docs/architecture.md, checked against the code: the
//! layers between the crates and between the application's top-level
//! modules (drawn from `Cargo.toml` and `crate::NAME` paths into the
//! document's picture and tables), the module graph of every crate (no
//! circle, no child naming its parent), that no code outside the rules
//! compares game or board kinds, which files name a game, that the search
//! arguments of every command are one type, and that every file the
//! document names exists.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The library crates, lowest first, as the application names them.
const CRATES: [(&str, &str); 8] = [
    ("oddity-rules", "rules"),
    ("oddity-fairness", "fairness"),
    ("oddity-solver", "solver"),
    ("oddity-patterns", "patterns"),
    ("oddity-search", "search"),
    ("oddity-render", "render"),
    ("oddity-session", "session"),
    ("oddity-web", "web"),
];

/// What every top-level module of the application may use.
const SHARED: [&str; 4] = ["rules", "fairness", "lines", "version"];

/// Each top-level module of the application, what it is, and what it may
/// use besides [`SHARED`] (`*`: everything).
const ALLOWED: [(&str, &str, &[&str]); 8] = [
    ("engine", "engine processes, as a client", &[]),
    ("lines", "text lines read as bytes", &[]),
    ("version", "which build this is", &[]),
    (
        "tournament",
        "`oddity match` and `oddity balance`",
        &["engine", "search", "render"],
    ),
    (
        "gtp",
        "the engine protocol",
        &["search", "solver", "render"],
    ),
    (
        "analysis",
        "analysis, accuracy and training data",
        &["search", "solver", "patterns", "render"],
    ),
    (
        "gui",
        "`oddity gui`: the session's page over HTTP, played through GTP engines, never the search itself",
        &["engine", "session"],
    ),
    ("cli", "the front door of each command", &["*"]),
];

/// The commands that search by themselves, each taking `SearchBudget`
/// (its file in `src/cli/` and its `Args` type).
const SEARCHING_COMMANDS: [(&str, &str); 7] = [
    ("analyze", "AnalyzeArgs"),
    ("analysis", "AnalysisArgs"),
    ("accuracy", "AccuracyArgs"),
    ("bench", "BenchArgs"),
    ("openings", "OpeningsArgs"),
    ("solve", "SolveArgs"),
    ("train", "TrainDataArgs"),
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

fn doc() -> String {
    fs::read_to_string(Path::new(ROOT).join("docs/architecture.md")).unwrap()
}

/// Source code as the checks read it: without its `#[cfg(test)]` module
/// (the unit tests, at the end of a file, may use anything) and without
/// comments.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn code_of_file(file: &Path) -> String {
    code_of(&fs::read_to_string(file).unwrap())
}

/// Where each crate's code is: the application's `src/` and each library
/// crate's.
fn crate_sources() -> Vec<(String, PathBuf)> {
    let mut out = vec![("oddity".to_string(), Path::new(ROOT).join("src"))];
    for (name, _) in CRATES {
        out.push((
            name.to_string(),
            Path::new(ROOT).join("crates").join(name).join("src"),
        ));
    }
    out
}

// --- The layers between crates and top-level modules ---

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
        let code = code_of_file(&file);
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

/// The `[dependencies]` of a manifest, by name.
fn dependencies(manifest: &Path) -> BTreeSet<String> {
    let text = fs::read_to_string(manifest).unwrap();
    let mut names = BTreeSet::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with('[') {
            inside = line.trim() == "[dependencies]"
                || line.trim() == "[target.'cfg(unix)'.dependencies]";
        } else if inside && let Some((name, _)) = line.split_once(" = ") {
            names.insert(name.trim().to_string());
        }
    }
    names
}

/// Library crate -> library crates it depends on.
fn crate_edges() -> Vec<(&'static str, Vec<&'static str>)> {
    CRATES
        .iter()
        .map(|&(name, _)| {
            let deps = dependencies(&Path::new(ROOT).join("crates").join(name).join("Cargo.toml"));
            let used = CRATES
                .iter()
                .map(|&(dep, _)| dep)
                .filter(|dep| deps.contains(*dep))
                .collect();
            (name, used)
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

/// The table of what each top-level module may use, as the document has
/// it.
fn module_table() -> String {
    let mut text = String::from("| module | what | may also use |\n|---|---|---|\n");
    for (name, what, uses) in ALLOWED {
        let uses = match uses {
            [] => "nothing else".to_string(),
            ["*"] => "everything".to_string(),
            list => list
                .iter()
                .map(|u| format!("`{u}`"))
                .collect::<Vec<_>>()
                .join(", "),
        };
        text += &format!("| `{name}` | {what} | {uses} |\n");
    }
    text
}

#[test]
fn the_layers_are_as_allowed() {
    for (from, uses) in app_edges() {
        let allowed = ALLOWED
            .iter()
            .find(|(name, _, _)| *name == from)
            .unwrap_or_else(|| panic!("src/{from}: a new top-level module; add it to ALLOWED"))
            .2;
        for to in uses {
            let ok = SHARED.contains(&to.as_str())
                || allowed.contains(&"*")
                || allowed.contains(&to.as_str());
            assert!(ok, "src/{from} uses crate::{to}, which its layer may not");
        }
    }
}

#[test]
fn the_documented_picture_is_drawn_from_the_code() {
    let expected = picture();
    assert!(
        doc().contains(&expected),
        "docs/architecture.md should hold the layers as the code has them:\n{expected}"
    );
}

#[test]
fn the_documented_module_table_is_the_one_checked() {
    let expected = module_table();
    assert!(
        doc().contains(&expected),
        "docs/architecture.md should hold the table of ALLOWED:\n{expected}"
    );
    let shared: Vec<String> = SHARED.iter().map(|s| format!("`{s}`")).collect();
    assert!(
        doc().contains(&format!("every module may use {}", shared.join(", "))),
        "docs/architecture.md should name the shared modules: {shared:?}"
    );
}

/// The table row of `name` in the document's crate table: its columns.
fn crate_row(doc: &str, name: &str) -> Vec<String> {
    let row = doc
        .lines()
        .find(|l| l.starts_with(&format!("| `{name}` ")))
        .unwrap_or_else(|| panic!("docs/architecture.md has no row for `{name}`"));
    row.trim_matches('|')
        .split('|')
        .map(|c| c.trim().to_string())
        .collect()
}

/// The names a table cell writes in backticks.
fn quoted(cell: &str) -> BTreeSet<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

#[test]
fn the_documented_dependencies_are_the_manifests() {
    let doc = doc();
    for (name, _) in CRATES {
        let row = crate_row(&doc, name);
        let deps = dependencies(&Path::new(ROOT).join("crates").join(name).join("Cargo.toml"));
        let (ours, theirs): (BTreeSet<String>, BTreeSet<String>) =
            deps.into_iter().partition(|d| d.starts_with("oddity-"));
        assert_eq!(quoted(&row[1]), ours, "{name}: the crates it uses");
        assert_eq!(quoted(&row[2]), theirs, "{name}: its dependencies");
    }
    // The application's row names some of its dependencies, all real.
    let row = crate_row(&doc, "oddity");
    let deps = dependencies(&Path::new(ROOT).join("Cargo.toml"));
    for dep in quoted(&row[2]) {
        assert!(
            deps.contains(&dep),
            "the application does not depend on {dep}"
        );
    }
}

// --- The module graph of every crate ---

/// The paths a `use` tree names, in full: `a::{b, c::{d, e}}` gives
/// `a::b`, `a::c::d` and `a::c::e`.
fn expand_use(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let (prefix, inner) = match tree.find('{') {
        Some(at) if tree.ends_with('}') => (
            tree[..at].trim_end_matches("::"),
            &tree[at + 1..tree.len() - 1],
        ),
        _ => return vec![tree.to_string()],
    };
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(expand_use)
        .map(|p| {
            if prefix.is_empty() {
                p
            } else {
                format!("{prefix}::{p}")
            }
        })
        .collect()
}

/// Every path a piece of code names that starts with `crate`, `super` or
/// `self`: in its `use` declarations and anywhere else.
fn module_paths(code: &str) -> Vec<String> {
    let is_name = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut paths = Vec::new();
    let mut rest = String::new();
    let mut i = 0;
    while let Some(found) = code[i..].find("use ") {
        let at = i + found;
        let starts_word = at == 0 || !is_name(code.as_bytes()[at - 1]);
        match code[at..].find(';').filter(|_| starts_word) {
            Some(end) => {
                rest.push_str(&code[i..at]);
                paths.extend(expand_use(&code[at + 4..at + end]));
                i = at + end + 1;
            }
            None => {
                rest.push_str(&code[i..at + 4]);
                i = at + 4;
            }
        }
    }
    rest.push_str(&code[i..]);
    for start in ["crate::", "super::", "self::"] {
        for (at, _) in rest.match_indices(start) {
            if at > 0 && is_name(rest.as_bytes()[at - 1]) {
                continue;
            }
            let path: String = rest[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            paths.push(path.trim_end_matches(':').to_string());
        }
    }
    paths
        .into_iter()
        .filter(|p| ["crate", "super", "self"].iter().any(|s| p.starts_with(s)))
        .collect()
}

/// The modules of a crate whose code is under `src`, by path (`""` is the
/// crate root, `a::b` is `a/b.rs` or `a/b/mod.rs`), with their files.
fn modules(src: &Path) -> BTreeMap<String, PathBuf> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut out = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(src).unwrap().with_extension("");
        let mut parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_str().unwrap().to_string())
            .collect();
        if parts == ["main"] {
            // The binary is a crate of its own over the library.
            continue;
        }
        if matches!(parts.last().map(String::as_str), Some("lib" | "mod")) {
            parts.pop();
        }
        out.insert(parts.join("::"), file);
    }
    out
}

/// The module a path names from module `from`: the longest prefix of the
/// path that is a module (the root, `""`, when its first name is none).
fn target(from: &str, path: &str, mods: &BTreeMap<String, PathBuf>) -> String {
    let mut at: Vec<&str> = if from.is_empty() {
        Vec::new()
    } else {
        from.split("::").collect()
    };
    let mut names = path
        .split("::")
        .map(|s| s.split(" as ").next().unwrap().trim());
    let mut next = names.next();
    if next == Some("crate") {
        at.clear();
        next = names.next();
    }
    while let Some(n @ ("super" | "self")) = next {
        if n == "super" {
            at.pop();
        }
        next = names.next();
    }
    while let Some(name) = next {
        let candidate = at
            .iter()
            .copied()
            .chain([name])
            .collect::<Vec<_>>()
            .join("::");
        if !mods.contains_key(&candidate) {
            break;
        }
        at.push(name);
        next = names.next();
    }
    at.join("::")
}

/// What the module graph of a crate shows wrong: paths from a module to
/// one above it (its parent or further up), and circles of modules.
#[derive(Debug, Default, PartialEq)]
struct GraphFaults {
    /// (module, the module above it it names, the path).
    back_arrows: Vec<(String, String, String)>,
    /// The modules of each circle.
    circles: Vec<Vec<String>>,
}

/// The faults of a crate's module graph. `external` are the names its root
/// re-exports from other crates (`pub use oddity_rules as rules;`): paths
/// through them leave the crate.
fn graph_faults(mods: &BTreeMap<String, String>, external: &[String]) -> GraphFaults {
    let files: BTreeMap<String, PathBuf> =
        mods.keys().map(|k| (k.clone(), PathBuf::new())).collect();
    let mut faults = GraphFaults::default();
    let mut edges: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for (from, code) in mods {
        let out = edges.entry(from).or_default();
        for path in module_paths(code) {
            let to = target(from, &path, &files);
            if to == *from {
                continue;
            }
            if to.is_empty() {
                let first = path
                    .trim_start_matches("crate::")
                    .split("::")
                    .next()
                    .unwrap_or("");
                if path.starts_with("crate::") && external.iter().any(|e| e == first) {
                    continue;
                }
            }
            let above = to.is_empty() || from.starts_with(&format!("{to}::"));
            if above {
                faults.back_arrows.push((from.clone(), to, path));
            } else {
                out.insert(to);
            }
        }
    }
    faults.circles = circles(&edges);
    faults
}

/// The strongly connected components of more than one module (Tarjan).
fn circles(edges: &BTreeMap<&str, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<&'a str, BTreeSet<String>>,
        index: BTreeMap<String, usize>,
        low: BTreeMap<String, usize>,
        stack: Vec<String>,
        found: Vec<Vec<String>>,
    }
    impl Walk<'_> {
        fn visit(&mut self, v: &str) {
            let k = self.index.len();
            self.index.insert(v.to_string(), k);
            self.low.insert(v.to_string(), k);
            self.stack.push(v.to_string());
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v.to_string(), low);
                } else if self.stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v.to_string(), low);
                }
            }
            if self.low[v] == self.index[v] {
                let at = self.stack.iter().rposition(|m| m == v).unwrap();
                let component = self.stack.split_off(at);
                if component.len() > 1 {
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(*v) {
            walk.visit(v);
        }
    }
    walk.found
}

/// The names a crate's root re-exports from other crates.
fn external_names(root: &str) -> Vec<String> {
    root.lines()
        .filter_map(|l| l.trim().strip_prefix("pub use oddity_"))
        .filter_map(|rest| {
            let rest = rest.trim_end_matches(';');
            match rest.split_once(" as ") {
                Some((_, alias)) => Some(alias.trim().to_string()),
                None => rest.rsplit("::").next().map(str::to_string),
            }
        })
        .collect()
}

#[test]
fn no_crate_has_a_module_circle_or_a_child_naming_its_parent() {
    let mut wrong = Vec::new();
    for (name, src) in crate_sources() {
        let files = modules(&src);
        let mods: BTreeMap<String, String> = files
            .iter()
            .map(|(m, f)| (m.clone(), code_of_file(f)))
            .collect();
        let external = external_names(&mods[""]);
        let faults = graph_faults(&mods, &external);
        for (from, to, path) in faults.back_arrows {
            wrong.push(format!(
                "{name}: {} names its parent module `{to}` ({path}); move what it needs to a module of its own",
                files[&from].display()
            ));
        }
        for circle in faults.circles {
            wrong.push(format!("{name}: modules in a circle: {circle:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The graph check finds what it is there to find: in a small crate whose
/// `a` and `b` name each other and whose `a::c` names its parent.
#[test]
fn the_module_check_finds_circles_and_children_naming_their_parent() {
    let mods: BTreeMap<String, String> = [
        ("", "pub mod a;\npub mod b;\npub use oddity_rules as rules;"),
        (
            "a",
            "mod c;\nuse crate::b::{B, other::{X, Y}};\npub struct A;",
        ),
        ("a::c", "use super::A;\nuse crate::rules::Colour;"),
        (
            "b",
            "pub struct B;\npub fn f() -> crate::a::A { crate::a::A }",
        ),
    ]
    .into_iter()
    .map(|(m, c)| (m.to_string(), c.to_string()))
    .collect();
    let faults = graph_faults(&mods, &external_names(&mods[""]));
    assert_eq!(
        faults.back_arrows,
        [("a::c".to_string(), "a".to_string(), "super::A".to_string())]
    );
    assert_eq!(faults.circles, [vec!["a".to_string(), "b".to_string()]]);
}

// --- Game kinds outside the rules ---

/// The comparisons of game or board kinds in `code`: `==` and `!=` with a
/// kind on either side, and `matches!` that names one, also when they
/// span several lines.
fn kind_comparisons(code: &str) -> Vec<String> {
    let flat = code.split_whitespace().collect::<Vec<_>>().join(" ");
    let kinds = ["GameKind::", "BoardKind::"];
    let mut found = Vec::new();
    for op in ["==", "!="] {
        for (at, _) in flat.match_indices(op) {
            let before = &flat[..at];
            let after = flat[at + 2..].trim_start();
            let last_word = before.trim_end().rsplit(' ').next().unwrap_or("");
            if kinds
                .iter()
                .any(|k| after.starts_with(k) || last_word.starts_with(k))
            {
                let from = before.len().saturating_sub(40);
                found.push(flat[from..(at + 40).min(flat.len())].to_string());
            }
        }
    }
    for (at, _) in flat.match_indices("matches!(") {
        let mut depth = 0;
        let inner: String = flat[at + 8..]
            .chars()
            .take_while(|&c| {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                depth > 0
            })
            .collect();
        if kinds.iter().any(|k| inner.contains(k)) {
            found.push(format!("matches!{inner})"));
        }
    }
    found
}

#[test]
fn only_the_rules_compare_game_kinds() {
    let mut wrong = Vec::new();
    for (name, src) in crate_sources() {
        if name == "oddity-rules" {
            continue;
        }
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for file in files {
            for c in kind_comparisons(&code_of_file(&file)) {
                wrong.push(format!("{}: {c}", file.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "kind comparisons outside the rules crate (ask GameKind or BoardKind instead):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_kind_check_sees_comparisons_across_lines() {
    let code = "if kind\n    == GameKind::Xodd { }\nlet b = topo.kind !=\n BoardKind::Onyx;\nlet m = matches!(\n    k,\n    GameKind::Odd | GameKind::Onyx\n);\nmatch kind { GameKind::Odd => 1, _ => 2 }";
    assert_eq!(
        kind_comparisons(code).len(),
        3,
        "{:?}",
        kind_comparisons(code)
    );
    assert!(kind_comparisons("match kind { GameKind::Odd => 1 }").is_empty());
}

// --- Which files name a game ---

/// Whether `code` names a game's type or kind (Onyx's, standing for all).
fn names_a_game(code: &str) -> bool {
    ["GameKind::Onyx", "OnyxGame", "BoardKind::Onyx"]
        .iter()
        .any(|n| code.contains(n))
        || ["Onyx128", "Onyx256", "Onyx640"]
            .iter()
            .any(|n| code.contains(n))
}

#[test]
fn the_files_that_name_a_game_are_the_documented_ones() {
    let mut outside = BTreeSet::new();
    let mut in_rules = 0;
    for (name, src) in crate_sources() {
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for file in files {
            if !names_a_game(&code_of_file(&file)) {
                continue;
            }
            if name == "oddity-rules" {
                in_rules += 1;
            } else {
                let rel = file.strip_prefix(ROOT).unwrap();
                outside.insert(rel.to_str().unwrap().to_string());
            }
        }
    }
    let doc = doc();
    let start = doc
        .find("<!-- files that name a game -->")
        .expect("the list of files that name a game");
    let listed: BTreeSet<String> = doc[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("- "))
        .map(|l| l.split('`').nth(1).unwrap_or_default().to_string())
        .collect();
    assert_eq!(
        listed, outside,
        "the files outside the rules that name a game"
    );
    assert!(
        doc.contains(&format!("and {in_rules} files of the rules crate")),
        "the rules crate has {in_rules} files that name a game"
    );
}

// --- Options typed once ---

/// The text of `struct NAME { ... }` in `code`.
fn struct_body<'a>(code: &'a str, name: &str) -> &'a str {
    let start = code
        .find(&format!("pub struct {name} {{"))
        .unwrap_or_else(|| panic!("no struct {name}"));
    let end = code[start..].find("\n}").unwrap();
    &code[start..start + end]
}

#[test]
fn search_time_and_threads_are_one_type() {
    let cli = Path::new(ROOT).join("src/cli");
    let mut files = Vec::new();
    rust_files(&cli, &mut files);
    for file in &files {
        let code = code_of_file(file);
        let name = file.file_name().unwrap().to_str().unwrap();
        // `args.rs` has the shared type; `gtp.rs` the engine's options,
        // typed in src/gtp/values.rs (where `--time 0` means no limit).
        if name != "args.rs" && name != "gtp.rs" {
            for field in ["pub time:", "pub threads:", "pub seconds:"] {
                assert!(
                    !code.contains(field),
                    "{name} declares `{field}` of its own: flatten SearchBudget instead"
                );
            }
        }
        assert!(
            !code.contains("bounds::seconds(") && !code.contains("bounds::threads("),
            "{name} checks a time or a number of threads by hand: clap reads them into SearchBudget"
        );
    }
    for (file, args) in SEARCHING_COMMANDS {
        let code = code_of_file(&cli.join(format!("{file}.rs")));
        assert!(
            struct_body(&code, args).contains("#[command(flatten)]\n    pub budget: SearchBudget,"),
            "{args} takes --time and --threads as SearchBudget"
        );
    }
    let shared = code_of_file(&cli.join("args.rs"));
    let budget = struct_body(&shared, "SearchBudget");
    assert!(budget.contains("value_parser = values::search_seconds"));
    assert!(budget.contains("value_parser = values::threads"));
    let doc = doc();
    for (file, _) in SEARCHING_COMMANDS {
        let command = if file == "train" { "train-data" } else { file };
        assert!(
            doc.contains(&format!("`{command}`")),
            "docs/architecture.md should name `{command}` among the commands that take SearchBudget"
        );
    }
}

#[test]
fn every_core_is_asked_of_the_search() {
    let mut files = Vec::new();
    for (_, src) in crate_sources() {
        rust_files(&src, &mut files);
    }
    let asking: Vec<_> = files
        .iter()
        .filter(|f| code_of_file(f).contains("available_parallelism"))
        .map(|f| f.strip_prefix(ROOT).unwrap().to_path_buf())
        .collect();
    assert_eq!(
        asking,
        [PathBuf::from("crates/oddity-search/src/params.rs")],
        "\"every core\" is oddity_search::every_core()"
    );
}

// --- The document's file names ---

#[test]
fn every_file_the_document_names_exists() {
    let doc = doc();
    for name in doc.split('`').skip(1).step_by(2) {
        let is_path = ["crates/", "src/", "tests/", "docs/"]
            .iter()
            .any(|p| name.starts_with(p))
            && !name.contains(' ')
            && !name.contains("NEW");
        if is_path {
            assert!(
                Path::new(ROOT).join(name).exists(),
                "docs/architecture.md names {name}, which does not exist"
            );
        }
    }
}
