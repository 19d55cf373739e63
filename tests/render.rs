//! Board pictures: every SVG is well-formed XML with one clickable element
//! per cell or point, named as the protocol names it; a rasterised PNG shows
//! the stone colour on occupied cells, the board colour on empty ones and
//! the heat colour where the heat map says.

use std::collections::BTreeSet;

use oddity::analysis::setup::replay;
use oddity::render::geometry::{CellKind, Geometry};
use oddity::render::{HeatMap, Picture, Rgb, Style, png_from_svg, svg};
use oddity::rules::game::{GameSpec, Rules};
use oddity::rules::kind::GameKind;
use oddity::rules::position::AnyGame;
use resvg::tiny_skia::Pixmap;

/// Every game at two sizes, with a few turns that put both colours down.
fn cases() -> Vec<(GameSpec, &'static str)> {
    let spec = |kind, size, open| {
        let rules = Rules {
            open_start: open,
            ..Rules::default()
        };
        GameSpec::new(kind, size, rules).unwrap()
    };
    vec![
        (spec(GameKind::Xodd, 3, false), "B:B2 W:A1,B:C3"),
        (spec(GameKind::Xodd, 12, false), "B:F6 W:E5,B:H8 B:C3,W:K10"),
        (spec(GameKind::Yodd, 2, false), "B:B2 W:A1,W:C3"),
        (spec(GameKind::Yodd, 8, false), "B:H8 W:G7,B:K10"),
        (spec(GameKind::Odd, 5, false), "B:E5 W:D4 B:A1 W:J9"),
        (spec(GameKind::Odd, 7, false), "B:G7 W:A1"),
        (spec(GameKind::Onyx, 4, true), "B2 CD23 A1"),
        (spec(GameKind::Onyx, 12, false), "E5 DE910 D9"),
    ]
}

fn position(spec: &GameSpec, moves: &str) -> AnyGame {
    let tokens: Vec<&str> = moves.split_whitespace().collect();
    replay(spec, &tokens).unwrap().position().clone()
}

/// Every empty cell gets a value, rising with its index.
fn heat_for(game: &AnyGame) -> HeatMap {
    let cells = game.topology().cells();
    HeatMap {
        title: "visits".into(),
        values: cells
            .iter()
            .enumerate()
            .filter(|(_, c)| game.stone_at(**c).is_none())
            .map(|(k, &c)| (c, k as f64 / cells.len() as f64))
            .collect(),
        low: "0".into(),
        high: "100".into(),
    }
}

#[test]
fn every_svg_is_xml_with_one_named_element_per_cell() {
    for (spec, moves) in cases() {
        let game = position(&spec, moves);
        let topo = game.topology();
        let first = game
            .legal_turns()
            .into_iter()
            .find(|t| matches!(t, oddity::rules::moves::Turn::Stones(..)))
            .unwrap();
        let picture = Picture {
            last_turn: None,
            heat: Some(heat_for(&game)),
            best_line: vec![first],
            caption: Some("a caption with <markup> & \"quotes\"".into()),
            ..Picture::new(&game)
        };
        let text = svg(&picture, &Style::default());
        let doc = roxmltree::Document::parse(&text)
            .unwrap_or_else(|e| panic!("{} {}: {e}", spec.kind, spec.size));
        let cells: Vec<_> = doc
            .descendants()
            .filter(|n| n.attribute("data-cell").is_some())
            .collect();
        assert_eq!(
            cells.len(),
            topo.cell_count(),
            "{} {}",
            spec.kind,
            spec.size
        );
        let names: BTreeSet<&str> = cells
            .iter()
            .map(|n| n.attribute("data-cell").unwrap())
            .collect();
        let expected: BTreeSet<&str> = topo.cells().iter().map(|&c| topo.name(c)).collect();
        assert_eq!(names, expected);
        for n in &cells {
            let class = n.attribute("class").unwrap();
            assert!(class.split(' ').any(|c| c == "cell"), "{class}");
        }
        let stones = |colour: &str| {
            doc.descendants()
                .filter(|n| n.attribute("class") == Some(&format!("stone {colour}")))
                .count()
        };
        let on_board = |colour| {
            topo.cells()
                .iter()
                .filter(|&&c| game.stone_at(c) == Some(colour))
                .count()
        };
        use oddity::rules::moves::Colour;
        assert_eq!(stones("black"), on_board(Colour::Black));
        assert_eq!(stones("white"), on_board(Colour::White));
        assert!(stones("black") > 0 && stones("white") > 0);
        let line_stones = doc
            .descendants()
            .filter(|n| {
                n.attribute("class")
                    .is_some_and(|c| c.starts_with("line-stone"))
            })
            .count();
        assert!(line_stones >= 1);
        if spec.kind == GameKind::Onyx {
            // Midpoints only in the squares: cells (c, r) with c + r odd.
            let midpoints: BTreeSet<&str> = cells
                .iter()
                .filter(|n| n.attribute("class") == Some("cell midpoint"))
                .map(|n| n.attribute("data-cell").unwrap())
                .collect();
            let n = spec.size;
            assert_eq!(midpoints.len(), (n - 1) * (n - 1) / 2);
            for name in midpoints {
                let cell = topo.parse_cell(name).unwrap();
                let square = topo.square_of_midpoint(cell).unwrap();
                let (x, y) = topo.coords(square.corners[0]);
                assert_eq!((x + 1 + y + 1) % 2, 1, "{name} is not a square's midpoint");
            }
            let lines = doc
                .descendants()
                .filter(|n| n.tag_name().name() == "line")
                .count();
            assert_eq!(lines, topo.line_count());
        }
    }
}

