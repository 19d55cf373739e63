//! The module's API as the page and its worker use it, run natively: the
//! same Rust code the browser runs.

use oddity_web::{Engine, Game};
use serde_json::Value;

fn state(g: &Game) -> Value {
    serde_json::from_str(&g.state()).unwrap()
}

#[test]
fn a_game_is_checked_by_the_rules_and_keeps_its_state_on_errors() {
    let mut g = Game::new("odd", Some(5)).unwrap();
    let s = state(&g);
    assert_eq!(
        (s["game"].as_str(), s["size"].as_u64()),
        (Some("odd"), Some(5))
    );
    assert_eq!(s["to_move"], "b");
    let legal: Vec<String> = serde_json::from_str(&g.legal_turns()).unwrap();
    assert!(!legal.is_empty());
    let played = g.play(&legal[0]).unwrap();
    assert_eq!(state(&g)["moves"], serde_json::json!([played]));
    // The same cell again: refused, nothing changes.
    let before = g.state();
    assert!(g.play(&played).is_err());
    assert!(g.play("no such turn").is_err());
    assert_eq!(g.state(), before);
    assert!(g.undo());
    assert!(!g.undo());
    assert!(Game::new("chess", None).is_err());
    assert!(Game::new("odd", Some(1000)).is_err());
}

#[test]
fn sgf_goes_out_and_back() {
    let mut g = Game::new("xodd", Some(5)).unwrap();
    let legal: Vec<String> = serde_json::from_str(&g.legal_turns()).unwrap();
    g.play(&legal[3]).unwrap();
    let back = Game::from_sgf(&g.sgf()).unwrap();
    assert_eq!(back.state(), g.state());
    assert!(Game::from_sgf("(;GM[nonsense").is_err());
}

#[test]
fn the_engine_plays_a_whole_game_to_the_rules_end() {
    let mut g = Game::new("odd", Some(4)).unwrap();
    let mut engine = Engine::new(64, 1, 3).unwrap();
    while !state(&g)["over"].as_bool().unwrap() {
        engine.set_game(&g);
        let thought: Value = serde_json::from_str(
            &engine
                .search_with(10_000.0, Some(200.0), 1.0, &mut |_| {})
                .unwrap(),
        )
        .unwrap();
        let best = thought["best"]
            .as_str()
            .expect("a turn while the game goes on");
        g.play(best).unwrap();
    }
    let s = state(&g);
    assert!(s["winner"].is_string(), "{s}");
    assert!(s["result"].as_str().unwrap().contains("wins"), "{s}");
    // Over: nothing to play.
    engine.set_game(&g);
    let done: Value =
        serde_json::from_str(&engine.search_with(10.0, None, 1.0, &mut |_| {}).unwrap()).unwrap();
    assert!(done["best"].is_null());
}

#[test]
fn bad_engine_settings_are_refused() {
    assert!(Engine::new(1, 1, 0).is_err());
    assert!(Engine::new(1 << 20, 1, 0).is_err());
    // Natively threads are the system's.
    assert!(Engine::new(64, 2, 0).is_ok());
    let mut e = Engine::new(64, 1, 0).unwrap();
    assert!(e.search_with(10.0, None, 1.0, &mut |_| {}).is_err());
    e.set_game(&Game::new("onyx", Some(4)).unwrap());
    assert!(e.search_with(f64::NAN, None, 1.0, &mut |_| {}).is_err());
    assert!(e.search_with(-1.0, None, 1.0, &mut |_| {}).is_err());
}
