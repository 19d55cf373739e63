//! Game knowledge for [`crate::Policy::Default`]: the prior hook.
//!
//! [`hand_priors`] may give each legal action of a position a prior in `0..=1`
//! (how promising it looks before any playout). The tree stores it in one
//! byte per node and uses it twice: children are tried in decreasing prior
//! order before any has been visited, and UCT gets a progressive-bias term
//! `prior_weight * prior / n` that fades as a child's visits `n` grow.
//! [`crate::Policy::Plain`] never calls it.
//!
//! [`defaults`] holds each game's settings of the default policy (which
//! knowledge is on, and its constants); [`crate::tuning`] overrides them at
//! run time.
//!
//! [`Knowledge::policy_playout`] is the playout of the default policy: in
//! Xodd and Yodd each stone takes the colour better for the mover; in Onyx
//! each move first answers a capture pattern next to the last stone
//! (capture, or save the threatened pair); Odd uses the rules core's
//! uniformly random [`Game::playout`].
//!
//! Which pieces are on by default, per game, is decided by matches against
//! `--policy plain` at equal time (STRENGTH.md): RAVE in Odd and Onyx, the
//! colour-choosing playouts in Xodd and Yodd, the capture replies in Onyx,
//! several playouts per leaf in Odd (32) and Onyx (2).
//! The Xodd/Yodd hand-written priors stay available (`priors=on`,
//! `patterns=off`) but are off by default: the learned patterns
//! ([`oddity_patterns`]) give the priors there.

use oddity_patterns::{
    FeatureBoard, OnyxPlayout, PatternPlayout, PlayoutPolicies, PlayoutPolicy, Weights,
};
use oddity_rules::{
    Action, Cell, Colour, ColourChoice, Game, GameKind, OddGame, OnyxGame, Race, Rng, XoddYoddGame,
};
use oddity_solver::odd_table::OddTable;

/// A leaf with `k` siblings is expanded after `k / EXPAND_DIVISOR` visits
/// (the default of `--param expand`).
pub const EXPAND_DIVISOR: u32 = 4;

/// The settings in force for one game: the defaults with the overrides.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Resolved {
    /// RAVE: AMAF statistics blended into selection.
    pub rave: bool,
    /// The visits at which a child's own win rate and its AMAF rate weigh
    /// the same.
    pub rave_equiv: f32,
    /// AMAF statistics are kept below the first this many nodes of a path.
    pub rave_depth: u32,
    /// GRAVE: the visits below which a node takes its children's AMAF
    /// statistics from the nearest node above it with this many and the
    /// same side to move (0: off).
    pub grave: u32,
    /// Onyx with RAVE: the swap, which has no AMAF statistics, is judged
    /// until its own visits count by its parent's win rate for the first
    /// player (the position after the swap mirrors the one before it).
    pub swap_mirror: bool,
    /// Priors from game knowledge (move ordering and progressive bias).
    pub priors: bool,
    /// Progressive-bias weight, in playouts won by a child with prior 1.
    pub prior_weight: f32,
    /// Priors from the learned patterns ([`oddity_patterns`]) instead of
    /// the hand-written ones.
    pub patterns: bool,
    /// The per-game playout policy ([`Knowledge::policy_playout`]) instead of
    /// uniformly random playouts.
    pub playouts: bool,
    /// The learned patterns' softmax playouts (Xodd, Yodd and Odd:
    /// [`PatternPlayout`]; Onyx: [`OnyxPlayout`]) instead of `playouts`.
    pub pattern_playouts: bool,
    /// Their gammas are raised to `1 / pattern_temperature`.
    pub pattern_temperature: f32,
    /// Onyx playouts: percent of moves that answer a capture pattern next to
    /// the last stone.
    pub replies: u32,
    /// Onyx playout replies also answer cuts of two-point bridges.
    pub bridges: bool,
    /// Onyx priors: the weight of the connection race (`race_priors`);
    /// 0: off.
    pub race: f32,
    /// Onyx priors: the prior of a capture point whose stones at stake are
    /// off both colours' near-shortest connections (`race_priors`); 1:
    /// as any capture point.
    pub capture_grade: f32,
    /// Onyx priors: when one stone would complete the opponent's chain,
    /// the points where it would complete it get prior 1
    /// (`race_priors`).
    pub race_block: bool,
    /// Odd playouts: the last this many cells (at most
    /// [`oddity_rules::MAX_EXACT_ENDING`]) are played perfectly.
    pub exact_ending: u32,
    /// A leaf with `k` siblings is expanded after `k / expand` visits.
    pub expand: u32,
    /// Playouts from each leaf an iteration reaches.
    pub leaf_playouts: u32,
    /// Try the exact solver before searching a small enough position.
    pub endgame: bool,
    /// The share of a search's time (or visits) the solver may take.
    pub endgame_share: f32,
    /// The most empty points for which the solver is tried.
    pub endgame_empty: u32,
    /// The most empty points for which a retrograde table values every
    /// position that can follow instead of searching.
    pub endgame_table: u32,
    /// Leaves of the tree with at most this many empty points are valued
    /// exactly, by a table of every position that can follow them, where
    /// the game has one ([`Knowledge::exact_winner`]); 0: none.
    pub tree_solve: u32,
    /// The tree keeps one move on the cells whose colour cannot change the
    /// result instead of all of them ([`Knowledge::keep_one_tempo_move`]).
    pub settled_moves: bool,
    /// Leaves where nothing left to play can change the result are proven
    /// ([`Knowledge::settled_winner`]).
    pub settled_leaves: bool,
}

