//! The solver: df-pn jobs for the root and each turn on shared threads and
//! table, the retrograde tables, and the principal line.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
#[cfg(not(target_family = "wasm"))]
use std::time::Duration;

use web_time::Instant;

use crate::dfpn::{Dfpn, DfpnConfig, Numbers};
use crate::keys::Keys;
use crate::params::{SolveLimits, SolverParams};
use crate::proof;
use crate::retrograde::{ExactTable, RetrogradeError, RetrogradeGuide};
#[cfg(not(target_family = "wasm"))]
use crate::solution::SolveProgress;
use crate::solution::{ProgressFn, Solution, TurnValue, Value};
use crate::table::Table;
use crate::tables::AnyTable;

use oddity_rules::{Action, AnyGame, Colour, Game, GameSpec, Turn, turn_of};

/// The solver with its transposition table, kept between solves of the
/// same game (so that a game's later positions start from what the earlier
/// solves found).
pub struct Solver {
    params: SolverParams,
    table: Option<(GameSpec, Table)>,
}

/// Stack of a solver thread: the recursion is as deep as the game is long.
#[cfg(not(target_family = "wasm"))]
const STACK_BYTES: usize = 256 << 20;

impl Solver {
    /// A solver with `params` and an empty table.
    pub fn new(params: SolverParams) -> Solver {
        Solver {
            params,
            table: None,
        }
    }

    /// Its settings.
    pub fn params(&self) -> &SolverParams {
        &self.params
    }

    /// New settings; a new memory size takes a new table.
    pub fn set_params(&mut self, params: SolverParams) {
        if params.memory_mb != self.params.memory_mb || params.symmetry != self.params.symmetry {
            self.table = None;
        }
        self.params = params;
    }

    /// Forgets everything proven so far.
    pub fn clear(&mut self) {
        self.table = None;
    }

    fn table_for(&mut self, spec: &GameSpec) -> &Table {
        if self.table.as_ref().is_none_or(|(s, _)| s != spec) {
            let bytes = self.params.memory_mb.max(1) << 20;
            self.table = Some((*spec, Table::with_bytes(bytes)));
        }
        &self.table.as_ref().expect("just made").1
    }

    /// Solves `game`: its value and, with `classify`, every turn's.
    /// Returns at the limits or when `stop` is set, with what is proven.
    pub fn solve(
        &mut self,
        game: &AnyGame,
        classify: bool,
        limits: &SolveLimits,
        stop: &AtomicBool,
        progress: ProgressFn<'_>,
    ) -> Solution {
        let params = self.params;
        let table = self.table_for(game.spec());
        oddity_rules::with_game!(game, g => solve_game(g, params, table, classify, limits, stop, progress))
    }

    /// Checks the solution's root value and every proven turn's value by
    /// walking their proofs from the rules (see [`proof`]); the table
    /// suggests the winner's actions and is completed by new searches where
    /// it lost them. Returns the positions checked.
    pub fn check(&mut self, game: &AnyGame, solution: &Solution) -> Result<u64, proof::CheckError> {
        let params = self.params;
        let table = self.table_for(game.spec());
        oddity_rules::with_game!(game, g => proof::check_solution(g, solution, params, table))
    }
}

/// Solves `game` by valuing every position that can follow it
/// ([`crate::retrograde`], Odd's one-bit table where it serves): its
/// value, every turn's and a principal line, all exact. Returns the table
/// as well, for [`check_retrograde`]. The sweep is shared among the threads
/// of the current rayon pool.
pub fn solve_retrograde(
    game: &AnyGame,
    memory_mb: usize,
) -> Result<(Solution, AnyTable), RetrogradeError> {
    let start = Instant::now();
    let table = oddity_rules::with_game!(game, g => AnyTable::build(g, memory_mb, true))?;
    Ok((table_solution(game, &table, start), table))
}

