//! What the compiler cannot say about the house, checked against the code
//! and against docs/architecture.md. Cargo keeps the layers: a crate cannot
//! name a crate its manifest does not list, and the manifests form no
//! circle. This test reads the manifests through `cargo metadata` and the
//! code through a Rust parser (`syn`), and checks that the crates' arrows
//! only go down the documented layers, that the document's picture and
//! table are the manifests', that no crate's modules form a circle or name
//! their parent, that no code outside the rules compares game kinds or
//! game names or lists the games by hand, which files name a game, that
//! the search arguments of every command are one type, and that every file
//! the document names exists.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use oddity_rules::GameKind;
use quote::ToTokens;
use syn::visit::Visit;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The workspace's packages in layers, lowest first. A package depends
/// only on packages of lower layers: nothing sideways, nothing up.
const LAYERS: [(&str, &[&str]); 7] = [
    ("foundations", &["oddity-rules", "oddity-lines"]),
    (
        "knowledge, findings and engine processes",
        &[
            "oddity-solver",
            "oddity-patterns",
            "oddity-fairness",
            "oddity-client",
        ],
    ),
    ("pictures", &["oddity-render"]),
    ("the search and its configuration", &["oddity-search"]),
    ("the page's session", &["oddity-session"]),
    (
        "the application's layers",
        &[
            "oddity-gtp",
            "oddity-analysis",
            "oddity-tournament",
            "oddity-gui",
            "oddity-web",
        ],
    ),
    ("the command line", &["oddity"]),
];

/// The commands that search by themselves, each flattening `EngineArgs`
/// (its file in `src/cli/` and its `Args` type).
const SEARCHING_COMMANDS: [(&str, &str); 7] = [
    ("gtp", "GtpArgs"),
    ("analyze", "AnalyzeArgs"),
    ("analysis", "AnalysisArgs"),
    ("accuracy", "AccuracyArgs"),
    ("bench", "BenchArgs"),
    ("openings", "OpeningsArgs"),
    ("train", "TrainDataArgs"),
];

/// The options of `EngineArgs`: the names of `EngineConfig::set`.
const ENGINE_OPTIONS: [&str; 7] = oddity_search::config::NAMES;

fn doc() -> String {
    fs::read_to_string(Path::new(ROOT).join("docs/architecture.md")).unwrap()
}

fn layer_of(package: &str) -> usize {
    LAYERS
        .iter()
        .position(|(_, names)| names.contains(&package))
        .unwrap_or_else(|| panic!("{package}: a new package; give it a layer in LAYERS"))
}

// --- The packages, as Cargo has them ---

/// A package of the workspace: its name, where its code is, and the
/// names of its normal (not dev, not build) dependencies.
struct Package {
    name: String,
    src: PathBuf,
    dependencies: BTreeSet<String>,
}

fn packages() -> Vec<Package> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .current_dir(ROOT)
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut packages: Vec<Package> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let manifest = PathBuf::from(p["manifest_path"].as_str().unwrap());
            Package {
                name: p["name"].as_str().unwrap().to_string(),
                src: manifest.parent().unwrap().join("src"),
                dependencies: p["dependencies"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|d| d["kind"].is_null())
                    .map(|d| d["name"].as_str().unwrap().to_string())
                    .collect(),
            }
        })
        .collect();
    packages.sort_by_key(|p| (layer_of(&p.name), p.name.clone()));
    packages
}

fn ours(deps: &BTreeSet<String>) -> impl Iterator<Item = &String> {
    deps.iter().filter(|d| d.starts_with("oddity-"))
}

#[test]
fn every_arrow_goes_down_the_layers() {
    for package in packages() {
        let from = layer_of(&package.name);
        for dep in ours(&package.dependencies) {
            assert!(
                layer_of(dep) < from,
                "{} ({}) depends on {dep} ({}): an arrow sideways or up",
                package.name,
                LAYERS[from].0,
                LAYERS[layer_of(dep)].0
            );
        }
    }
}

/// The picture: a Mermaid graph of the packages, each arrow from a user to
/// what it uses, in layers.
fn picture() -> String {
    let packages = packages();
    let mut text = String::from("```mermaid\ngraph BT\n");
    for (what, names) in LAYERS {
        text += &format!("    subgraph \"{what}\"\n");
        for name in names {
            text += &format!("        {}[\"{name}\"]\n", short(name));
        }
        text += "    end\n";
    }
    for package in &packages {
        for dep in ours(&package.dependencies) {
            text += &format!("    {} --> {}\n", short(&package.name), short(dep));
        }
    }
    text + "```\n"
}