/// The default policy's settings for `kind`, before any override.
pub fn defaults(kind: GameKind) -> Resolved {
    let base = Resolved {
        rave: true,
        rave_equiv: 1000.0,
        rave_depth: u32::MAX,
        grave: 0,
        swap_mirror: true,
        priors: true,
        prior_weight: 4.0,
        patterns: false,
        playouts: true,
        pattern_playouts: false,
        pattern_temperature: 1.0,
        replies: 100,
        bridges: false,
        race: 0.0,
        capture_grade: 1.0,
        race_block: false,
        exact_ending: 0,
        expand: EXPAND_DIVISOR,
        leaf_playouts: 1,
        endgame: true,
        endgame_share: 0.3,
        endgame_empty: 14,
        endgame_table: 11,
        tree_solve: 0,
        settled_moves: false,
        settled_leaves: false,
    };
    match kind {
        // AMAF keyed by (cell, colour) misleads in the parity games, where
        // a stone's worth depends on the groups it touches (measured:
        // 12-32% against plain with RAVE on, see STRENGTH.md). The
        // group-count priors helped at 1000 visits but cost Xodd 70 points
        // against plain at 0.2 s per move, so they are off too. The learned
        // patterns' priors won 99-1 (Xodd 12) and 100-0 (Yodd 8) against
        // the default without them at 0.2 s per move (STRENGTH.md).
        GameKind::Xodd | GameKind::Yodd => Resolved {
            rave: false,
            priors: false,
            patterns: true,
            ..base
        },
        // An Odd playout costs about a quarter of a descent through the
        // deep RAVE tree (scoring some 1,500 children), and the AMAF update
        // takes the leaf's playouts at once: eight playouts per leaf won
        // 61-39 against one at 0.2 s per move, sixteen 62-38 against eight,
        // thirty-two 50-50 against sixteen (and 45-55 against eight at equal
        // visits) while running faster. With them the AMAF rates deserve
        // more trust: rave_equiv 10000 won 41-19 against 1000, and 30000
        // 37-23 against 10000.
        // Odd's retrograde table keeps one bit per position and values 27
        // at a time (no groups to count before the board is full): 16
        // empty points take about 20 ms, 17 about 65 ms, 18 about 0.2 s;
        // the move's time decides how many fit.
        GameKind::Odd => Resolved {
            leaf_playouts: 32,
            rave_equiv: 30000.0,
            endgame_table: 18,
            ..base
        },
        // An Onyx descent scores some 1,300 children with AMAF statistics
        // and priors, about two thirds of a playout's cost: two playouts
        // per leaf won 58-42 against one at 0.2 s per move (four, when a
        // descent cost less, had lost 26-34).
        GameKind::Onyx => Resolved {
            leaf_playouts: 2,
            ..base
        },
    }
}