/// The solution of `game` read from `table`, built from it since `start`.
fn table_solution<T: ExactTable>(game: &AnyGame, table: &T, start: Instant) -> Solution {
    oddity_rules::with_game!(game, g => {
        let mover = g.to_move();
        let turns: Vec<TurnValue> = g
            .legal_turns()
            .into_iter()
            .map(|turn| {
                let mut next = g.clone();
                next.play_turn(&turn).expect("a legal turn");
                let value = Value::of_win(table.wins(&next, mover));
                TurnValue { turn, value: Some(value), work: 0 }
            })
            .collect();
        let value = (!g.is_over()).then(|| Value::of_win(table.wins(g, mover)));
        Solution {
            to_move: mover,
            value,
            turns,
            pv: table.principal_line(g),
            nodes: table.positions(),
            table_entries: table.positions() as usize,
            table_capacity: table.positions() as usize,
            elapsed: start.elapsed(),
            root: None,
        }
    })
}

/// Checks a retrograde solution's values by walking their proofs from the
/// rules, with the table naming the winner's actions. The positions shown
/// are kept as bits: these proofs are too large for full descriptions.
pub fn check_retrograde(
    game: &AnyGame,
    solution: &Solution,
    table: &AnyTable,
    symmetric: bool,
) -> Result<u64, proof::CheckError> {
    oddity_rules::with_game!(game, g => proof::check_values(g, solution, symmetric, true, |winner| {
        RetrogradeGuide { table, winner }
    }))
}

/// Which search a job runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Target {
    Root,
    Turn(usize),
}

#[derive(Clone, Copy, Debug)]
struct Job {
    target: Target,
    attacker: Colour,
}

/// What the jobs found, per target and attacker (index by whether the
/// attacker is the root's mover).
struct Findings {
    root: [Option<Numbers>; 2],
    turns: Vec<[Option<Numbers>; 2]>,
    work: Vec<u64>,
}

