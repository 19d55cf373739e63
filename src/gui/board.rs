//! Pictures of positions for the page: for now one circle per cell on its array coordinates.
use crate::rules::moves::Turn;
use crate::rules::position::AnyGame;
pub fn svg(pos: &AnyGame, _last: Option<Turn>) -> String {
    let topo = pos.topology();
    let mut s = String::from(r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20">"#);
    for &c in topo.cells() {
        let (x, y) = topo.coords(c);
        let cls = match pos.stone_at(c) {
            Some(crate::rules::moves::Colour::Black) => "stone black",
            Some(_) => "stone white",
            None => "empty",
        };
        s.push_str(&format!(
            r#"<circle class="cell {cls}" data-cell="{}" cx="{}" cy="{}" r="0.45"/>"#,
            topo.name(c),
            x as f64 + 0.5,
            19.5 - y as f64
        ));
    }
    s.push_str(r#"<g class="stones" pointer-events="none">"#);
    for &c in topo.cells() {
        let (x, y) = topo.coords(c);
        if let Some(col) = pos.stone_at(c) {
            let cls = if col == crate::rules::moves::Colour::Black {
                "black"
            } else {
                "white"
            };
            s.push_str(&format!(
                r#"<circle class="stone {cls}" cx="{}" cy="{}" r="0.4"/>"#,
                x as f64 + 0.5,
                19.5 - y as f64
            ));
        }
    }
    s.push_str("</g></svg>");
    s
}
