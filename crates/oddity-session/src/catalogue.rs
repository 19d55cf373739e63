//! What the page offers in its new-game form and how it colours heat, as
//! the rules and the renderer define them: the page keeps no copy of board
//! sizes, default sizes, board cell counts or the heat palette.

use serde::Serialize;

use oddity_fairness as fairness;
use oddity_render::Style;
use oddity_rules::{BoardKind, GameKind, Topology};

/// `GET /api/games`.
#[derive(Serialize)]
pub struct Catalogue {
    /// Every game, with its sizes and facts.
    pub games: Vec<GameChoice>,
    /// The colours of the heat map.
    pub heat: HeatPalette,
}

/// One game of the form's list.
#[derive(Serialize)]
pub struct GameChoice {
    /// The name the API and the protocol use (`odd`).
    pub id: &'static str,
    /// The game's name as people write it (`Odd`).
    pub title: &'static str,
    /// What the list shows (`Odd (hex-hex board)`).
    pub label: String,
    pub default_size: usize,
    /// Every size the rules accept, smallest first.
    pub sizes: Vec<SizeChoice>,
    /// Whether a stone's colour is the mover's choice (the colour picker).
    pub colour_is_chosen: bool,
    /// Whether a turn may be two stones, composed and then confirmed.
    pub has_two_stone_turns: bool,
    /// Whether groups are counted (shown while playing and at the end).
    pub counts_groups: bool,
    /// Whether fewer groups wins (the end's score line says so).
    pub fewer_groups_wins: bool,
    /// Whether the form offers the smallest group that counts.
    pub has_min_group: bool,
    /// Whether the form offers the open start and the swap rule.
    pub has_start_options: bool,
}

#[derive(Serialize)]
pub struct SizeChoice {
    pub size: usize,
    /// Points on the board: the largest smallest group.
    pub cells: usize,
    /// What the balance study found for each rule variant of this board.
    pub balance: Vec<BalanceNote>,
    /// Odd: the side's fair smallest group, or that none is established,
    /// in words; none where the study has no games of the side.
    pub min_group_note: Option<String>,
}

/// The balance study's finding for one board and rule variant.
#[derive(Serialize)]
pub struct BalanceNote {
    pub min_group: Option<usize>,
    pub open_start: bool,
    pub swap: bool,
    /// In words, a sentence per proof and level of play: `At 0.8 s per
    /// move the first player won 17 of 20 games (85.0%, 95% interval
    /// 64.0-94.8%): not decided yet; leans to the first player.`
    pub text: String,
}

fn balance_notes(kind: GameKind, size: usize) -> (Vec<BalanceNote>, Option<String>) {
    let findings = fairness::findings();
    let notes = fairness::variants(findings, kind, size)
        .into_iter()
        .filter_map(|rules| {
            let text = fairness::board_note(findings, kind, size, &rules)?;
            let f = fairness::of_board(findings, kind, size, &rules)[0];
            Some(BalanceNote {
                min_group: f.min_group(),
                open_start: f.rule("start") == Some("open"),
                swap: f.rule("swap") != Some("off"),
                text,
            })
        })
        .collect();
    let side = kind
        .has_min_group()
        .then(|| fairness::min_group_note(findings, size))
        .flatten();
    (notes, side)
}

/// The heat map's colours at no visits (`low`) and at the most (`high`), as
/// red, green, blue.
#[derive(Serialize)]
pub struct HeatPalette {
    pub low: [u8; 3],
    pub high: [u8; 3],
}

/// What the new-game form offers: every game of the rules, and the heat palette.
pub fn catalogue() -> Catalogue {
    let style = Style::default();
    let rgb = |c: oddity_render::Rgb| [c.0, c.1, c.2];
    Catalogue {
        games: GameKind::ALL.iter().map(|&kind| choice(kind)).collect(),
        heat: HeatPalette {
            low: rgb(style.heat_low),
            high: rgb(style.heat_high),
        },
    }
}

fn choice(kind: GameKind) -> GameChoice {
    let board = kind.board();
    let (lo, hi) = board.size_range();
    let board_name = match board {
        BoardKind::Square => "square board",
        BoardKind::HexHex => "hex-hex board",
        BoardKind::Onyx => "squares and triangles",
    };
    GameChoice {
        id: kind.name(),
        title: kind.title(),
        label: format!("{} ({board_name})", kind.title()),
        default_size: kind.default_size(),
        sizes: (lo..=hi)
            .map(|size| {
                let (balance, min_group_note) = balance_notes(kind, size);
                SizeChoice {
                    size,
                    cells: Topology::get(board, size)
                        .expect("sizes from the board's range")
                        .cell_count(),
                    balance,
                    min_group_note,
                }
            })
            .collect(),
        colour_is_chosen: kind.colour_is_chosen(),
        has_two_stone_turns: kind.has_two_stone_turns(),
        counts_groups: kind.counts_groups(),
        fewer_groups_wins: kind.fewer_groups_wins(),
        has_min_group: kind.has_min_group(),
        has_start_options: kind.has_start_options(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_with_its_sizes_and_the_renderers_palette() {
        let c = catalogue();
        assert_eq!(c.games.len(), GameKind::ALL.len());
        let odd = c.games.iter().find(|g| g.id == "odd").unwrap();
        assert_eq!(odd.default_size, 5);
        assert!(odd.has_min_group && !odd.has_start_options);
        assert_eq!(odd.sizes.first().map(|s| (s.size, s.cells)), Some((2, 7)));
        assert_eq!(odd.sizes.iter().find(|s| s.size == 5).unwrap().cells, 61);
        let onyx = c.games.iter().find(|g| g.id == "onyx").unwrap();
        assert!(onyx.has_start_options && !onyx.has_min_group);
        assert_eq!(c.heat.low, [0x31, 0x82, 0xbd]);
        // The study's findings come with the boards it played.
        let odd5 = odd.sizes.iter().find(|s| s.size == 5).unwrap();
        assert!(odd5.balance.iter().any(|b| b.min_group == Some(5)));
        let onyx12 = onyx.sizes.iter().find(|s| s.size == 12).unwrap();
        assert!(onyx12.balance.iter().any(|b| !b.open_start && b.swap));
    }
}