fn solve_game<G: Game>(
    game: &G,
    params: SolverParams,
    table: &Table,
    classify: bool,
    limits: &SolveLimits,
    outer_stop: &AtomicBool,
    mut progress: ProgressFn<'_>,
) -> Solution {
    let start = Instant::now();
    let mover = game.to_move();
    let kind = game.spec().kind;
    let keys = Keys::new(kind, game.topology(), params.symmetry);
    // In a browser the solver runs on the calling thread alone (see below).
    let threads = if cfg!(target_family = "wasm") {
        1
    } else {
        params.threads.max(1)
    };
    let config = params.dfpn_config(kind, threads > 1);
    let cyclic = config.cyclic;
    let turns = if game.is_over() {
        Vec::new()
    } else {
        game.legal_turns()
    };
    let positions: Vec<G> = turns
        .iter()
        .map(|t| {
            let mut g = game.clone();
            g.play_turn(t).expect("a legal turn");
            g
        })
        .collect();
    let mut queue: VecDeque<Job> = VecDeque::new();
    if !game.is_over() {
        // Every thread starts on the root, steering round the others.
        queue.extend((0..threads).map(|_| Job {
            target: Target::Root,
            attacker: mover,
        }));
        if classify {
            queue.extend((0..turns.len()).map(|i| Job {
                target: Target::Turn(i),
                attacker: mover,
            }));
        }
    }
    let queue = Mutex::new(queue);
    let findings = Mutex::new(Findings {
        root: [None; 2],
        turns: vec![[None; 2]; turns.len()],
        work: vec![0; turns.len()],
    });
    let stop = AtomicBool::new(false);
    let nodes = AtomicU64::new(0);
    let busy = AtomicU64::new(0);
    let root_key = keys.key(game, &keys.hashes(game), mover);
    let slot = |attacker: Colour| usize::from(attacker != mover);
    // The root's searches, per attacker, stop once one of them is done.
    let root_done = [AtomicBool::new(false), AtomicBool::new(false)];
    // Jobs for the other side's proof already queued (Onyx).
    let asked = Mutex::new(std::collections::HashSet::new());

    let deadline = limits.time.map(|t| start + t);
    // Whether the solve is over: stopped from outside, out of time or
    // nodes, or nothing left to find; then every search is told to stop.
    let check_limits = |now: Instant| {
        let over_nodes = limits
            .nodes
            .is_some_and(|n| nodes.load(Ordering::Relaxed) >= n);
        if outer_stop.load(Ordering::Relaxed)
            || deadline.is_some_and(|d| now >= d)
            || over_nodes
            || settled(&findings, classify, cyclic)
        {
            stop.store(true, Ordering::Relaxed);
            for flag in &root_done {
                flag.store(true, Ordering::Relaxed);
            }
        }
    };
    // Without threads (a browser) nobody else watches: the search checks
    // the limits itself as it counts its nodes.
    let watch = || check_limits(Instant::now());
    let run_job = |job: Job| {
        let (position, flag) = match job.target {
            Target::Root => (game, &root_done[slot(job.attacker)]),
            Target::Turn(i) => (&positions[i], &stop),
        };
        if flag.load(Ordering::Relaxed) {
            return;
        }
        let mut search = Dfpn::new(table, &keys, job.attacker, flag, &nodes, config);
        if cfg!(target_family = "wasm") {
            search.watch(&watch);
        }
        let numbers = search.solve(position);
        if !numbers.is_solved() && !stop.load(Ordering::Relaxed) {
            // Another search of the root finished first.
            return;
        }
        let mut f = findings.lock().unwrap_or_else(|e| e.into_inner());
        match job.target {
            Target::Root => {
                f.root[slot(job.attacker)] = Some(numbers);
                root_done[slot(job.attacker)].store(true, Ordering::Relaxed);
            }
            Target::Turn(i) => {
                f.turns[i][slot(job.attacker)] = Some(numbers);
                f.work[i] += search.nodes;
            }
        }
        drop(f);
        // In a game that can repeat, a failed proof asks for the other
        // side's.
        let first = asked
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(job.target);
        if cyclic && numbers.dn == 0 && job.attacker == mover && first {
            let mut q = queue.lock().unwrap_or_else(|e| e.into_inner());
            let copies = if job.target == Target::Root {
                threads
            } else {
                1
            };
            q.extend((0..copies).map(|_| Job {
                target: job.target,
                attacker: mover.opposite(),
            }));
        }
    };

    #[cfg(not(target_family = "wasm"))]
    std::thread::scope(|s| {
        let mut handles = Vec::new();
        for _ in 0..threads {
            let (queue, stop, busy, run_job) = (&queue, &stop, &busy, &run_job);
            let worker = move || {
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let job = {
                        let mut q = queue.lock().unwrap_or_else(|e| e.into_inner());
                        let job = q.pop_front();
                        if job.is_some() {
                            busy.fetch_add(1, Ordering::SeqCst);
                        }
                        job
                    };
                    match job {
                        Some(job) => {
                            run_job(job);
                            busy.fetch_sub(1, Ordering::SeqCst);
                        }
                        // Another thread's job may still add one.
                        None if busy.load(Ordering::SeqCst) > 0 => {
                            std::thread::sleep(Duration::from_millis(2));
                        }
                        None => break,
                    }
                }
            };
            let handle = std::thread::Builder::new()
                .stack_size(STACK_BYTES)
                .spawn_scoped(s, worker)
                .expect("a solver thread starts");
            handles.push(handle);
        }
        let mut next_report = progress.as_ref().map(|(_, every)| start + *every);
        while !handles.iter().all(|h| h.is_finished()) {
            std::thread::sleep(Duration::from_millis(1));
            let now = Instant::now();
            check_limits(now);
            if let (Some((f, every)), Some(at)) = (progress.as_mut(), next_report)
                && now >= at
            {
                let done = {
                    let fd = findings.lock().unwrap_or_else(|e| e.into_inner());
                    (0..turns.len())
                        .filter(|&i| turn_value(&fd, i, cyclic).is_some())
                        .count()
                };
                f(&SolveProgress {
                    nodes: nodes.load(Ordering::Relaxed),
                    elapsed: now - start,
                    root: table.get(root_key).map(|e| Numbers { pn: e.pn, dn: e.dn }),
                    turns_done: done,
                    turns: turns.len(),
                    table_entries: table.used(),
                });
                next_report = Some(at + *every);
            }
        }
    });

    // No threads in a browser: the jobs run one after another on the
    // calling thread, whose stack the module's link settings size; the
    // searches stop themselves at the limits (no progress is reported).
    #[cfg(target_family = "wasm")]
    {
        let _ = (&mut progress, &busy, root_key);
        loop {
            check_limits(Instant::now());
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let job = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front();
            match job {
                Some(job) => run_job(job),
                None => break,
            }
        }
    }

    let f = findings.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut turn_values: Vec<TurnValue> = turns
        .iter()
        .enumerate()
        .map(|(i, &turn)| {
            // A turn no job settled may be proven in the table by the
            // root's search.
            let (value, work) = match turn_value(&f, i, cyclic) {
                Some(v) => (Some(v), f.work[i]),
                None => from_table(&positions[i], table, &keys, mover, cyclic),
            };
            TurnValue {
                turn,
                value,
                work: work.max(f.work[i]),
            }
        })
        .collect();
    let value = if game.is_over() {
        None
    } else {
        root_value(&f, &turn_values, cyclic)
    };
    // A lost root (in a game without repetitions) loses with every turn.
    if value == Some(Value::Loss) && !cyclic {
        for t in &mut turn_values {
            t.value.get_or_insert(Value::Loss);
        }
    }
    let pv = match value {
        Some(Value::Win) => principal_line(game, table, &keys, mover, mover, config),
        Some(Value::Loss) if cyclic => principal_line(
            game,
            table,
            &keys,
            mover.opposite(),
            mover.opposite(),
            config,
        ),
        Some(Value::Loss) => principal_line(game, table, &keys, mover, mover.opposite(), config),
        _ => Vec::new(),
    };
    Solution {
        to_move: mover,
        value,
        turns: turn_values,
        pv,
        nodes: nodes.load(Ordering::Relaxed),
        table_entries: table.used(),
        table_capacity: table.capacity(),
        elapsed: start.elapsed(),
        root: f.root[0],
    }
}

