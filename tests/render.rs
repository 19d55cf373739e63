//! Board pictures: every SVG is well-formed XML with one clickable element
//! per cell or point, named as the protocol names it; a rasterised PNG shows
//! the stone colour on occupied cells, the board colour on empty ones and
//! the heat colour where the heat map says.

use std::collections::BTreeSet;

use oddity_render::geometry::{CellKind, Geometry};
use oddity_render::{HeatMap, Picture, Rgb, Style, png_from_svg, svg};
use oddity_rules::{AnyGame, GameKind, GameRecord, GameSpec, Rules};
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
    GameRecord::replay(AnyGame::new(spec), &tokens)
        .unwrap()
        .position()
        .clone()
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
            .find(|t| matches!(t, oddity_rules::Turn::Stones(..)))
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
        use oddity_rules::Colour;
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

/// The picture's view box, `[x, y, width, height]` in board units.
fn view_box(text: &str) -> [f64; 4] {
    let doc = roxmltree::Document::parse(text).unwrap();
    let v: Vec<f64> = doc
        .root_element()
        .attribute("viewBox")
        .unwrap()
        .split(' ')
        .map(|x| x.parse().unwrap())
        .collect();
    [v[0], v[1], v[2], v[3]]
}

/// A few turns from `game`: each the last legal turn that puts stones
/// down (two stones where the game allows them).
fn line_from(game: &AnyGame, turns: usize) -> Vec<oddity_rules::Turn> {
    let mut line = Vec::new();
    let mut after = game.clone();
    for _ in 0..turns {
        let Some(turn) = after
            .legal_turns()
            .into_iter()
            .rev()
            .find(|t| matches!(t, oddity_rules::Turn::Stones(..)))
        else {
            break;
        };
        after.play_turn(&turn).unwrap();
        line.push(turn);
    }
    line
}

/// A point at `distance` from a cell's centre, off every Onyx line.
fn beside(c: &oddity_render::geometry::CellGeometry, distance: f64) -> (f64, f64) {
    let angle = -(0.08f64).atan2(0.2);
    (
        c.centre.x + distance * angle.cos(),
        c.centre.y + distance * angle.sin(),
    )
}