/// A package's name in the picture: without `oddity-` (the application
/// is `oddity`).
fn short(name: &str) -> &str {
    name.strip_prefix("oddity-").unwrap_or(name)
}

#[test]
fn the_documented_picture_is_drawn_from_the_manifests() {
    let expected = picture();
    assert!(
        doc().contains(&expected),
        "docs/architecture.md should hold the layers as the manifests have them:\n{expected}"
    );
}

/// The table row of `name` in the document's package table: its columns.
fn table_row(doc: &str, name: &str) -> Vec<String> {
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
    for package in packages() {
        let row = table_row(&doc, &package.name);
        let (oddity, others): (BTreeSet<String>, BTreeSet<String>) = package
            .dependencies
            .iter()
            .cloned()
            .partition(|d| d.starts_with("oddity-"));
        assert_eq!(
            quoted(&row[1]),
            oddity,
            "{}: the crates it uses",
            package.name
        );
        if package.name == "oddity" {
            for dep in quoted(&row[2]) {
                assert!(
                    others.contains(&dep),
                    "the application does not depend on {dep}"
                );
            }
        } else {
            assert_eq!(
                quoted(&row[2]),
                others,
                "{}: its dependencies",
                package.name
            );
        }
    }
}

// --- The code, as the parser reads it ---

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

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs
        .iter()
        .any(|a| a.path().is_ident("cfg") && a.meta.to_token_stream().to_string().contains("test"))
}

/// A file's items without those compiled for tests only.
fn parse(text: &str, file: &Path) -> Vec<syn::Item> {
    let parsed = syn::parse_file(text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    parsed
        .items
        .into_iter()
        .filter(|item| !is_test_only(item_attrs(item)))
        .collect()
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Macro(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// The code of a file as tokens without spaces (for looking up names),
/// tests and comments left out.
fn tokens(items: &[syn::Item]) -> String {
    let mut text = String::new();
    for item in items {
        text += &item.to_token_stream().to_string();
    }
    text.split_whitespace().collect()
}

/// Every module of a crate: its path (`a::b`, the root is ``) and its file.
fn modules(src: &Path) -> BTreeMap<String, PathBuf> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files
        .into_iter()
        .filter_map(|file| {
            let rel = file.strip_prefix(src).unwrap().with_extension("");
            let mut parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_str().unwrap().to_string())
                .collect();
            if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
                parts.pop();
            }
            // Binaries (src/main.rs, src/bin/) are not modules of the library.
            if parts.first().is_some_and(|p| p == "main" || p == "bin") {
                return None;
            }
            Some((parts.join("::"), file))
        })
        .collect()
}

/// Every path a module's code names (in `use` trees, expressions, types
/// and patterns), as segments.
#[derive(Default)]
struct Paths(Vec<Vec<String>>);

impl Paths {
    fn add_use(&mut self, prefix: &[String], tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                let mut next = prefix.to_vec();
                next.push(p.ident.to_string());
                self.add_use(&next, &p.tree);
            }
            syn::UseTree::Name(n) => self.push(prefix, &n.ident),
            syn::UseTree::Rename(r) => self.push(prefix, &r.ident),
            syn::UseTree::Glob(_) => self.0.push(prefix.to_vec()),
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    self.add_use(prefix, tree);
                }
            }
        }
    }

    fn push(&mut self, prefix: &[String], ident: &syn::Ident) {
        let mut path = prefix.to_vec();
        if ident != "self" {
            path.push(ident.to_string());
        }
        self.0.push(path);
    }
}

impl<'a> Visit<'a> for Paths {
    fn visit_item_use(&mut self, item: &'a syn::ItemUse) {
        self.add_use(&[], &item.tree);
    }

    fn visit_item_mod(&mut self, item: &'a syn::ItemMod) {
        if !is_test_only(&item.attrs) {
            syn::visit::visit_item_mod(self, item);
        }
    }

    fn visit_macro(&mut self, mac: &'a syn::Macro) {
        // Arguments that read as expressions (`format!`, `assert_eq!`, …).
        let parser = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
        if let Ok(args) = mac.parse_body_with(parser) {
            for arg in &args {
                self.visit_expr(arg);
            }
        }
        syn::visit::visit_macro(self, mac);
    }

