// The page's session in this tab: the same session as `oddity gui`'s,
// compiled to WebAssembly (the module's TabSession: the game tree, the rules'
// checks, the page's requests and state), with the engine in a dedicated
// Web Worker (engine-worker.js) so that the page never waits for it.
// app.js talks to it through the same interface as to the server
// (`open()` gives that object). Nothing leaves the tab: the page loads
// only its own files, and the game stays in this browser (its local
// storage, so that a reload brings it back) unless the player downloads
// it.

import { loadModule } from "./load.js";

// The engine's name in the seats and the engines list.
const ENGINE = "oddity";
// The engine's memory unless the player chose another (MiB): sized for a
// phone. Kept in the browser across reloads.
const DEFAULT_MEMORY = 256;
const MEMORY_KEY = "oddity-engine-memory";
// The game on the board, with its variations (SGF), its seats, the line
// being played and the turn shown, kept in the browser after each change
// so that a reload brings it back.
const GAME_KEY = "oddity-game";
// Its clocks (each turn's time, and the turn being played's), kept with it
// at each save and as the page goes: a reload brings them back, the
// running clock going on from where it was.
const CLOCKS_KEY = "oddity-clocks";
// At most one save per this many milliseconds while the state changes
// (an analysis changes it many times a second; the game far less often).
const SAVE_MILLIS = 200;

// What the page holds, for the console and the tests.
const ui = { ready: false, threads: 0, readyMillis: null, worker: null, bench: null, error: null };
window.oddity = ui;

function savedMemory() {
  let mb = NaN;
  try { mb = Number(localStorage.getItem(MEMORY_KEY)); } catch (e) { /* storage refused */ }
  return Number.isInteger(mb) && mb >= 16 && mb <= 4096 ? mb : DEFAULT_MEMORY;
}

// The kept game, opened in `session` with its seats; a kept game that
// does not open (another version's, or damaged) is forgotten.
function restoreGame(session) {
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(GAME_KEY)); } catch (e) { return; }
  if (!kept || typeof kept.sgf !== "string") return;
  if (JSON.parse(session.openSgf(kept.sgf, 1)).error) {
    try { localStorage.removeItem(GAME_KEY); localStorage.removeItem(CLOCKS_KEY); } catch (e) { /* storage refused */ }
    return;
  }
  const [black, white] = Array.isArray(kept.seats) ? kept.seats : [];
  if (typeof black === "string" && typeof white === "string") {
    session.request("seats", JSON.stringify({ black, white }));
  }
  if (Array.isArray(kept.line) && Number.isInteger(kept.view)) restorePlace(session, kept.line, kept.view);
  let clocks = null;
  try { clocks = localStorage.getItem(CLOCKS_KEY); } catch (e) { /* storage refused */ }
  if (clocks) session.restoreClocks(clocks);
}

// Back to the line that was being played (its turns' tokens) and the turn
// that was shown: down the tree, at each turn into the variation that
// played the kept turn, as far as the tree has it.
function restorePlace(session, line, view) {
  let s = JSON.parse(session.state());
  let reached = 0;
  for (const token of line) {
    const i = reached;
    if (!(s.moves[i] && s.moves[i].token === token)) {
      const parent = i === 0 ? s.tree.find((d) => d.parent === null).node : s.moves[i - 1].node;
      const tried = s.tree.filter((d) => d.parent === parent).map((d) => d.node);
      for (const node of tried) {
        session.request("node", JSON.stringify({ node }));
        s = JSON.parse(session.state());
        if (s.moves[i] && s.moves[i].token === token) break;
      }
      if (!(s.moves[i] && s.moves[i].token === token)) break;
    }
    reached++;
  }
  session.request("view", JSON.stringify({ turn: Math.min(view, reached) }));
}

