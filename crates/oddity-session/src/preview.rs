//! A turn being composed on the page, stone by stone, and what the rules
//! say of it before it is played.

use serde::Serialize;

use oddity_rules::{AnyGame, Colour, Stone, Turn};

use crate::error::SessionError;

/// A stone the person has placed while composing a turn.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PendingStone {
    /// The cell's name.
    pub cell: String,
    /// `B` or `W`.
    pub colour: String,
}

/// What the rules say about a turn being composed.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Preview {
    /// The stones are a legal start of a turn.
    pub ok: bool,
    /// They make a whole turn that may be confirmed as it is.
    pub complete: bool,
    /// Why not, or what is still needed.
    pub reason: Option<String>,
    /// The token the turn would be sent as.
    pub token: Option<String>,
}

impl Preview {
    /// Not a turn, nor the start of one, for `reason`.
    pub(crate) fn refused(reason: String) -> Preview {
        Preview {
            ok: false,
            complete: false,
            reason: Some(reason),
            token: None,
        }
    }

    /// What the rules say of `stones` as a turn in `pos`: a whole turn, the
    /// first stone of one, or neither and why.
    pub(crate) fn of(pos: &AnyGame, stones: &[PendingStone]) -> Preview {
        if stones.is_empty() || stones.len() > 2 {
            return Preview::refused("a turn has one or two stones".into());
        }
        let token = match stone_token(pos, stones) {
            Ok(t) => t,
            Err(why) => return Preview::refused(why.to_string()),
        };
        let turn = match pos.parse_turn(&token) {
            Ok(t) => t,
            Err(e) => return Preview::refused(e.to_string()),
        };
        let mut next = pos.clone();
        let Err(illegal) = next.play_turn(&turn) else {
            return Preview {
                ok: true,
                complete: true,
                reason: None,
                token: Some(pos.token(&turn)),
            };
        };
        let why = illegal.describe(pos.topology());
        let Turn::Stones(first, None) = turn else {
            return Preview::refused(why);
        };
        // A single stone that cannot end the turn: fine as the first of
        // two if some second stone completes a legal turn.
        if pos.stone_at(first.cell).is_some() || !has_second_stone(pos, first) {
            return Preview::refused(why);
        }
        Preview {
            ok: true,
            complete: false,
            reason: Some(format!("{why}: place a second stone")),
            token: None,
        }
    }
}

/// Whether some second stone makes a legal turn with `first` in `pos`.
fn has_second_stone(pos: &AnyGame, first: Stone) -> bool {
    pos.topology().cells().iter().any(|&cell| {
        cell != first.cell
            && pos.stone_at(cell).is_none()
            && Colour::BOTH.iter().any(|&colour| {
                let turn = Turn::stones(first, Some(Stone { cell, colour }));
                pos.clone().play_turn(&turn).is_ok()
            })
    })
}

/// Builds the token of a composed turn.
fn stone_token(pos: &AnyGame, stones: &[PendingStone]) -> Result<String, SessionError> {
    let mut parts = Vec::new();
    for s in stones {
        let colour =
            Colour::parse(&s.colour).ok_or_else(|| SessionError::BadColour(s.colour.clone()))?;
        if pos.kind().colour_is_chosen() {
            parts.push(format!("{}:{}", colour.letter(), s.cell));
        } else {
            parts.push(s.cell.clone());
        }
    }
    Ok(parts.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddity_rules::{GameKind, GameSpec, Rules};

    fn stone(cell: &str, colour: &str) -> PendingStone {
        PendingStone {
            cell: cell.into(),
            colour: colour.into(),
        }
    }

    /// In Xodd the first turn is one stone and later ones two, so a lone
    /// stone then only starts a turn; in Onyx, where a turn is one cell,
    /// the colour is not the mover's to choose.
    #[test]
    fn stones_are_whole_turns_or_starts_of_one() {
        let mut xodd = AnyGame::new(&GameSpec::new(GameKind::Xodd, 4, Rules::default()).unwrap());
        let p = Preview::of(&xodd, &[stone("B2", "W")]);
        assert_eq!(
            (p.ok, p.complete, p.token.as_deref()),
            (true, true, Some("W:B2"))
        );
        let too_many = [stone("A1", "B"), stone("B1", "W"), stone("C1", "B")];
        for stones in [&[][..], &too_many[..]] {
            assert_eq!(
                Preview::of(&xodd, stones),
                Preview::refused("a turn has one or two stones".into())
            );
        }
        assert_eq!(
            Preview::of(&xodd, &[stone("A1", "G")]),
            Preview::refused(SessionError::BadColour("G".into()).to_string())
        );
        xodd.play_turn(&xodd.parse_turn("B:B2").unwrap()).unwrap();
        let p = Preview::of(&xodd, &[stone("D4", "W")]);
        assert!(p.ok && !p.complete && p.token.is_none(), "{p:?}");
        assert!(p.reason.unwrap().ends_with(": place a second stone"));
        let p = Preview::of(&xodd, &[stone("B2", "W")]);
        assert!(!p.ok && p.reason.unwrap().contains("not empty"));
        let p = Preview::of(&xodd, &[stone("D4", "W"), stone("A4", "B")]);
        assert_eq!(
            (p.ok, p.complete, p.token.as_deref()),
            (true, true, Some("B:A4,W:D4"))
        );
        let onyx = AnyGame::new(&GameSpec::default_for(GameKind::Onyx));
        let p = Preview::of(&onyx, &[stone("E5", "W")]);
        assert_eq!(
            (p.ok, p.complete, p.token.as_deref()),
            (true, true, Some("E5"))
        );
    }
}