/// Suggested stones are smaller than real ones and translucent, numbered,
/// and leave the heat of their cell showing around them: where a real
/// stone shows its colour, a suggested one shows the heat.
#[test]
fn line_stones_are_small_translucent_discs_over_the_heat() {
    use oddity_render::board::{LINE_STONE_OPACITY, LINE_STONE_SHARE};
    let style = Style::default();
    for (spec, moves) in cases() {
        let game = position(&spec, moves);
        let geo = Geometry::of(game.topology());
        let line = line_from(&game, 3);
        let heat = heat_for(&game);
        let picture = Picture {
            heat: Some(heat.clone()),
            best_line: line.clone(),
            ..Picture::new(&game)
        };
        let text = svg(&picture, &style);
        let doc = roxmltree::Document::parse(&text).unwrap();
        let label = format!("{} {}", spec.kind, spec.size);
        let line_stones: Vec<_> = doc
            .descendants()
            .filter(|n| {
                n.attribute("class")
                    .is_some_and(|c| c.starts_with("line-stone"))
            })
            .collect();
        let placed: usize = line
            .iter()
            .map(|t| match t {
                oddity_rules::Turn::Stones(_, b) => 1 + usize::from(b.is_some()),
                _ => 0,
            })
            .sum();
        assert_eq!(line_stones.len(), placed, "{label}");
        let numbers = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("line-number"))
            .count();
        assert_eq!(
            numbers, placed,
            "{label}: every suggested stone is numbered"
        );
        let real_r: f64 = doc
            .descendants()
            .find(|n| {
                n.attribute("class")
                    .is_some_and(|c| c.starts_with("stone "))
            })
            .and_then(|n| n.attribute("r"))
            .unwrap()
            .parse()
            .unwrap();
        for n in &line_stones {
            let r: f64 = n.attribute("r").unwrap().parse().unwrap();
            assert!(r < 0.75 * real_r, "{label}: suggested r {r}, real {real_r}");
            let opacity: f64 = n.attribute("fill-opacity").unwrap().parse().unwrap();
            assert!(opacity < 1.0, "{label}");
        }

        let png = png_from_svg(&text).unwrap();
        let pixmap = Pixmap::decode_png(&png).unwrap();
        let [vx, vy, _, _] = view_box(&text);
        let px = |(x, y): (f64, f64)| ((x - vx) * style.scale, (y - vy) * style.scale);
        let under = [style.board, style.square];
        let onyx = spec.kind == GameKind::Onyx;
        for n in &line_stones {
            let cell = game
                .topology()
                .parse_cell(n.attribute("data-line").unwrap())
                .unwrap();
            let c = geo.cell(cell).unwrap();
            let colour = if n.attribute("class").unwrap().ends_with("black") {
                style.black
            } else {
                style.white
            };
            let v = heat.values.iter().find(|(h, _)| *h == cell).unwrap().1;
            let heated: Vec<Rgb> = under
                .iter()
                .map(|&b| b.mix(style.heat(v), style.heat_alpha(v)))
                .collect();
            let heated = if onyx { &heated[..] } else { &heated[..1] };
            // Outside the disc, within the cell: the heat.
            let ring = if onyx {
                c.radius * (1.0 + LINE_STONE_SHARE) / 2.0
            } else {
                c.radius * 0.92
            };
            let seen = rgb_at(&pixmap, px(beside(c, ring)).0, px(beside(c, ring)).1);
            assert!(
                heated.iter().any(|&e| close(seen, e)),
                "{label} {}: saw {seen:?} beside the suggestion, expected the heat {heated:?}",
                c.name
            );
            // On the disc, off its number: the stone's colour over the heat.
            let on = beside(c, c.radius * LINE_STONE_SHARE * 0.7);
            let seen = rgb_at(&pixmap, px(on).0, px(on).1);
            let expected: Vec<Rgb> = heated
                .iter()
                .map(|&h| h.mix(colour, LINE_STONE_OPACITY))
                .collect();
            assert!(
                expected.iter().any(|&e| close(seen, e)),
                "{label} {}: saw {seen:?} on the suggestion, expected {expected:?}",
                c.name
            );
        }
        // A real stone fills the same spot with its own colour.
        for c in &geo.cells {
            if let Some(colour) = game.stone_at(c.cell) {
                let ring = if onyx {
                    c.radius * (1.0 + LINE_STONE_SHARE) / 2.0
                } else {
                    c.radius * 0.85
                };
                let (x, y) = px(beside(c, ring));
                assert!(
                    close(rgb_at(&pixmap, x, y), style.stone(colour)),
                    "{label} {}",
                    c.name
                );
            }
        }
    }
}

/// The text boxes of a picture as laid out with the system's fonts, in
/// pixels; empty when the system has no font.
fn text_boxes(text: &str) -> Vec<resvg::tiny_skia::Rect> {
    use resvg::usvg;
    let mut fonts = usvg::fontdb::Database::new();
    fonts.load_system_fonts();
    let options = usvg::Options {
        fontdb: std::sync::Arc::new(fonts),
        ..Default::default()
    };
    let tree = usvg::Tree::from_str(text, &options).unwrap();
    let mut boxes = Vec::new();
    let mut stack = vec![tree.root()];
    while let Some(group) = stack.pop() {
        for node in group.children() {
            match node {
                usvg::Node::Group(g) => stack.push(g),
                usvg::Node::Text(t) => boxes.push(t.abs_bounding_box()),
                _ => {}
            }
        }
    }
    boxes
}