/// The priors the default search gives the actions of a position at the
/// root: the learned patterns' where they are on by default (no last
/// stones are known there, as at the tree's root), else [`hand_priors`].
pub fn default_priors<G: Knowledge>(game: &G, actions: &[Action], out: &mut Vec<f32>) -> bool {
    let kind = game.spec().kind;
    let d = defaults(kind);
    let patterns = Weights::builtin(kind).filter(|_| d.patterns);
    action_priors(
        game,
        patterns,
        RaceWeights::of(&d),
        || [None, None],
        actions,
        &mut None,
        out,
    )
}

/// The priors of `actions` (legal in `game`) as the tree gives them: the
/// learned patterns' ([`oddity_patterns::priors`]) when `patterns` has
/// weights, else the hand-written [`hand_priors`], adjusted by the
/// connection race as `race` asks (`race_priors`). `last` (the last
/// stones placed, newest first) and `features` serve the patterns only.
pub(crate) fn action_priors<G: Knowledge>(
    game: &G,
    patterns: Option<&Weights>,
    race: RaceWeights,
    last: impl FnOnce() -> [Option<Cell>; 2],
    actions: &[Action],
    features: &mut Option<FeatureBoard>,
    out: &mut Vec<f32>,
) -> bool {
    match patterns {
        Some(weights) => {
            oddity_patterns::priors(game, weights, &last(), actions, features, out);
            true
        }
        None => {
            let known = hand_priors(game, actions, out);
            if known && race.any() {
                race_priors(game, actions, race, out);
            }
            known
        }
    }
}

/// How the connection race adjusts the Onyx priors (`race_priors`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RaceWeights {
    /// The weight of a point's nearness to the shortest connections.
    pub(crate) near: f32,
    /// The prior of a capture point off the race.
    pub(crate) capture_grade: f32,
    /// Prior 1 for the points that block a one-stone connection.
    pub(crate) block: bool,
}

impl RaceWeights {
    /// The race weights of `settings`.
    pub(crate) fn of(settings: &Resolved) -> RaceWeights {
        RaceWeights {
            near: settings.race,
            capture_grade: settings.capture_grade,
            block: settings.race_block,
        }
    }

    /// Whether they change any prior.
    fn any(self) -> bool {
        self.near > 0.0 || self.capture_grade < 1.0 || self.block
    }
}

/// Onyx: adjusts the priors in `out` (one per action of `actions`, the
/// capture priors) by the connection race ([`oddity_rules::Race`]).
/// A capture point none of whose stones at stake lies on a connection at
/// most one stone longer than its colour's shortest has its prior cut to
/// `capture_grade`. Then each stone's prior is raised to `near` times how
/// near the point lies to both colours' shortest connections: each colour
/// gives `2^-slack` (1 on one of its shortest connections, half for a
/// connection one stone longer, 0 where none runs), and the two are
/// averaged, so a point both colours need scores highest. With `block`,
/// when one stone would complete the opponent's chain, every point where
/// it would gets prior 1. Other games: no change.
pub(crate) fn race_priors<G: Knowledge>(
    game: &G,
    actions: &[Action],
    weights: RaceWeights,
    out: &mut [f32],
) {
    let Some(race) = game.race() else {
        return;
    };
    let RaceWeights {
        near: weight,
        capture_grade,
        block,
    } = weights;
    let opponent = game.to_move().opposite();
    let threat = block && race.distance[opponent.index()] == 1;
    let near = |colour: Colour, p: usize| {
        race.slack(colour, p)
            .map_or(0.0, |slack| 0.5f32.powi(i32::from(slack.min(30))))
    };
    for (prior, &a) in out.iter_mut().zip(actions) {
        if a.is_stone() {
            let p = a.cell().index();
            if capture_grade < 1.0 && *prior > 0.0 && !game.capture_in_race(&race, a.cell()) {
                *prior = capture_grade;
            }
            let score = (near(Colour::Black, p) + near(Colour::White, p)) / 2.0;
            *prior = prior.max(weight * score);
            if threat && race.slack(opponent, p) == Some(0) {
                *prior = 1.0;
            }
        }
    }
}