// Keeps the game of `session` in the browser, at most once per
// SAVE_MILLIS, and as the page goes (a reload); called with the state
// after every change. The record is written out only when the game, the
// seats or the place in it changed (not for each analysis that arrives);
// the clocks at every save.
function keeper(session) {
  let pending = false;
  let latest = null;
  let savedKey = null;
  const save = () => {
    pending = false;
    try { localStorage.setItem(CLOCKS_KEY, session.clocks()); } catch (e) { /* the clocks stay in the tab */ }
    if (!latest) return;
    const line = latest.moves.map((m) => m.token);
    const key = JSON.stringify([latest.tree, latest.seats, line, latest.view]);
    if (key === savedKey) return;
    try {
      localStorage.setItem(GAME_KEY, JSON.stringify({ sgf: session.sgf(), seats: latest.seats, line, view: latest.view }));
      savedKey = key;
    } catch (e) { /* storage full or refused: the game stays in the tab */ }
  };
  addEventListener("pagehide", save);
  return (state) => {
    latest = state;
    if (pending) return;
    pending = true;
    setTimeout(() => { if (pending) save(); }, SAVE_MILLIS);
  };
}

// Set for this tab while the page reloads to come under its service
// worker's headers, so that it tries only once.
const ISOLATING_KEY = "oddity-isolating";
// Why the service worker is not there, or null.
let noServiceWorker = null;

function isolatingTried() {
  try {
    return sessionStorage.getItem(ISOLATING_KEY) !== null;
  } catch (e) {
    return true; // no storage to remember a try: none
  }
}

// The service worker (sw.js): the site kept in this browser for use
// offline, and the headers for threads added where the host sends none.
// When it first takes the page, the page reloads to be isolated (once);
// when a new version takes it, the page reloads onto the new files (the
// game is kept).
async function serviceWorker() {
  if (!("serviceWorker" in navigator)) {
    noServiceWorker = "this browser gives the page no service worker";
    return;
  }
  const before = navigator.serviceWorker.controller;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (before) {
      location.reload();
    } else if (self.crossOriginIsolated !== true && !isolatingTried()) {
      sessionStorage.setItem(ISOLATING_KEY, "1");
      location.reload();
    }
  });
  if (self.crossOriginIsolated === true) {
    try { sessionStorage.removeItem(ISOLATING_KEY); } catch (e) { /* storage refused */ }
  }
  try {
    const registration = await navigator.serviceWorker.register("sw.js");
    // Ask for a new version at every load, not only when the browser
    // would: a new version served is taken at once (a failed check, as
    // offline, leaves the cached one).
    if (before) registration.update().catch(() => {});
  } catch (e) {
    noServiceWorker = `its service worker could not be registered (${e.message || e})`;
  }
}

// Why search threads are not available here, or null.
function noThreads() {
  if (self.crossOriginIsolated !== true) {
    const why = noServiceWorker ? `; ${noServiceWorker}` : "";
    return "this page is not cross-origin isolated (the COOP and COEP headers), so there is no SharedArrayBuffer " +
      `for threads${why}`;
  }
  if (typeof SharedArrayBuffer !== "function") return "this browser gives no SharedArrayBuffer";
  return null;
}

// Drives the worker as the session asks (TabSession.engineWork), and gives
// the session the worker's news.
class Driver {
  constructor(session) {
    this.session = session;
    this.worker = null;
    this.memory = savedMemory();
    // Written by the page to stop a search, where memory can be shared.
    this.stop = typeof SharedArrayBuffer === "function"
      ? new Int32Array(new SharedArrayBuffer(4)) : null;
  }

  // Does what the session wants done, until it wants nothing more.
  pump() {
    let work;
    while ((work = this.session.engineWork())) {
      const w = JSON.parse(work);
      if (w.boot) this.boot();
      else if (w.start) this.think(w.start);
      else if (w.stop !== undefined) this.halt();
    }
  }