/// Whether the jobs still queued can change nothing: the root is known
/// and either turns are not wanted or the root is lost in a game without
/// repetitions (every turn loses).
fn settled(findings: &Mutex<Findings>, classify: bool, cyclic: bool) -> bool {
    let f = findings.lock().unwrap_or_else(|e| e.into_inner());
    match f.root[0] {
        Some(n) if n.pn == 0 => !classify,
        Some(n) if n.dn == 0 && !cyclic => true,
        _ => false,
    }
}

/// A turn's value for the root's mover, from its searches: slot 0 is the
/// mover's proof attempt, slot 1 the opponent's (Onyx).
fn turn_value(f: &Findings, i: usize, cyclic: bool) -> Option<Value> {
    outcome(f.turns[i], cyclic).or_else(|| {
        // A lost root loses with every turn; a won root tells nothing of
        // one turn.
        match f.root[0] {
            Some(n) if n.dn == 0 && !cyclic => Some(Value::Loss),
            _ => None,
        }
    })
}

/// The value for the root's mover of a position searched by the mover
/// (`found[0]`) and, in Onyx, by the opponent (`found[1]`).
fn outcome(found: [Option<Numbers>; 2], cyclic: bool) -> Option<Value> {
    match (found[0], found[1]) {
        (Some(m), _) if m.pn == 0 => Some(Value::Win),
        (Some(m), _) if m.dn == 0 && !cyclic => Some(Value::Loss),
        (Some(m), Some(o)) if m.dn == 0 && o.pn == 0 => Some(Value::Loss),
        (Some(m), Some(o)) if m.dn == 0 && o.dn == 0 => Some(Value::Neither),
        _ => None,
    }
}