/// On the smallest boards, at small scales, with a long caption and either
/// legend: caption and legend text is never smaller than 12 pixels, and
/// every text lies inside the picture (the canvas grows, or the caption
/// wraps).
#[test]
fn small_boards_keep_captions_and_legends_readable() {
    use oddity_render::{Mark, Verdict};
    let caption = "xodd 3 · after turn 12 (W:A1,B:C3) · game over: White wins with fewer \
                   groups (Black 2, White 1) · best W:A1,B:C3 (26.4%)";
    let spec = |kind, size| GameSpec::new(kind, size, Rules::default()).unwrap();
    for (spec, moves) in [
        (spec(GameKind::Xodd, 3), "B:B2"),
        (spec(GameKind::Yodd, 2), "B:B2"),
        (spec(GameKind::Odd, 2), "B:A1"),
        (spec(GameKind::Onyx, 4), "B2"),
    ] {
        let game = position(&spec, moves);
        let first = game.topology().cells()[0];
        for scale in [16.0, 24.0, 40.0] {
            for legend in ["heat", "marks"] {
                let style = Style {
                    scale,
                    ..Style::default()
                };
                let mut heat = heat_for(&game);
                heat.title = "win rate for w (most visited turn per cell)".into();
                heat.low = "22.1%".into();
                heat.high = "26.4%".into();
                let picture = Picture {
                    heat: (legend == "heat").then_some(heat),
                    marks: if legend == "marks" {
                        vec![Mark {
                            cell: first,
                            verdict: Verdict::Won,
                            label: "B".into(),
                        }]
                    } else {
                        Vec::new()
                    },
                    caption: Some(caption.into()),
                    ..Picture::new(&game)
                };
                let text = svg(&picture, &style);
                let label = format!("{} {} scale {scale} {legend}", spec.kind, spec.size);
                let doc = roxmltree::Document::parse(&text).unwrap();
                let caption_node = doc
                    .descendants()
                    .find(|n| n.attribute("class") == Some("caption"))
                    .unwrap();
                let shown: Vec<&str> = caption_node
                    .descendants()
                    .filter(|n| n.is_text())
                    .filter_map(|n| n.text())
                    .collect();
                assert_eq!(
                    shown.join(" · ").replace(" · ", " "),
                    caption.replace(" · ", " "),
                    "{label}: the whole caption, in lines"
                );
                for n in doc.descendants().filter(|n| {
                    n.attribute("class")
                        .is_some_and(|c| c == "caption" || c.starts_with("legend"))
                        && n.tag_name().name() == "text"
                }) {
                    let size: f64 = n.attribute("font-size").unwrap().parse().unwrap();
                    assert!(
                        size * scale >= 12.0 - 1e-6,
                        "{label}: {} at {} px",
                        n.attribute("class").unwrap(),
                        size * scale
                    );
                }
                let root = doc.root_element();
                let width: f64 = root.attribute("width").unwrap().parse().unwrap();
                let height: f64 = root.attribute("height").unwrap().parse().unwrap();
                for b in text_boxes(&text) {
                    assert!(
                        b.left() >= 0.0
                            && b.top() >= 0.0
                            && f64::from(b.right()) <= width
                            && f64::from(b.bottom()) <= height,
                        "{label}: text at {b:?} outside {width}x{height}"
                    );
                }
                // The pixels: the picture's edges are background, and the
                // caption's band below the board and legend has ink.
                let pixmap = Pixmap::decode_png(&png_from_svg(&text).unwrap()).unwrap();
                let (w, h) = (pixmap.width(), pixmap.height());
                for y in 0..h {
                    for x in [0, w - 1] {
                        let seen = rgb_at(&pixmap, x as f64, y as f64);
                        assert!(close(seen, style.background), "{label}: ink at ({x}, {y})");
                    }
                }
                let caption_top = caption_node
                    .children()
                    .filter_map(|n| n.attribute("y"))
                    .map(|y| y.parse::<f64>().unwrap())
                    .fold(f64::INFINITY, f64::min);
                let [_, vy, _, _] = view_box(&text);
                let band = ((caption_top - vy) * scale - 12.0).max(0.0) as u32;
                let inked = (band..h)
                    .flat_map(|y| (0..w).map(move |x| (x, y)))
                    .filter(|&(x, y)| !close(rgb_at(&pixmap, x as f64, y as f64), style.background))
                    .count();
                if !text_boxes(&text).is_empty() {
                    assert!(inked > 100, "{label}: the caption is drawn");
                }
            }
        }
    }
}