/// Whether [`hand_priors`] can give priors in this game (when false, the
/// selection loop is compiled without the bias term).
pub fn has_priors(kind: GameKind) -> bool {
    match kind {
        GameKind::Xodd | GameKind::Yodd | GameKind::Onyx => true,
        GameKind::Odd => false,
    }
}

/// The hand-written priors: fills `out` with one prior in `0..=1` per
/// action of `actions` (legal in `game`) and returns true, or returns false
/// when the game has no knowledge for this position (`out` is then
/// ignored).
pub fn hand_priors<G: Knowledge>(game: &G, actions: &[Action], out: &mut Vec<f32>) -> bool {
    out.clear();
    match game.spec().kind {
        GameKind::Xodd | GameKind::Yodd => {
            let mover = game.to_move();
            out.extend(actions.iter().map(|&a| parity_prior(game, a, mover)));
            true
        }
        GameKind::Onyx => {
            out.extend(actions.iter().map(|&a| capture_prior(game, a)));
            true
        }
        GameKind::Odd => false,
    }
}

/// Onyx: a stone that captures or prevents a capture is promising; other
/// moves get no bias.
fn capture_prior<G: Knowledge>(game: &G, a: Action) -> f32 {
    if a != Action::SWAP && game.is_capture_point(a.cell()) {
        1.0
    } else {
        0.0
    }
}

/// Xodd/Yodd: the mover wants fewer groups of its own colour and more of
/// the other. A stone that joins own groups or starts a new group of the
/// opponent's colour is promising; one that starts an own group or joins
/// the opponent's groups is poor. Passes and ends of turn are neutral.
fn parity_prior<G: Game>(game: &G, a: Action, mover: Colour) -> f32 {
    let Some(change) = game.group_change(a) else {
        return 0.5;
    };
    // The change in (own groups - opponent groups), which the mover wants low.
    let gain = if a.colour() == mover { -change } else { change };
    match gain {
        g if g >= 2 => 1.0,
        1 => 0.9,
        0 => 0.4,
        -1 => 0.1,
        _ => 0.02,
    }
}

/// The settings of the default policy's playouts
/// ([`Knowledge::policy_playout`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayoutOptions {
    /// Onyx: percent of moves that answer a capture pattern.
    pub replies: u32,
    /// Onyx: the replies also answer cuts of two-point bridges.
    pub bridges: bool,
    /// Odd: the last this many cells are played perfectly.
    pub exact_ending: u32,
}

impl PlayoutOptions {
    /// The playout settings of `settings`.
    pub fn of(settings: &Resolved) -> PlayoutOptions {
        PlayoutOptions {
            replies: settings.replies,
            bridges: settings.bridges,
            exact_ending: settings.exact_ending,
        }
    }
}

/// What the default policy knows of a game beyond its rules: its playout
/// policy and the patterns its priors look for.
pub trait Knowledge: Game {
    /// Plays the game out to the end with the default policy's playouts
    /// and returns the winner. Onyx: `replies` in 100 of the moves answer
    /// a capture pattern that the last stone made in one of its squares
    /// (the one empty corner where a stone of the mover either captures or
    /// prevents a capture); with `bridges`, failing that, a cut by the last
    /// stone between two of the mover's groups. Odd: the last
    /// `exact_ending` cells are played perfectly
    /// ([`OddGame::playout_ending_exactly`]). Each game ignores the others'
    /// options.
    fn policy_playout(&mut self, rng: &mut Rng, options: PlayoutOptions) -> Colour;

