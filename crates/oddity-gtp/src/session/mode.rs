//! GoGui mode's settings, chosen on the command line before the session
//! starts.

use oddity_rules::GameKind;

/// GoGui mode (`--gogui`): ruler commands, GoGui's grid and vertex names,
/// and one stone per `play` in Odd, Xodd and Yodd.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct GoguiMode {
    on: bool,
    /// Every stone waits until a pass ends the turn (`--gogui-wait`), not
    /// only those that cannot end the turn without more stones or another
    /// colour.
    wait_always: bool,
}

impl GoguiMode {
    pub(super) fn set_on(&mut self, on: bool) {
        self.on = on;
    }

    pub(super) fn set_wait_always(&mut self, on: bool) {
        self.wait_always = on;
    }

    pub(super) fn is_on(self) -> bool {
        self.on
    }

    /// Whether every stone entered waits for a pass (`--gogui-wait`).
    pub(super) fn waits_always(self) -> bool {
        self.wait_always
    }

    /// Whether turns of `kind` are entered one stone at a time: in GoGui
    /// mode, where the mover chooses the colour (Odd, Xodd, Yodd).
    pub(super) fn enters_stones(self, kind: GameKind) -> bool {
        self.on && kind.colour_is_chosen()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stones_are_entered_one_by_one_only_in_gogui_mode_and_chosen_colours() {
        let mut mode = GoguiMode::default();
        assert!(!mode.enters_stones(GameKind::Odd));
        mode.set_on(true);
        assert!(mode.enters_stones(GameKind::Odd));
        assert!(mode.enters_stones(GameKind::Xodd));
        assert!(!mode.enters_stones(GameKind::Onyx));
        assert!(!mode.waits_always());
        mode.set_wait_always(true);
        assert!(mode.waits_always());
    }
}