/// A swap as the last turn marks the white stone it put down, on both
/// Onyx starts; a swap in a suggested line puts down a numbered stone.
#[test]
fn a_swap_is_marked_on_the_stone_it_puts_down() {
    use oddity_rules::Turn;
    let style = Style::default();
    for (open, size) in [(false, 12), (true, 8)] {
        let rules = Rules {
            open_start: open,
            ..Rules::default()
        };
        let spec = GameSpec::new(GameKind::Onyx, size, rules).unwrap();
        let game = position(&spec, "C5 swap");
        let topo = game.topology();
        let swapped = topo.name(topo.transpose(topo.parse_cell("C5").unwrap()));
        assert_eq!(swapped, "E3");
        let picture = Picture {
            last_turn: Some(Turn::Swap),
            ..Picture::new(&game)
        };
        let text = svg(&picture, &style);
        let doc = roxmltree::Document::parse(&text).unwrap();
        let marked: Vec<&str> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("last"))
            .map(|n| n.attribute("data-last").unwrap())
            .collect();
        assert_eq!(marked, ["E3"], "Onyx {size} open={open}");
        let pixmap = Pixmap::decode_png(&png_from_svg(&text).unwrap()).unwrap();
        let [vx, vy, _, _] = view_box(&text);
        let geo = Geometry::of(topo);
        let c = geo.cell(topo.parse_cell("E3").unwrap()).unwrap();
        let at = |dx: f64| {
            rgb_at(
                &pixmap,
                (c.centre.x + dx - vx) * style.scale,
                (c.centre.y - vy) * style.scale,
            )
        };
        assert!(close(at(0.0), style.last_turn), "the dot");
        assert!(close(at(c.radius * 0.7), style.white), "on a white stone");

        // White to move after C5: a line starting with the swap.
        let before = position(&spec, "C5");
        let picture = Picture {
            best_line: vec![Turn::Swap],
            ..Picture::new(&before)
        };
        let text = svg(&picture, &style);
        let doc = roxmltree::Document::parse(&text).unwrap();
        let line: Vec<(&str, &str, &str)> = doc
            .descendants()
            .filter(|n| {
                n.attribute("class")
                    .is_some_and(|c| c.starts_with("line-stone"))
            })
            .map(|n| {
                (
                    n.attribute("data-line").unwrap(),
                    n.attribute("data-turn").unwrap(),
                    n.attribute("class").unwrap(),
                )
            })
            .collect();
        assert_eq!(line, [("E3", "1", "line-stone white")]);
    }
}

/// The graph's turn labels stand above the plot, clear of the curve, in
/// rows where they would touch; only the rings sit on the curve.
#[test]
fn win_rate_graph_labels_stay_off_the_curve() {
    use oddity_render::win_rate_graph;
    let style = Style::default();
    let black: Vec<f64> = (0..=80)
        .map(|k| match k % 4 {
            0 => 1.0,
            1 => 0.0,
            2 => 0.6,
            _ => 0.3,
        })
        .collect();
    let marked = [1, 2, 3, 4, 40, 41, 79, 80];
    let text = win_rate_graph(&black, &marked, "a title", &style);
    let doc = roxmltree::Document::parse(&text).unwrap();
    let plot = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("plot"))
        .unwrap();
    let attr = |n: roxmltree::Node, a: &str| -> f64 { n.attribute(a).unwrap().parse().unwrap() };
    let (left, top, width, height) = (
        attr(plot, "x"),
        attr(plot, "y"),
        attr(plot, "width"),
        attr(plot, "height"),
    );
    let labels: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("turn-label"))
        .collect();
    assert_eq!(labels.len(), marked.len());
    // 14-unit text: from 11 above its baseline to 3 below.
    let boxes: Vec<(f64, f64, f64, f64)> = labels
        .iter()
        .map(|n| {
            let (x, y) = (attr(*n, "x"), attr(*n, "y"));
            let half = 4.5 * n.text().unwrap().len() as f64;
            (x - half, y - 11.0, x + half, y + 3.0)
        })
        .collect();
    for (k, b) in boxes.iter().enumerate() {
        assert!(b.3 < top, "label {k} reaches into the plot: {b:?}");
        assert!(b.1 > 30.0, "label {k} reaches the title: {b:?}");
        for o in &boxes[..k] {
            let apart = b.2 <= o.0 || o.2 <= b.0 || b.3 <= o.1 || o.3 <= b.1;
            assert!(apart, "labels {b:?} and {o:?} touch");
        }
    }
    // In the PNG, the plot's only red is the rings on the curve.
    let pixmap = Pixmap::decode_png(&png_from_svg(&text).unwrap()).unwrap();
    let turns = (black.len() - 1) as f64;
    let rings: Vec<(f64, f64)> = marked
        .iter()
        .map(|&t| {
            (
                left + width * t as f64 / turns,
                top + height * (1.0 - black[t]),
            )
        })
        .collect();
    for y in top as u32..(top + height) as u32 {
        for x in left as u32..(left + width) as u32 {
            let seen = rgb_at(&pixmap, x as f64, y as f64);
            let red = seen.0 > 150 && seen.1 < 90 && seen.2 < 90;
            if red {
                let near = rings
                    .iter()
                    .any(|&(rx, ry)| (rx - x as f64).hypot(ry - y as f64) <= 10.0);
                assert!(near, "red at ({x}, {y}) away from every ring");
            }
        }
    }
}