    /// Plays the game out with every stone drawn by the learned pattern
    /// weights at `temperature` (Xodd, Yodd and Odd: [`PatternPlayout`];
    /// Onyx: [`OnyxPlayout`]; kept in `policy` between playouts) and
    /// returns the winner.
    fn pattern_playout(
        &mut self,
        rng: &mut Rng,
        weights: &'static Weights,
        temperature: f32,
        policy: &mut PlayoutPolicies,
    ) -> Colour;

    /// Onyx: whether the mover's stone on `cell` captures or prevents a
    /// capture. False in the other games.
    fn is_capture_point(&self, cell: Cell) -> bool {
        let _ = cell;
        false
    }

    /// Onyx: the connection race of the position ([`OnyxGame::race`]).
    /// `None` in the other games.
    fn race(&self) -> Option<Race> {
        None
    }

    /// Onyx: whether a capture at `cell` takes a stone of a connection at
    /// most one stone longer than its colour's shortest
    /// ([`OnyxGame::capture_in_race`]). False in the other games.
    fn capture_in_race(&self, race: &Race, cell: Cell) -> bool {
        let _ = (race, cell);
        false
    }

    /// The winner with best play from both sides, when a table of every
    /// position that can follow serves this game (Odd: [`OddTable`]);
    /// `None` in the others.
    fn exact_winner(&self) -> Option<Colour> {
        None
    }

    /// Whether `action` ends the game at once with the mover winning. Onyx
    /// only: a stone that completes the mover's chain. The other games end
    /// only when the board is full, where the last empty cell's children
    /// are few and soon tried.
    fn wins_at_once(&self, action: Action) -> bool {
        let _ = action;
        false
    }

    /// Odd: where empty cells are settled (their colour cannot change the
    /// result, [`OddGame::settled_cells`]), every move on them, of either
    /// colour, only passes the turn, so all are worth the same: keeps one
    /// of them (the first in `actions`) and drops the others. The other games keep
    /// every action.
    fn keep_one_tempo_move(&self, actions: &mut Vec<Action>) {
        let _ = actions;
    }

    /// The winner when nothing left to play can change it (Odd: every
    /// empty cell settled); `None` otherwise and in the other games.
    fn settled_winner(&self) -> Option<Colour> {
        None
    }
}

/// Odd: uniformly random playouts, their last cells played perfectly
/// when asked.
impl<const W: usize> Knowledge for OddGame<W> {
    #[inline]
    fn policy_playout(&mut self, rng: &mut Rng, options: PlayoutOptions) -> Colour {
        self.playout_ending_exactly(rng, options.exact_ending)
    }

    #[inline]
    fn pattern_playout(
        &mut self,
        rng: &mut Rng,
        weights: &'static Weights,
        temperature: f32,
        policies: &mut PlayoutPolicies,
    ) -> Colour {
        match PatternPlayout::kept(&mut policies.stones, weights, temperature, self.topology()) {
            Some(p) => self.playout_drawing(rng, p),
            None => self.playout(rng),
        }
    }

    fn keep_one_tempo_move(&self, actions: &mut Vec<Action>) {
        let settled = self.settled_cells();
        if settled.is_empty() {
            return;
        }
        let mut kept = false;
        actions.retain(|a| {
            if !a.is_stone() || !settled.get(a.cell().index()) {
                return true;
            }
            !std::mem::replace(&mut kept, true)
        });
    }

    fn settled_winner(&self) -> Option<Colour> {
        if self.is_over() || !self.all_settled() {
            return None;
        }
        // Any completion: a settled cell's colour changes nothing.
        let mut full = self.clone();
        Some(full.playout(&mut Rng::seeded(0)))
    }

    fn exact_winner(&self) -> Option<Colour> {
        // A leaf of a few empty points: its table takes a few kilobytes.
        let table = OddTable::build(self, EXACT_LEAF_MB, false).ok()?;
        Some(if table.wins(self, Colour::Black) {
            Colour::Black
        } else {
            Colour::White
        })
    }
}

/// The most memory a leaf's exact table may take ([`Knowledge::exact_winner`]):
/// 16 empty points take 13 MB.
const EXACT_LEAF_MB: usize = 16;