    // `pub(crate)` and `pub(super)` say who may see an item, not what it uses.
    fn visit_visibility(&mut self, _: &'a syn::Visibility) {}

    fn visit_path(&mut self, path: &'a syn::Path) {
        self.0
            .push(path.segments.iter().map(|s| s.ident.to_string()).collect());
        syn::visit::visit_path(self, path);
    }
}

fn names_of(items: &[syn::Item]) -> Vec<Vec<String>> {
    let mut paths = Paths::default();
    for item in items {
        paths.visit_item(item);
    }
    paths.0
}

fn parent(module: &str) -> String {
    module.rsplit_once("::").map_or("", |(p, _)| p).to_string()
}

fn join(module: &str, name: &str) -> String {
    if module.is_empty() {
        name.to_string()
    } else {
        format!("{module}::{name}")
    }
}

/// The module of this crate that a path names from `from` (the longest
/// known module its segments spell), if any.
fn target(from: &str, path: &[String], mods: &BTreeSet<String>) -> Option<String> {
    let first = path.first()?.as_str();
    let (mut at, rest) = match first {
        "crate" => (String::new(), &path[1..]),
        "self" => (from.to_string(), &path[1..]),
        "super" => (parent(from), &path[1..]),
        _ if mods.contains(&join(from, first)) => (from.to_string(), path),
        _ => return None,
    };
    let mut segments = rest.iter().peekable();
    while segments.peek().is_some_and(|s| *s == "super") {
        at = parent(&at);
        segments.next();
    }
    for segment in segments {
        let next = join(&at, segment);
        if !mods.contains(&next) {
            break;
        }
        at = next;
    }
    Some(at)
}

/// Module -> the modules it names, and the modules naming one of their
/// ancestors (module, ancestor).
struct ModuleGraph {
    edges: BTreeMap<String, BTreeSet<String>>,
    upward: Vec<(String, String, String)>,
}

fn module_graph(sources: &BTreeMap<String, Vec<Vec<String>>>) -> ModuleGraph {
    let mods: BTreeSet<String> = sources.keys().cloned().collect();
    let mut graph = ModuleGraph {
        edges: BTreeMap::new(),
        upward: Vec::new(),
    };
    for (from, paths) in sources {
        let entry = graph.edges.entry(from.clone()).or_default();
        for path in paths {
            let Some(to) = target(from, path, &mods) else {
                continue;
            };
            let is_ancestor =
                to.is_empty() && !from.is_empty() || from.starts_with(&format!("{to}::"));
            if to == *from {
                continue;
            } else if is_ancestor {
                graph.upward.push((from.clone(), to, path.join("::")));
            } else {
                entry.insert(to);
            }
        }
    }
    graph
}

/// The circles of a graph, each as the modules along it.
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    fn walk(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        found: &mut Vec<Vec<String>>,
    ) {
        if let Some(at) = stack.iter().position(|n| n == node) {
            found.push(stack[at..].to_vec());
            return;
        }
        if done.contains(node) {
            return;
        }
        stack.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            walk(next, edges, stack, done, found);
        }
        stack.pop();
        done.insert(node.to_string());
    }
    let mut found = Vec::new();
    let mut done = BTreeSet::new();
    for node in edges.keys() {
        walk(node, edges, &mut Vec::new(), &mut done, &mut found);
    }
    found
}

fn sources_of(src: &Path) -> BTreeMap<String, Vec<Vec<String>>> {
    modules(src)
        .into_iter()
        .map(|(module, file)| {
            let items = parse(&fs::read_to_string(&file).unwrap(), &file);
            (module, names_of(&items))
        })
        .collect()
}