fn root_value(f: &Findings, turns: &[TurnValue], cyclic: bool) -> Option<Value> {
    let direct = outcome(f.root, cyclic);
    if direct.is_some() {
        return direct;
    }
    let values: Vec<Option<Value>> = turns.iter().map(|t| t.value).collect();
    if values.contains(&Some(Value::Win)) {
        Some(Value::Win)
    } else if !values.is_empty() && values.iter().all(|v| *v == Some(Value::Loss)) {
        Some(Value::Loss)
    } else if !values.is_empty() && values.iter().all(|v| v.is_some()) {
        Some(Value::Neither)
    } else {
        None
    }
}

/// The value for `mover` of `position` (after one of its turns) as the
/// table holds it, with the work under it.
fn from_table<G: Game>(
    position: &G,
    table: &Table,
    keys: &Keys,
    mover: Colour,
    cyclic: bool,
) -> (Option<Value>, u64) {
    if let Some(w) = position.winner() {
        return (Some(Value::of_win(w == mover)), 0);
    }
    let h = keys.hashes(position);
    let mine = table.get(keys.key(position, &h, mover));
    let theirs = || table.get(keys.key(position, &h, mover.opposite()));
    match mine {
        Some(e) if e.pn == 0 => (Some(Value::Win), e.work),
        Some(e) if e.dn == 0 && !e.path_dependent && !cyclic => (Some(Value::Loss), e.work),
        _ => match theirs() {
            Some(e) if cyclic && e.pn == 0 => (Some(Value::Loss), e.work),
            _ => (None, mine.map_or(0, |e| e.work)),
        },
    }
}

/// Follows the table from `game`: `winner` plays its cheapest proven
/// action, the loser the action whose proof took the most work. The table
/// holds the results of searches by `attacker`. Where the table proves a
/// position by a symmetric image of it whose children's keys differ (the
/// first stone of an Xodd or Yodd turn is keyed without symmetry), the
/// position is searched again, which its proven grandchildren make quick.
fn principal_line<G: Game>(
    game: &G,
    table: &Table,
    keys: &Keys,
    attacker: Colour,
    winner: Colour,
    config: DfpnConfig,
) -> Vec<Turn> {
    let mut pv = Vec::new();
    let mut g = game.clone();
    let mut h = keys.hashes(&g);
    let mut first: Option<Action> = None;
    let mut actions = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let stop = AtomicBool::new(false);
    let nodes = AtomicU64::new(0);
    while !g.is_over() && pv.len() < 200 {
        if !seen.insert(keys.key(&g, &h, attacker)) {
            break;
        }
        actions.clear();
        g.legal_actions(&mut actions);
        let mut pick: Option<(Action, u64)> = None;
        for attempt in 0..2 {
            for &a in &actions {
                let mut child = g.clone();
                child.apply(a);
                let ch = keys.after(&h, a, &child);
                let key = keys.key(&child, &ch, attacker);
                let work = match child.winner() {
                    Some(w) if w == winner => Some(0),
                    Some(_) => None,
                    None => table.proven_for(key, attacker, winner),
                };
                let Some(work) = work else {
                    continue;
                };
                let better = match pick {
                    None => true,
                    Some((_, w)) if g.to_move() == winner => work < w,
                    Some((_, w)) => work > w,
                };
                if better {
                    pick = Some((a, work));
                }
            }
            if pick.is_some() || attempt == 1 {
                break;
            }
            let key = keys.key(&g, &h, attacker);
            if table.proven_for(key, attacker, winner).is_none() {
                break;
            }
            Dfpn::new(table, keys, attacker, &stop, &nodes, config).solve(&g);
        }
        let Some((a, _)) = pick else {
            break;
        };
        let mut child = g.clone();
        child.apply(a);
        h = keys.after(&h, a, &child);
        g = child;
        if g.mid_turn() {
            first = Some(a);
        } else {
            pv.push(match first.take() {
                Some(f) => turn_of(f, (a != Action::END_TURN).then_some(a)),
                None => turn_of(a, None),
            });
        }
    }
    pv
}