/// Xodd/Yodd: each stone takes the colour better for the mover (the one
/// that leaves the mover's groups fewer relative to the opponent's).
impl<const W: usize> Knowledge for XoddYoddGame<W> {
    #[inline]
    fn policy_playout(&mut self, rng: &mut Rng, _: PlayoutOptions) -> Colour {
        self.playout_choosing(rng, &mut greedy_colour)
    }

    #[inline]
    fn pattern_playout(
        &mut self,
        rng: &mut Rng,
        weights: &'static Weights,
        temperature: f32,
        policies: &mut PlayoutPolicies,
    ) -> Colour {
        match PatternPlayout::kept(&mut policies.stones, weights, temperature, self.topology()) {
            Some(p) => self.playout_drawing(rng, p),
            None => self.playout(rng),
        }
    }
}

/// Onyx: replies to the capture patterns and, when asked, to cuts.
impl<const W: usize> Knowledge for OnyxGame<W> {
    #[inline(always)]
    fn policy_playout(&mut self, rng: &mut Rng, options: PlayoutOptions) -> Colour {
        let PlayoutOptions {
            replies: reply_percent,
            bridges,
            ..
        } = options;
        if reply_percent == 0 {
            return self.playout(rng);
        }
        self.playout_answering(rng, |game, last, rng| {
            game.capture_point_near(last)
                .or_else(|| bridges.then(|| game.bridge_point_near(last)).flatten())
                .filter(|_| rng.below_precise(100) < reply_percent)
        })
    }

    #[inline]
    fn pattern_playout(
        &mut self,
        rng: &mut Rng,
        weights: &'static Weights,
        temperature: f32,
        policies: &mut PlayoutPolicies,
    ) -> Colour {
        match OnyxPlayout::kept(&mut policies.onyx, weights, temperature, self.topology()) {
            Some(p) => self.playout_drawing(rng, p),
            None => self.playout(rng),
        }
    }

    #[inline]
    fn is_capture_point(&self, cell: Cell) -> bool {
        OnyxGame::is_capture_point(self, cell)
    }

    fn wins_at_once(&self, action: Action) -> bool {
        action.is_stone() && self.stone_wins(action.cell())
    }

    fn race(&self) -> Option<Race> {
        Some(OnyxGame::race(self))
    }

    fn capture_in_race(&self, race: &Race, cell: Cell) -> bool {
        OnyxGame::capture_in_race(self, race, cell, 1)
    }
}