#[test]
fn no_crate_has_a_module_circle_or_a_child_naming_its_parent() {
    let mut faults = Vec::new();
    for package in packages() {
        let graph = module_graph(&sources_of(&package.src));
        for (from, to, path) in graph.upward {
            faults.push(format!(
                "{}: {from} names its ancestor `{to}` ({path})",
                package.name
            ));
        }
        for circle in circles(&graph.edges) {
            faults.push(format!("{}: circle {}", package.name, circle.join(" -> ")));
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

fn graph_of(files: &[(&str, &str)]) -> ModuleGraph {
    let sources = files
        .iter()
        .map(|(module, code)| {
            let items = parse(code, Path::new(module));
            (module.to_string(), names_of(&items))
        })
        .collect();
    module_graph(&sources)
}

#[test]
fn the_module_check_sees_every_kind_of_path() {
    // Relative `use`, `crate::`, `super::` and a path in an expression.
    let graph = graph_of(&[
        ("", "mod a; mod b; mod c;"),
        ("a", "pub(crate) use b_inner::X; mod b_inner;"),
        ("a::b_inner", "fn f() { super::super::c::g(); }"),
        ("b", "use crate::a::X;"),
        ("c", "fn g() -> u8 { crate::b::h() }"),
    ]);
    assert!(graph.edges["a"].contains("a::b_inner"));
    assert!(graph.edges["a::b_inner"].contains("c"));
    assert_eq!(circles(&graph.edges).len(), 1, "{:?}", graph.edges);
    // A child naming its parent, also through `self` in a `use` group.
    let graph = graph_of(&[
        ("", "mod a;"),
        ("a", "mod b;"),
        ("a::b", "use super::{self as up};"),
    ]);
    assert_eq!(
        graph.upward,
        [("a::b".to_string(), "a".to_string(), "super".to_string())]
    );
    // Strings, comments and tests draw nothing.
    let graph = graph_of(&[
        ("", "mod a; mod b;"),
        ("a", "// crate::b\nconst S: &str = \"use crate::b;\";"),
        ("b", "#[cfg(test)]\nmod tests { use crate::a; }"),
    ]);
    assert!(graph.edges["a"].is_empty() && graph.edges["b"].is_empty());
}

// --- Game kinds outside the rules ---

/// The comparisons of game or board kinds in a file: `==` and `!=` with a
/// kind on either side, `if let` and `let … else` patterns naming one, and
/// macros (`matches!`, `assert_eq!`, …) naming one.
#[derive(Default)]
struct KindComparisons(Vec<String>);

fn names_a_kind(text: &str) -> bool {
    let flat: String = text.split_whitespace().collect();
    flat.contains("GameKind::") || flat.contains("BoardKind::")
}

impl<'a> Visit<'a> for KindComparisons {
    fn visit_expr_binary(&mut self, e: &'a syn::ExprBinary) {
        if matches!(e.op, syn::BinOp::Eq(_) | syn::BinOp::Ne(_)) {
            let sides = [&e.left, &e.right].map(|s| s.to_token_stream().to_string());
            if sides.iter().any(|s| names_a_kind(s)) {
                self.0.push(e.to_token_stream().to_string());
            }
        }
        syn::visit::visit_expr_binary(self, e);
    }

    fn visit_expr_let(&mut self, e: &'a syn::ExprLet) {
        if names_a_kind(&e.pat.to_token_stream().to_string()) {
            self.0.push(e.to_token_stream().to_string());
        }
        syn::visit::visit_expr_let(self, e);
    }

    fn visit_local(&mut self, local: &'a syn::Local) {
        if local.init.as_ref().is_some_and(|i| i.diverge.is_some())
            && names_a_kind(&local.pat.to_token_stream().to_string())
        {
            self.0.push(local.to_token_stream().to_string());
        }
        syn::visit::visit_local(self, local);
    }

    fn visit_macro(&mut self, mac: &'a syn::Macro) {
        if names_a_kind(&mac.tokens.to_string()) {
            self.0.push(mac.to_token_stream().to_string());
        }
    }

    fn visit_item_mod(&mut self, item: &'a syn::ItemMod) {
        if !is_test_only(&item.attrs) {
            syn::visit::visit_item_mod(self, item);
        }
    }
}

fn kind_comparisons(items: &[syn::Item]) -> Vec<String> {
    let mut found = KindComparisons::default();
    for item in items {
        found.visit_item(item);
    }
    found.0
}

#[test]
fn only_the_rules_compare_game_kinds() {
    let mut wrong = Vec::new();
    for package in packages() {
        if package.name == "oddity-rules" {
            continue;
        }
        let mut files = Vec::new();
        rust_files(&package.src, &mut files);
        for file in files {
            let items = parse(&fs::read_to_string(&file).unwrap(), &file);
            for c in kind_comparisons(&items) {
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
fn the_kind_check_sees_every_form_of_comparison() {
    let code = "fn f() {
        if kind
            == GameKind::Xodd { }
        let b = topo.kind != BoardKind::Onyx;
        let m = matches!(k, GameKind::Odd | GameKind::Onyx);
        assert_eq!(spec.kind, GameKind::Onyx, \"only Onyx\");
        if let GameKind::Odd = kind { }
        let GameKind::Onyx = kind else { return };
        match kind { GameKind::Odd => 1, _ => 2 };
    }";
    let found = kind_comparisons(&parse(code, Path::new("example")));
    assert_eq!(found.len(), 6, "{found:?}");
    let exhaustive = "fn f() { match kind { GameKind::Odd => 1, GameKind::Onyx => 2 }; }
        const S: &str = \"kind == GameKind::Odd\";";
    assert!(kind_comparisons(&parse(exhaustive, Path::new("example"))).is_empty());
}

// --- Game names outside the rules ---

/// Whether a string names a game, as the rules read names (any case).
fn is_a_game_name(text: &str) -> bool {
    GameKind::parse(text).is_some()
}

/// Whether an expression is a game's name: a string literal naming a game,
/// or a call of `.name()` (`kind.name()`), behind references and brackets.
/// The parser sees no types, so any `.name()` counts: compare what the
/// name stands for instead.
fn is_game_name(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => is_a_game_name(&s.value()),
        syn::Expr::MethodCall(m) => m.method == "name" && m.args.is_empty(),
        syn::Expr::Reference(r) => is_game_name(&r.expr),
        syn::Expr::Paren(p) => is_game_name(&p.expr),
        _ => false,
    }
}

/// `matches!`'s arguments: the expression and the pattern (a guard after
/// it is skipped).
fn matches_args(input: syn::parse::ParseStream) -> syn::Result<(syn::Expr, syn::Pat)> {
    let expr = input.parse()?;
    input.parse::<syn::Token![,]>()?;
    let pat = syn::Pat::parse_multi_with_leading_vert(input)?;
    input.step(|cursor| {
        let mut rest = *cursor;
        while let Some((_, next)) = rest.token_tree() {
            rest = next;
        }
        Ok(((), rest))
    })?;
    Ok((expr, pat))
}

/// The comparisons of game names in a file: `==` and `!=` with a game's
/// name on either side, string patterns naming a game (`match`,
/// `matches!`, `if let`), and `assert_eq!`/`assert_ne!` with a game's name.
#[derive(Default)]
struct NameComparisons(Vec<String>);

impl<'a> Visit<'a> for NameComparisons {
    fn visit_expr_binary(&mut self, e: &'a syn::ExprBinary) {
        if matches!(e.op, syn::BinOp::Eq(_) | syn::BinOp::Ne(_))
            && (is_game_name(&e.left) || is_game_name(&e.right))
        {
            self.0.push(e.to_token_stream().to_string());
        }
        syn::visit::visit_expr_binary(self, e);
    }

    fn visit_pat(&mut self, p: &'a syn::Pat) {
        if let syn::Pat::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) = p
            && is_a_game_name(&s.value())
        {
            self.0.push(p.to_token_stream().to_string());
        }
        syn::visit::visit_pat(self, p);
    }

    fn visit_macro(&mut self, mac: &'a syn::Macro) {
        let name = mac
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        if name == "matches" {
            if let Ok((expr, pat)) = mac.parse_body_with(matches_args) {
                self.visit_expr(&expr);
                self.visit_pat(&pat);
            }
            return;
        }
        let parser = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
        if let Ok(args) = mac.parse_body_with(parser) {
            if (name.ends_with("assert_eq") || name.ends_with("assert_ne"))
                && args.iter().take(2).any(is_game_name)
            {
                self.0.push(mac.to_token_stream().to_string());
            }
            for arg in &args {
                self.visit_expr(arg);
            }
        }
    }

    fn visit_item_mod(&mut self, item: &'a syn::ItemMod) {
        if !is_test_only(&item.attrs) {
            syn::visit::visit_item_mod(self, item);
        }
    }
}

fn name_comparisons(items: &[syn::Item]) -> Vec<String> {
    let mut found = NameComparisons::default();
    for item in items {
        found.visit_item(item);
    }
    found.0
}

/// The packages that can ask the rules for a game: every one that uses
/// the rules crate, but the rules crate itself.
fn users_of_the_rules() -> Vec<Package> {
    packages()
        .into_iter()
        .filter(|p| p.dependencies.contains("oddity-rules"))
        .collect()
}

#[test]
fn only_the_rules_compare_game_names() {
    let mut wrong = Vec::new();
    for package in users_of_the_rules() {
        let mut files = Vec::new();
        rust_files(&package.src, &mut files);
        for file in files {
            let items = parse(&fs::read_to_string(&file).unwrap(), &file);
            for c in name_comparisons(&items) {
                wrong.push(format!("{}: {c}", file.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "game names compared outside the rules crate (read the name into a GameKind where \
         it comes in, and compare kinds):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_name_check_sees_every_form_of_comparison() {
    let code = r#"fn f() {
        if w.game != kind.name() { }
        let same = "odd" == header.game;
        let b = x.game == &("Onyx");
        assert_eq!(r.game, "xodd", "only Xodd");
        assert!(spec.kind.name() != r.game);
        let m = matches!(name.as_str(), "yodd" | "odd");
        match name { "onyx" => 1, _ => 2 };
        if let "xodd" = name { }
    }"#;
    let found = name_comparisons(&parse(code, Path::new("example")));
    assert_eq!(found.len(), 9, "{found:?}");
    let fine = r#"fn f() {
        if r.reason == "time forfeit" { }
        let same = r.game == kind;
        let text = format!("{} {}", kind.name(), "odd");
        let parity = if (b + w) % 2 == 1 { "odd" } else { "even" };
        match name { "pass" => 1, _ => 2 };
    }
    const S: &str = "x.game == kind.name()";
    #[cfg(test)]
    mod tests { fn t() { assert_eq!(w.game, "odd"); } }"#;
    let found = name_comparisons(&parse(fine, Path::new("example")));
    assert!(found.is_empty(), "{found:?}");
}

// --- The games, listed once ---

/// The array literals that list games by hand: two or more game kinds
/// (`GameKind::Odd`) or game names (`"odd"`) among their elements.
#[derive(Default)]
struct HandLists(Vec<String>);

fn is_listed_game(e: &syn::Expr) -> bool {
    let is_kind = |e: &syn::Expr| match e {
        syn::Expr::Path(p) => {
            let segments: Vec<String> = p
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            segments.len() == 2 && segments[0] == "GameKind" && is_a_game_name(&segments[1])
        }
        _ => false,
    };
    is_kind(e) || matches!(e, syn::Expr::Lit(_)) && is_game_name(e)
}

impl<'a> Visit<'a> for HandLists {
    fn visit_expr_array(&mut self, a: &'a syn::ExprArray) {
        if a.elems.iter().filter(|e| is_listed_game(e)).count() >= 2 {
            self.0.push(a.to_token_stream().to_string());
        }
        syn::visit::visit_expr_array(self, a);
    }

    fn visit_macro(&mut self, mac: &'a syn::Macro) {
        // `vec![…]` and other macros whose arguments read as expressions.
        let parser = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
        if let Ok(args) = mac.parse_body_with(parser) {
            if args.iter().filter(|e| is_listed_game(e)).count() >= 2 {
                self.0.push(mac.to_token_stream().to_string());
            }
            for arg in &args {
                self.visit_expr(arg);
            }
        }
    }

    fn visit_item_mod(&mut self, item: &'a syn::ItemMod) {
        if !is_test_only(&item.attrs) {
            syn::visit::visit_item_mod(self, item);
        }
    }
}

fn hand_lists(items: &[syn::Item]) -> Vec<String> {
    let mut found = HandLists::default();
    for item in items {
        found.visit_item(item);
    }
    found.0
}

/// What adding a game touches outside the rules: the exhaustive matches
/// the compiler points at, and nothing else. No code lists the games by
/// hand; the list the page's new-game form offers (`/api/games`) and the
/// boards of the balance study and its report are made from
/// `GameKind::ALL`, and the command line's `--game` help names every game.
#[test]
fn the_games_are_listed_once() {
    let mut wrong = Vec::new();
    for package in users_of_the_rules() {
        let mut files = Vec::new();
        rust_files(&package.src, &mut files);
        for file in files {
            let items = parse(&fs::read_to_string(&file).unwrap(), &file);
            for list in hand_lists(&items) {
                wrong.push(format!("{}: {list}", file.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "games listed by hand outside the rules crate (use GameKind::ALL):\n{}",
        wrong.join("\n")
    );
    for file in [
        "crates/oddity-session/src/catalogue.rs",
        "crates/oddity-tournament/src/balance_report.rs",
    ] {
        let path = Path::new(ROOT).join(file);
        let items = parse(&fs::read_to_string(&path).unwrap(), &path);
        assert!(
            tokens(&items).contains("GameKind::ALL"),
            "{file} should take the games from GameKind::ALL"
        );
    }
    let help = Command::new(env!("CARGO_BIN_EXE_oddity"))
        .args(["perft", "-h"])
        .output()
        .expect("oddity runs");
    let help = String::from_utf8_lossy(&help.stdout);
    let line = help
        .lines()
        .find(|l| l.contains("--game"))
        .unwrap_or_else(|| panic!("no --game in the help:\n{help}"));
    for kind in GameKind::ALL {
        assert!(
            line.contains(kind.name()),
            "the --game help leaves out {kind}: {line}"
        );
    }
}

#[test]
fn the_list_check_sees_games_listed_by_hand() {
    let code = r#"
        const GAMES: [&str; 2] = ["xodd", "yodd"];
        fn f() -> Vec<GameKind> { vec![GameKind::Odd, GameKind::Onyx] }
        fn g() { for k in [GameKind::Xodd, GameKind::Yodd, other] { } }
    "#;
    let found = hand_lists(&parse(code, Path::new("example")));
    assert_eq!(found.len(), 3, "{found:?}");
    let fine = r#"
        const NAMES: [&str; 2] = ["odd", "even"];
        fn f() { for k in GameKind::ALL { } let one = [GameKind::Odd]; }
    "#;
    assert!(hand_lists(&parse(fine, Path::new("example"))).is_empty());
}

// --- Which files name a game ---

/// Whether the code names a game's type or kind (Onyx's, standing for all).
fn names_a_game(flat: &str) -> bool {
    [
        "GameKind::Onyx",
        "OnyxGame",
        "BoardKind::Onyx",
        "Onyx128",
        "Onyx256",
        "Onyx640",
    ]
    .iter()
    .any(|n| flat.contains(n))
}

#[test]
fn the_files_that_name_a_game_are_the_documented_ones() {
    let mut outside = BTreeSet::new();
    let mut in_rules = 0;
    for package in packages() {
        let mut files = Vec::new();
        rust_files(&package.src, &mut files);
        for file in files {
            let items = parse(&fs::read_to_string(&file).unwrap(), &file);
            if !names_a_game(&tokens(&items)) {
                continue;
            }
            if package.name == "oddity-rules" {
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

fn structs_of(file: &Path) -> BTreeMap<String, syn::ItemStruct> {
    parse(&fs::read_to_string(file).unwrap(), file)
        .into_iter()
        .filter_map(|item| match item {
            syn::Item::Struct(s) => Some((s.ident.to_string(), s)),
            _ => None,
        })
        .collect()
}

fn field<'a>(s: &'a syn::ItemStruct, name: &str) -> Option<&'a syn::Field> {
    s.fields
        .iter()
        .find(|f| f.ident.as_ref().is_some_and(|i| i == name))
}

fn attrs_text(f: &syn::Field) -> String {
    f.attrs
        .iter()
        .map(|a| a.to_token_stream().to_string())
        .collect::<String>()
        .split_whitespace()
        .collect()
}

#[test]
fn the_engines_options_are_one_type() {
    let cli = Path::new(ROOT).join("src/cli");
    let mut files = Vec::new();
    rust_files(&cli, &mut files);
    for file in &files {
        let name = file.file_name().unwrap().to_str().unwrap();
        if name == "args.rs" {
            continue;
        }
        let options = structs_of(file).into_values().filter(|s| {
            s.attrs.iter().any(|a| {
                let text = a.to_token_stream().to_string();
                text.contains("derive") && (text.contains("Args") || text.contains("Parser"))
            })
        });
        for s in options {
            // A seed also orders openings and games: only the limits and
            // the policy are the engine's alone.
            for own in ENGINE_OPTIONS.into_iter().filter(|o| *o != "seed") {
                let Some(f) = field(&s, own) else { continue };
                // The solver's own limits, read by the configuration's readers.
                assert!(
                    s.ident == "SolveArgs" && attrs_text(f).contains("value_parser=config::"),
                    "{name}: {} declares `{own}` of its own: flatten EngineArgs instead",
                    s.ident
                );
            }
            // Every time a command reads is read by the one reader.
            for f in s.fields.iter() {
                if f.ty.to_token_stream().to_string().contains("Duration") {
                    assert!(
                        attrs_text(f).contains("value_parser=config::"),
                        "{name}: {}::{} reads a time without oddity_search::config",
                        s.ident,
                        f.ident.as_ref().unwrap()
                    );
                }
            }
        }
        let flat = tokens(&parse(&fs::read_to_string(file).unwrap(), file));
        assert!(
            !flat.contains("from_secs_f64("),
            "{name} makes a time of a number by hand: read it with oddity_search::config"
        );
    }
    for (file, args) in SEARCHING_COMMANDS {
        let structs = structs_of(&cli.join(format!("{file}.rs")));
        let engine = structs[args]
            .fields
            .iter()
            .find(|f| f.ty.to_token_stream().to_string() == "EngineArgs")
            .unwrap_or_else(|| panic!("{args} has no EngineArgs field"));
        assert!(
            attrs_text(engine).contains("#[command(flatten)]"),
            "{args} takes the engine's options as a flattened EngineArgs"
        );
    }
    let shared = structs_of(&cli.join("args.rs"));
    for own in ENGINE_OPTIONS {
        let f = field(&shared["EngineArgs"], own).unwrap();
        assert!(
            attrs_text(f).contains(&format!("value_parser=checked(\"{own}\")")),
            "EngineArgs::{own} is checked by EngineConfig::set"
        );
    }
    let doc = doc();
    for (file, _) in SEARCHING_COMMANDS {
        let command = if file == "train" { "train-data" } else { file };
        assert!(
            doc.contains(&format!("`{command}`")),
            "docs/architecture.md should name `{command}` among the commands that take EngineArgs"
        );
    }
}

#[test]
fn every_core_is_asked_of_the_search() {
    let mut asking = Vec::new();
    for package in packages() {
        let mut files = Vec::new();
        rust_files(&package.src, &mut files);
        for file in files {
            let items = parse(&fs::read_to_string(&file).unwrap(), &file);
            if tokens(&items).contains("available_parallelism") {
                asking.push(file.strip_prefix(ROOT).unwrap().to_path_buf());
            }
        }
    }
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

/// Where a crate's types are defined and their own methods written.
struct TypeHomes {
    /// Each type name with the files that define a type of that name.
    defined: BTreeMap<String, Vec<PathBuf>>,
    /// Each inherent `impl` block: its type's name and its file.
    impls: Vec<(String, PathBuf)>,
}

/// The types of `files` and their inherent `impl` blocks, from the files'
/// top-level items and inline modules.
fn types_and_impls(files: &[PathBuf]) -> TypeHomes {
    fn walk(
        items: &[syn::Item],
        file: &Path,
        defined: &mut BTreeMap<String, Vec<PathBuf>>,
        impls: &mut Vec<(String, PathBuf)>,
    ) {
        for item in items {
            match item {
                syn::Item::Struct(s) => defined
                    .entry(s.ident.to_string())
                    .or_default()
                    .push(file.to_path_buf()),
                syn::Item::Enum(e) => defined
                    .entry(e.ident.to_string())
                    .or_default()
                    .push(file.to_path_buf()),
                syn::Item::Impl(i) if i.trait_.is_none() => {
                    if let syn::Type::Path(p) = &*i.self_ty
                        && let Some(last) = p.path.segments.last()
                    {
                        impls.push((last.ident.to_string(), file.to_path_buf()));
                    }
                }
                syn::Item::Mod(m) if !is_test_only(&m.attrs) => {
                    if let Some((_, inner)) = &m.content {
                        walk(inner, file, defined, impls);
                    }
                }
                _ => {}
            }
        }
    }
    let mut defined = BTreeMap::new();
    let mut impls = Vec::new();
    for file in files {
        let items = parse(&fs::read_to_string(file).unwrap(), file);
        walk(&items, file, &mut defined, &mut impls);
    }
    TypeHomes { defined, impls }
}

/// The application's crates: sessions, front ends and tools.
const APPLICATION: [&str; 8] = [
    "oddity-session",
    "oddity-gtp",
    "oddity-web",
    "oddity-gui",
    "oddity-analysis",
    "oddity-tournament",
    "oddity-client",
    "oddity",
];

/// In the application's crates a type's own methods are where the type
/// is: no struct is spread over files by `impl` blocks elsewhere (handlers
/// that work on a session are functions given it, not its methods).
#[test]
fn a_types_methods_are_in_its_own_file() {
    let mut spread = Vec::new();
    let all = packages();
    for name in APPLICATION {
        assert!(all.iter().any(|p| p.name == name), "no package {name}");
    }
    for package in all
        .iter()
        .filter(|p| APPLICATION.contains(&p.name.as_str()))
    {
        let mut files = Vec::new();
        rust_files(&package.src, &mut files);
        let TypeHomes { defined, impls } = types_and_impls(&files);
        for (name, file) in impls {
            let Some(homes) = defined.get(&name) else {
                continue;
            };
            if homes.len() == 1 && homes[0] != file {
                spread.push(format!(
                    "{name}: defined in {}, methods in {}",
                    homes[0].strip_prefix(ROOT).unwrap().display(),
                    file.strip_prefix(ROOT).unwrap().display()
                ));
            }
        }
    }
    assert!(spread.is_empty(), "{spread:#?}");
}

#[test]
fn the_methods_check_sees_an_impl_in_another_file() {
    let dir = std::env::temp_dir().join(format!("oddity-arch-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("a.rs"), dir.join("b.rs"));
    fs::write(
        &a,
        "pub struct Session { quit: bool }\nimpl Session { fn new() {} }\n",
    )
    .unwrap();
    fs::write(
        &b,
        "impl Session { fn play(&mut self) {} }\nimpl Clone for Session { }\n",
    )
    .unwrap();
    let homes = types_and_impls(&[a.clone(), b.clone()]);
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(homes.defined["Session"], std::slice::from_ref(&a));
    assert_eq!(
        homes.impls,
        [("Session".to_string(), a), ("Session".to_string(), b)]
    );
}