  boot() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    ui.ready = false;
    if (typeof Worker !== "function") {
      this.session.engineFailed("this browser has no Web Workers, which the engine needs to think " +
        "without freezing the page (people can still play each other here)");
      return;
    }
    const worker = new Worker("engine-worker.js", { type: "module" });
    this.worker = worker;
    ui.worker = worker;
    worker.onmessage = (event) => { if (this.worker === worker) this.receive(event.data); };
    worker.onerror = (event) => {
      event.preventDefault();
      if (this.worker !== worker) return;
      this.worker = null;
      this.session.engineFailed(`its module could not be loaded (${event.message || "the script did not load"})`);
      this.pump();
    };
    worker.postMessage({ type: "start", memory: this.memory });
  }

  think(job) {
    if (this.stop) Atomics.store(this.stop, 0, 0);
    this.worker.postMessage({
      type: "think", generation: job.generation, sgf: job.sgf,
      millis: job.millis, every: job.every, stop: this.stop,
    });
  }

  // Ends the search running: through the shared flag, or, where memory
  // cannot be shared, by starting the worker again.
  halt() {
    if (this.stop) {
      Atomics.store(this.stop, 0, 1);
      return;
    }
    this.session.engineRestarting();
    this.boot();
  }

  receive(m) {
    if (m.type === "ready") {
      ui.ready = true;
      ui.error = null;
      ui.threads = m.threads;
      if (ui.readyMillis === null) ui.readyMillis = performance.now();
      this.session.engineStarted(m.threads, m.why || noThreads() || undefined);
    } else if (m.type === "progress") {
      this.session.engineReport(m.generation, m.thought, false);
    } else if (m.type === "best") {
      this.session.engineReport(m.generation, m.thought, true);
    } else if (m.type === "bench") {
      ui.bench = m.rate;
    } else if (m.type === "error") {
      ui.ready = false;
      // The session puts this in its own sentences, which say that the
      // game is kept and how to restart: it says what happened and what
      // helps. A trap's own text ("unreachable") would tell a person
      // nothing.
      const at = m.size ? ` at ${m.size} MiB of the ${this.memory} MiB set under Engines`
        : ` with ${this.memory} MiB set under Engines`;
      const why = m.memory
        ? `it ran out of memory${at}; set less memory there to start it again`
        : `it stopped: ${m.message}. The game is kept, and can still be downloaded as SGF`;
      ui.error = why;
      if (m.starting) this.session.engineFailed(why);
      else this.session.engineStopped(why);
    }
    this.pump();
  }

  // A new memory budget: the engine starts again with it.
  setMemory(mb) {
    if (!(Number.isInteger(mb) && mb >= 16 && mb <= 4096)) {
      return { error: "the engine's memory is a whole number of MiB from 16 to 4096" };
    }
    this.memory = mb;
    try { localStorage.setItem(MEMORY_KEY, String(mb)); } catch (e) { /* kept for this page */ }
    this.session.engineRestarting();
    this.boot();
    this.pump();
    return { ok: true };
  }
}

// The session in this tab, behind the interface app.js uses for the
// server's (requests by name, the catalogue, SGF out and in, the states).
export async function open() {
  await serviceWorker();
  const { TabSession } = (await loadModule("pkg")).module;
  let listener = null;
  let keep = () => {};
  const session = new TabSession(ENGINE, (text) => {
    const state = JSON.parse(text);
    keep(state);
    if (listener) listener(state);
  });
  restoreGame(session);
  keep = keeper(session);
  const driver = new Driver(session);
  const after = (text) => {
    driver.pump();
    return JSON.parse(text);
  };
  return {
    async request(name, body) {
      return after(session.request(name, body === undefined ? "{}" : JSON.stringify(body)));
    },
    async games() {
      return JSON.parse(session.games());
    },
    async openSgf(text, game) {
      return after(session.openSgf(text, game));
    },
    async sgf() {
      return session.sgf();
    },
    subscribe(onState) {
      listener = onState;
      onState(JSON.parse(session.state()));
      driver.pump();
    },
    memory() {
      return driver.memory;
    },
    setMemory(mb) {
      return driver.setMemory(mb);
    },
  };
}