/// Xodd/Yodd playouts: of the two colours a stone can take, the one that
/// leaves the mover's groups fewer relative to the opponent's (joining own
/// groups, or starting an opponent group); the random draw on a tie.
fn greedy_colour(choice: ColourChoice) -> Colour {
    let gain = |c: Colour| {
        let change = choice.change[c.index()];
        if c == choice.mover { -change } else { change }
    };
    let (drawn, other) = (choice.drawn, choice.drawn.opposite());
    if gain(other) > gain(drawn) {
        other
    } else {
        drawn
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddity_rules::{AnyGame, GameSpec, Rng, Rules, with_game};

    /// The race priors: off (weight 0) they are the capture priors; on,
    /// a stone that completes a one-stone connection of either colour gets
    /// at least half the weight (its colour's slack is 0), a point no
    /// connection of either colour runs through keeps its capture prior,
    /// and no prior falls. With `capture_grade`, exactly the capture points
    /// off the race take it as their prior.
    #[test]
    fn race_priors_favour_the_shortest_connections() {
        let spec = GameSpec::new(GameKind::Onyx, 8, Rules::default()).unwrap();
        let mut rng = Rng::seeded(54);
        let (mut actions, mut plain, mut raced) = (Vec::new(), Vec::new(), Vec::new());
        let (mut finishing, mut graded, mut kept) = (0, 0, 0);
        let mut graded_priors = Vec::new();
        let mut blocks = 0;
        for _ in 0..300 {
            let mut game = AnyGame::new(&spec);
            let plies = 10 + rng.below_precise(70);
            with_game!(&mut game, g => {
                for _ in 0..plies {
                    actions.clear();
                    g.legal_actions(&mut actions);
                    if g.is_over() {
                        break;
                    }
                    g.apply(actions[rng.below_precise(actions.len() as u32) as usize]);
                }
                if g.is_over() {
                    continue;
                }
                actions.clear();
                g.legal_actions(&mut actions);
                assert!(action_priors(g, None, RaceWeights { near: 0.0, capture_grade: 1.0, block: false }, || [None, None], &actions, &mut None, &mut plain));
                assert!(hand_priors(g, &actions, &mut raced));
                assert_eq!(plain, raced);
                assert!(action_priors(g, None, RaceWeights { near: 0.8, capture_grade: 1.0, block: false }, || [None, None], &actions, &mut None, &mut raced));
                let race = Knowledge::race(g).unwrap();
                let opponent = g.to_move().opposite();
                let blocking = RaceWeights { near: 0.0, capture_grade: 1.0, block: true };
                assert!(action_priors(g, None, blocking, || [None, None], &actions, &mut None, &mut graded_priors));
                for ((&a, &before), &after) in actions.iter().zip(&plain).zip(&graded_priors) {
                    // The one stone that would complete the opponent's chain.
                    let completes = a.is_stone() && {
                        let mut other = g.clone();
                        other.set_to_move(opponent);
                        other.wins_at_once(a)
                    };
                    if completes {
                        assert_eq!(after, 1.0);
                        blocks += 1;
                    } else {
                        assert_eq!(after, before);
                    }
                }
                let grades = RaceWeights { near: 0.0, capture_grade: 0.25, block: false };
                assert!(action_priors(g, None, grades, || [None, None], &actions, &mut None, &mut graded_priors));
                for ((&a, &before), &after) in actions.iter().zip(&plain).zip(&graded_priors) {
                    if before == 1.0 && !Knowledge::capture_in_race(g, &race, a.cell()) {
                        assert_eq!(after, 0.25);
                        graded += 1;
                    } else {
                        assert_eq!(after, before);
                        kept += usize::from(before == 1.0);
                    }
                }
                for ((&a, &before), &after) in actions.iter().zip(&plain).zip(&raced) {
                    assert!(after >= before);
                    if !a.is_stone() {
                        assert_eq!(after, before);
                        continue;
                    }
                    let p = a.cell().index();
                    let slack = Colour::BOTH.map(|c| race.slack(c, p));
                    if slack == [None, None] {
                        assert_eq!(after, before);
                    }
                    let finishes = Colour::BOTH
                        .iter()
                        .any(|&c| race.distance[c.index()] == 1 && race.slack(c, p) == Some(0));
                    if finishes {
                        assert!(after >= 0.4, "{after}");
                        finishing += 1;
                    }
                }
            });
        }
        assert!(finishing > 10, "only {finishing} finishing points");
        assert!(graded > 0 && kept > 0, "{graded} graded, {kept} kept");
        assert!(blocks > 10, "only {blocks} blocks");
    }

    /// The search's hook plays Onyx pattern playouts with this policy,
    /// kept between playouts and rebuilt for other settings.
    #[test]
    fn onyx_pattern_playouts_use_the_onyx_policy() {
        let weights = Weights::builtin(GameKind::Onyx).unwrap();
        let mut policies = PlayoutPolicies::default();
        let mut rng = Rng::seeded(1);
        for temperature in [1.0, 1.0, 2.0] {
            let mut game =
                AnyGame::new(&GameSpec::new(GameKind::Onyx, 8, Rules::default()).unwrap());
            with_game!(&mut game, g => g.pattern_playout(&mut rng, weights, temperature, &mut policies));
            let policy = policies.onyx.as_ref().expect("the Onyx policy");
            let (w, t, topo) = policy.made_for();
            assert!(std::ptr::eq(w, weights) && t == temperature);
            assert!(std::ptr::eq(topo, with_game!(&game, g => g.topology())));
            assert!(policies.stones.is_none());
        }
    }
}