fn rgb_at(pixmap: &Pixmap, x: f64, y: f64) -> Rgb {
    let p = pixmap
        .pixel(x.round() as u32, y.round() as u32)
        .unwrap()
        .demultiply();
    Rgb(p.red(), p.green(), p.blue())
}

fn close(a: Rgb, b: Rgb) -> bool {
    let d = |x: u8, y: u8| (x as i32 - y as i32).abs();
    d(a.0, b.0) <= 6 && d(a.1, b.1) <= 6 && d(a.2, b.2) <= 6
}

#[test]
fn png_shows_stones_board_and_heat_at_cell_centres() {
    let style = Style {
        scale: 24.0,
        ..Style::default()
    };
    for (spec, moves) in cases() {
        let game = position(&spec, moves);
        let geo = Geometry::of(game.topology());
        for with_heat in [false, true] {
            let heat = with_heat.then(|| heat_for(&game));
            let picture = Picture {
                heat: heat.clone(),
                ..Picture::new(&game)
            };
            let png = png_from_svg(&svg(&picture, &style)).unwrap();
            let pixmap = Pixmap::decode_png(&png).unwrap();
            let to_px = |x: f64, y: f64| {
                (
                    (x - geo.view_box[0]) * style.scale,
                    (y - geo.view_box[1]) * style.scale,
                )
            };
            for c in &geo.cells {
                let label = format!("{} {} {} heat={with_heat}", spec.kind, spec.size, c.name);
                if let Some(colour) = game.stone_at(c.cell) {
                    let (x, y) = to_px(c.centre.x, c.centre.y);
                    assert!(close(rgb_at(&pixmap, x, y), style.stone(colour)), "{label}");
                    continue;
                }
                // Onyx points sit where lines cross: look just beside one,
                // off every line, where the board or a square shows.
                let (x, y) = match c.kind {
                    CellKind::Corner | CellKind::Midpoint => {
                        to_px(c.centre.x + 0.2, c.centre.y - 0.08)
                    }
                    _ => to_px(c.centre.x, c.centre.y),
                };
                let seen = rgb_at(&pixmap, x, y);
                let under = [style.board, style.square];
                let expected: Vec<Rgb> = match heat.as_ref().and_then(|h| {
                    h.values
                        .iter()
                        .find(|(cell, _)| *cell == c.cell)
                        .map(|v| v.1)
                }) {
                    Some(v) => under
                        .iter()
                        .map(|&b| b.mix(style.heat(v), style.heat_alpha(v)))
                        .collect(),
                    None => under.to_vec(),
                };
                let allowed = if c.kind == CellKind::Corner || c.kind == CellKind::Midpoint {
                    &expected[..]
                } else {
                    &expected[..1]
                };
                assert!(
                    allowed.iter().any(|&e| close(seen, e)),
                    "{label}: saw {seen:?}, expected one of {allowed:?}"
                );
            }
        }
    }
}

#[test]
fn geometry_is_json_with_protocol_names() {
    let spec = GameSpec::new(GameKind::Onyx, 12, Rules::default()).unwrap();
    let geo = Geometry::of(spec.topology());
    let json: serde_json::Value = serde_json::to_value(&geo).unwrap();
    assert_eq!(json["board"], "onyx");
    assert_eq!(json["cells"].as_array().unwrap().len(), 204);
    assert_eq!(json["lines"].as_array().unwrap().len(), 565);
    assert_eq!(json["view_box"].as_array().unwrap().len(), 4);
    let names: Vec<&str> = json["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"DE910") && names.contains(&"I5"));
    let first = &json["cells"][0];
    assert_eq!(first["name"], "A1");
    assert_eq!(first["kind"], "corner");
    assert!(first["centre"]["x"].is_number());
}
