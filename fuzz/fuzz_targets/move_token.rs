//! Move tokens on any bytes, for every game and size: parsing never
//! panics, a refusal is one line that quotes the token escaped, and a turn
//! that parses prints as a canonical token that parses
//! back to the same turn (in any letter case). Playing it at the start
//! either works or changes nothing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oddity_rules::{AnyGame, Colour, GameKind, GameSpec, Rules, Turn, internals::is_one_line};

fuzz_target!(|data: &[u8]| {
    let [game, size, seat, rest @ ..] = data else {
        return;
    };
    let kind = GameKind::ALL[usize::from(*game) % 4];
    let (lo, hi) = kind.board().size_range();
    let size = lo + usize::from(*size) % (hi - lo + 1);
    let Ok(spec) = GameSpec::new(kind, size, Rules::default()) else {
        return;
    };
    let mover = Colour::BOTH[usize::from(*seat) % 2];
    let topo = spec.topology();
    let token = String::from_utf8_lossy(rest);
    let turn = match Turn::parse(&token, kind, topo, mover) {
        Ok(turn) => turn,
        Err(e) => {
            assert!(is_one_line(&e.to_string()), "{e:?}");
            return;
        }
    };
    let canonical = turn.to_token(kind, topo);
    assert_eq!(
        Turn::parse(&canonical, kind, topo, mover),
        Ok(turn),
        "{canonical}"
    );
    let lower = canonical.to_ascii_lowercase();
    assert_eq!(Turn::parse(&lower, kind, topo, mover), Ok(turn), "{lower}");
    let start = AnyGame::new(&spec);
    let mut game = start.clone();
    if game.play_turn(&turn).is_err() {
        for &c in topo.cells() {
            assert_eq!(game.stone_at(c), start.stone_at(c));
        }
        assert_eq!(game.to_move(), start.to_move());
    }
});
