// The oddity page. The session (the game tree, the rules' checks, the
// engines' work) is kept by `oddity gui`'s server, or, in the static folder
// that web/build.sh writes, by the same Rust code compiled to WebAssembly
// in this tab (tab.js); this script draws the state it sends, composes a
// person's turn, and draws the analysis over the board picture.
// Everything it says to the session goes through `transport`.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";
const LISTED = 10;       // candidates listed in the table

let catalogue = null;   // the games, their sizes and facts, the heat palette (GET /api/games)
let state = null;       // the last state from the server
let boardSvgText = "";  // the picture now in the page
let pending = [];       // stones of the turn being composed: {cell, colour}
let previews = [];      // the server's verdict on pending[0..=i], for each i
let composeSeq = 0;     // answers to older previews are dropped
let previewLine = null; // a candidate's line shown on the board: {seat, token, pv}
let heldOrder = null;   // the candidates' order while the pointer is over the table
let heldRows = new Map(); // their rows as last listed, by token
let listedRows = [];    // the candidates listed now
let formFilled = null;   // the game, size and seats the form last showed
let stateAt = 0;        // when the last state arrived (performance.now())
let playableAt = null;  // when a board a person may play on was first drawn
let opened = null;      // the SGF file last opened: {name, text}

// When the analysis is drawn on the board: "off", "thinking" (while an
// engine searches the position shown) or "always" (whenever the position
// shown has one). Kept in the browser across reloads.
const OVERLAY_MODES = ["thinking", "always", "off"];
const OVERLAY_WORDS = { thinking: "while thinking", always: "always", off: "off" };
let overlayMode = readOverlayMode();

function readOverlayMode() {
  let saved = null;
  try { saved = localStorage.getItem("oddity-overlays"); } catch (e) { /* storage refused */ }
  return OVERLAY_MODES.includes(saved) ? saved : "thinking";
}

function nextOverlayMode() {
  overlayMode = OVERLAY_MODES[(OVERLAY_MODES.indexOf(overlayMode) + 1) % OVERLAY_MODES.length];
  try { localStorage.setItem("oddity-overlays", overlayMode); } catch (e) { /* kept for this page */ }
  drawOverlayButton();
  if (state) drawOverlay();
}

function drawOverlayButton() {
  const b = $("overlays");
  b.textContent = `Board analysis: ${OVERLAY_WORDS[overlayMode]}`;
  b.dataset.mode = overlayMode;
}

// The analysis shown belongs to the position on the board (not the turn
// before it), and the mode asks for it now.
function analysisOnBoard() {
  const a = state.analysis;
  if (!a || a.turn !== state.view || overlayMode === "off") return false;
  return overlayMode === "always" || state.analysis_live;
}

// Distinct colours for the groups counted at the end.
const GROUP_COLOURS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4",
  "#f032e6", "#9a6324", "#469990", "#bfef45"];

// ---- the transport: every exchange with the session ----
// One small object: requests by name (the session's changes), the SGF
// record out and in, the game catalogue, and the stream of states. Every
// answer is a JSON object, `{error}` when refused. A page that runs the
// session itself (compiled to WebAssembly) gives an object of the same
// shape (tab.js); nothing else in this script knows where the session is.
const serverTransport = {
  // A change or a question (`play`, `view`, `node`, ...) with its JSON body.
  async request(name, body) {
    const options = { method: "POST", headers: { "Content-Type": "application/json" } };
    if (body !== undefined) options.body = JSON.stringify(body);
    return this.answer(() => fetch(`api/${name}`, options));
  },
  // The game catalogue, or null while the server cannot be reached.
  async games() {
    try {
      const response = await fetch("api/games");
      return response.ok ? await response.json() : null;
    } catch (e) {
      return null;
    }
  },
  // Opens game `game` (from 1) of an SGF file's text: {ok, game, games}.
  async openSgf(text, game) {
    return this.answer(() => fetch(`api/sgf?game=${game}`, { method: "POST", body: text }));
  },
  // The game as SGF text, or null.
  async sgf() {
    try {
      const response = await fetch("api/sgf");
      return response.ok ? await response.text() : null;
    } catch (e) {
      return null;
    }
  },
  // Calls onState with every state, now and after each change, and
  // onLost(true/false) as the stream is lost and found again.
  subscribe(onState, onLost) {
    const events = new EventSource("api/events");
    events.addEventListener("state", (e) => { onLost(false); onState(JSON.parse(e.data)); });
    events.onerror = () => onLost(true);
  },
  async answer(send) {
    let response;
    try {
      response = await send();
    } catch (e) {
      return { error: "the server cannot be reached" };
    }
    try {
      return await response.json();
    } catch (e) {
      return { error: `the server answered ${response.status}` };
    }
  },
};

let transport = serverTransport;

// The session of this page: the server's, or, where the page was written
// as a static folder, the one of tab.js. Throws what the page should say.
async function openTransport() {
  if (document.documentElement.dataset.session !== "tab") return serverTransport;
  if (typeof WebAssembly !== "object") {
    throw new Error("This browser has no WebAssembly, which the game and its engine need: " +
      "use a current Chrome, Firefox, Safari or Edge.");
  }
  let tab;
  try {
    tab = await import("./tab.js");
  } catch (e) {
    throw new Error(`The page's module could not be loaded (${e.message || e}). Reload the page; ` +
      "if it goes on, the site is missing its files.");
  }
  try {
    return await tab.open();
  } catch (e) {
    throw new Error(`The game could not start: ${e.message || e}. ` +
      "Reload the page; if it goes on, the site is missing that file.");
  }
}

function pageAlert(text) {
  const a = $("page-alert");
  a.textContent = text;
  a.hidden = false;
}

function api(name, body) {
  return transport.request(name, body);
}

function showReason(text, fine) {
  const r = $("reason");
  r.textContent = text || "";
  r.className = fine ? "fine" : "";
}

async function send(name, body) {
  const answer = await api(name, body);
  if (answer.error) showReason(answer.error, false);
  return answer;
}

// States come faster than a screen shows them while an engine analyses:
// only the last one before each frame is drawn. A state with another turn
// or position (a click played, the engine's answer) is drawn at once.
let arrived = null;
let frameAsked = false;

function newPlace(s) {
  return !state || s.game !== state.game || s.moves.length !== state.moves.length || s.view !== state.view
    || s.node !== state.node || s.human_turn !== state.human_turn;
}

function drawArrived() {
  const s = arrived;
  arrived = null;
  if (!s) return;
  draw(s);
  if (playableAt === null && s.human_turn) playableAt = performance.now();
}

function connect() {
  transport.subscribe((s) => {
    stateAt = performance.now();
    arrived = s;
    if (newPlace(s)) {
      drawArrived();
    } else if (!frameAsked) {
      frameAsked = true;
      requestAnimationFrame(() => {
        frameAsked = false;
        drawArrived();
      });
    }
  }, (lost) => { $("connection").hidden = !lost; });
}

// ---- the board ----

function svgRoot() { return $("board").querySelector("svg:not(.overlay-layer)"); }

// The cells' centres and radii in the picture's own coordinates, by name:
// measured once per picture (measuring asks the browser for its layout,
// too slow to do for every cell of every analysis drawn).
let measuredSpots = null;

function cellSpots() {
  if (measuredSpots) return measuredSpots;
  const found = new Map();
  const svg = svgRoot();
  const fromScreen = svg && svg.getScreenCTM();
  if (!fromScreen) return found; // no picture, or not laid out: measured later
  const toScreen = fromScreen.inverse();
  const p = svg.createSVGPoint();
  for (const el of svg.querySelectorAll("[data-cell]")) {
    const box = el.getBBox();
    const toRoot = toScreen.multiply(el.getScreenCTM());
    p.x = box.x + box.width / 2;
    p.y = box.y + box.height / 2;
    const c = p.matrixTransform(toRoot);
    const r = Math.max(Math.min(box.width, box.height) * Math.abs(toRoot.a) / 2, 0.2);
    found.set(el.getAttribute("data-cell"), { x: c.x, y: c.y, r, room: Infinity });
  }
  // Each cell's room: half the distance to its nearest neighbour.
  const all = [...found.values()];
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length; j++) {
      const half = Math.hypot(all[i].x - all[j].x, all[i].y - all[j].y) / 2;
      if (half < all[i].room) all[i].room = half;
      if (half < all[j].room) all[j].room = half;
    }
  }
  measuredSpots = found;
  return found;
}

// Cells this far apart (CSS px) at least where the pointer is a finger or
// the screen narrow (24 px, the smallest target WCAG 2.2 allows, and a
// margin): a board whose cells would be closer is drawn larger and
// scrolls within its box.
const TOUCH_SPACING = 25;
const FINGERS = matchMedia("(pointer: coarse), (max-width: 600px)");

function fitBoard() {
  const svg = svgRoot();
  if (!svg) return;
  svg.style.width = "";
  if (!FINGERS.matches) return;
  const rooms = [...cellSpots().values()].map((p) => p.room).filter(Number.isFinite);
  const box = svg.viewBox.baseVal;
  if (!rooms.length || !box || !box.width) return;
  const spacing = 2 * Math.min(...rooms) * svg.clientWidth / box.width;
  if (spacing < TOUCH_SPACING) svg.style.width = `${Math.ceil(svg.clientWidth * TOUCH_SPACING / spacing)}px`;
}

// Where the stones begin in a board picture: everything before them (the
// board, its cells, lines and labels) is the same for every position of a
// game.
const STONES = '<g class="stones"';

// Puts in `svg`, the picture now on the board, the stones and what
// follows them of the picture `text`, when all before them is as shown:
// a turn played then lays out and paints only its stones, not the
// thousand lines and cells of Onyx's board. False (nothing done) where
// more than the stones changed.
function patchStones(svg, text) {
  const at = text.indexOf(STONES);
  const first = svg.querySelector(":scope > g.stones");
  if (at < 0 || !first || boardSvgText.indexOf(STONES) !== at ||
      text.slice(0, at) !== boardSvgText.slice(0, at)) return false;
  const end = text.lastIndexOf("</svg>");
  const tail = new DOMParser().parseFromString(
    `<svg xmlns="${SVG_NS}">${text.slice(at, end)}</svg>`, "image/svg+xml").documentElement;
  if (tail.querySelector("parsererror")) return false;
  while (first.nextSibling) first.nextSibling.remove();
  first.remove();
  for (const node of [...tail.childNodes]) svg.appendChild(document.importNode(node, true));
  return true;
}

// Puts the picture `text` on the board in place of the one there. True
// where the cells may have moved, so that they must be measured again:
// the cells are those of the game and size, in the picture's frame (a
// turn played changes neither).
function patchBoard(text) {
  const old = svgRoot();
  if (old && patchStones(old, text)) return false;
  const frame = (svg) => ["viewBox", "data-game", "data-size"].map((a) => svg.getAttribute(a)).join(" ");
  if (!old) {
    $("board").insertAdjacentHTML("afterbegin", text);
    return true;
  }
  const before = frame(old);
  const width = old.style.width;
  old.outerHTML = text;
  const svg = svgRoot();
  if (frame(svg) !== before) return true;
  svg.style.width = width;
  return false;
}

// Centre and radius of a cell in the picture's own coordinates.
function cellSpot(name) {
  return cellSpots().get(name) || null;
}

// The page's drawing over the board picture: a picture of its own laid
// over it, in the same coordinates and size, so that the analysis drawn
// several times a second leaves the board (a thousand cells on the
// largest) to be neither laid out nor painted again.
function overlay() {
  const svg = svgRoot();
  if (!svg) return null;
  let layer = $("board").querySelector("svg.overlay-layer");
  if (!layer) {
    layer = document.createElementNS(SVG_NS, "svg");
    layer.setAttribute("class", "overlay-layer");
    const g = document.createElementNS(SVG_NS, "g");
    g.id = "overlay";
    layer.appendChild(g);
    $("board").appendChild(layer);
  }
  const box = svg.getAttribute("viewBox");
  if (layer.getAttribute("viewBox") !== box) layer.setAttribute("viewBox", box);
  if (layer.style.width !== svg.style.width) layer.style.width = svg.style.width;
  return layer.firstChild;
}

function shape(g, tag, attrs, text) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  g.appendChild(el);
  return el;
}

// A shape of the overlay, to be drawn by `patchShapes`: its numbers
// rounded, since the picture cannot show a finer difference and a value
// that did not change needs no drawing.
function overlayShape(shapes, tag, attrs, text) {
  const rounded = {};
  for (const [k, v] of Object.entries(attrs)) {
    rounded[k] = typeof v === "number" ? String(Math.round(v * 1000) / 1000) : String(v);
  }
  shapes.push({ tag, attrs: rounded, text: text === undefined ? undefined : String(text) });
}

// Makes the children of `g` the `shapes`, in order, changing only what
// differs from what is there: an analysis that arrives many times a
// second moves a few circles instead of building the overlay again (new
// elements cost the browser their style and layout).
function patchShapes(g, shapes) {
  let el = g.firstElementChild;
  for (const want of shapes) {
    if (!el || el.localName !== want.tag) {
      const made = document.createElementNS(SVG_NS, want.tag);
      made.drawn = {};
      g.insertBefore(made, el);
      el = made;
    }
    const drawn = el.drawn;
    for (const k in drawn) {
      if (!(k in want.attrs)) el.removeAttribute(k);
    }
    for (const k in want.attrs) {
      if (drawn[k] !== want.attrs[k]) el.setAttribute(k, want.attrs[k]);
    }
    el.drawn = want.attrs;
    const text = want.text === undefined ? "" : want.text;
    if (el.textContent !== text) el.textContent = text;
    el = el.nextElementSibling;
  }
  while (el) {
    const next = el.nextElementSibling;
    el.remove();
    el = next;
  }
}

// The stones a token puts down: [{cell, colour}] (Onyx: the mover's colour).
function tokenStones(token, mover) {
  if (!token || token === "pass" || token === "swap" || token === "resign") return [];
  return token.split(",").map((part) => {
    const i = part.indexOf(":");
    return i < 0 ? { cell: part, colour: mover } : { cell: part.slice(i + 1), colour: part.slice(0, i) };
  });
}

// A game's entry in the catalogue, by its id.
function gameInfo(id) {
  return catalogue.games.find((g) => g.id === id);
}

function heatColour(t) {
  const lo = catalogue.heat.low, hi = catalogue.heat.high;
  const m = (a, b) => Math.round(a + (b - a) * t);
  return `rgb(${m(lo[0], hi[0])},${m(lo[1], hi[1])},${m(lo[2], hi[2])})`;
}

function drawOverlay() {
  const g = overlay();
  if (!g) return;
  const shapes = [];
  const a = state.analysis;
  if (!previewLine && analysisOnBoard()) {
    // Where a turn may be two stones, the best turns are drawn as turns
    // and the cells' heat only faintly under them.
    const turns = a.best && a.best.length ? a.best : null;
    drawHeat(shapes, a, turns !== null);
    if (turns) drawBestTurns(shapes, turns);
  }
  if (previewLine) {
    let mover = previewLine.seat;
    previewLine.pv.forEach((token, i) => {
      for (const s of tokenStones(token, mover)) {
        const spot = cellSpot(s.cell);
        if (!spot) continue;
        const black = s.colour === "B";
        overlayShape(shapes, "circle", {
          class: "ov-pv", cx: spot.x, cy: spot.y, r: spot.r * 0.8,
          fill: black ? "#1c1c1c" : "#fafafa", stroke: "#555", "stroke-width": spot.r * 0.06,
        });
        overlayShape(shapes, "text", {
          class: "ov-label", x: spot.x, y: spot.y, "font-size": spot.r * 0.8,
          fill: black ? "#fff" : "#000",
        }, i + 1);
      }
      mover = mover === "B" ? "W" : "B";
    });
  }
  for (const s of pending) {
    const spot = cellSpot(s.cell);
    if (!spot) continue;
    overlayShape(shapes, "circle", {
      class: "ov-pending", cx: spot.x, cy: spot.y, r: spot.r * 0.8,
      fill: s.colour === "B" ? "#1c1c1c" : "#fafafa", "stroke-width": spot.r * 0.12,
      "data-pending": s.cell,
    });
  }
  if (state.counted_groups) drawGroups(shapes);
  if (state.result && state.view === state.moves.length) {
    for (const cell of state.result.chain) {
      const spot = cellSpot(cell);
      if (!spot) continue;
      overlayShape(shapes, "circle", {
        class: "ov-chain", cx: spot.x, cy: spot.y, r: spot.r * 0.95, "stroke-width": spot.r * 0.22,
      });
    }
  }
  patchShapes(g, shapes);
}

// Heat map, as the server computed it: each cell by its share of the
// candidates' visits, ringed (where a stone's colour is free) in the colour
// most of those visits put there; a cell whose most visited candidate is
// listed is labelled with that candidate's win rate. `faint`: only a pale
// shade, unlabelled, under the best turns.
function drawHeat(shapes, a, faint) {
  for (const h of a.heat) {
    const spot = cellSpot(h.cell);
    if (!spot) continue;
    const listed = h.top < LISTED && !faint;
    if (h.share < (faint ? 0.1 : 0.03) && !listed) continue; // too few visits to show
    const t = h.share;
    const ring = h.colour && !faint
      ? { "data-colour": h.colour, stroke: h.colour === "B" ? "#111" : "#fff", "stroke-width": spot.r * 0.16 }
      : {};
    overlayShape(shapes, "circle", {
      class: "ov-heat", cx: spot.x, cy: spot.y,
      r: spot.r * (faint ? 0.15 + 0.3 * Math.sqrt(t) : 0.3 + 0.6 * Math.sqrt(t)),
      fill: heatColour(t), "fill-opacity": faint ? 0.1 + 0.2 * t : 0.3 + 0.5 * t, "data-heat": h.cell, ...ring,
    });
    if (listed) {
      // As large as the cell's room allows (Onyx's points are small).
      const label = Math.max(spot.r, spot.room * 0.8) * 0.75;
      overlayShape(shapes, "text", {
        class: "ov-label", x: spot.x, y: spot.y, "font-size": label, fill: "#fff",
        stroke: "#000", "stroke-width": label * 0.04,
      }, Math.round(h.winrate * 100));
    }
  }
}

// The engine's best turns as turns: each turn's stones in their colours,
// joined, numbered by rank (1 the most visited), the best ringed in red and
// labelled with its win rate, the others paler by their share of visits.
function drawBestTurns(shapes, turns) {
  turns.map((t, i) => [t, i + 1]).reverse().forEach(([t, rank]) => {
    const spots = t.stones.map(([cell, colour]) => ({ colour, spot: cellSpot(cell), cell }))
      .filter((s) => s.spot);
    if (!spots.length) return;
    const r = Math.min(...spots.map((s) => s.spot.r));
    const best = rank === 1;
    const opacity = best ? 0.9 : 0.25 + 0.45 * t.share;
    const attrs = { "data-best": rank, "data-token": t.token };
    if (spots.length === 2) {
      const [p, q] = spots.map((s) => s.spot);
      overlayShape(shapes, "line", {
        class: "ov-best-link", x1: p.x, y1: p.y, x2: q.x, y2: q.y, stroke: best ? "#d62728" : "#6b5d48",
        "stroke-width": r * (best ? 0.3 : 0.18), "stroke-opacity": opacity, ...attrs,
      });
    }
    for (const s of spots) {
      const black = s.colour === "B";
      overlayShape(shapes, "circle", {
        class: "ov-best", cx: s.spot.x, cy: s.spot.y, r: r * 0.72, fill: black ? "#1c1c1c" : "#fafafa",
        "fill-opacity": opacity, stroke: best ? "#d62728" : "#6b5d48", "stroke-width": r * (best ? 0.18 : 0.08),
        "data-cell-of": s.cell, ...attrs,
      });
      overlayShape(shapes, "text", {
        class: "ov-label ov-rank", x: s.spot.x, y: s.spot.y, "font-size": r * (best ? 0.85 : 0.7),
        fill: black ? "#fff" : "#000", "fill-opacity": Math.max(opacity, 0.7),
      }, rank);
    }
    if (best) {
      const top = spots.reduce((a, b) => (b.spot.y < a.spot.y ? b : a)).spot;
      overlayShape(shapes, "text", {
        class: "ov-label ov-best-rate", x: top.x, y: top.y - r * 1.05, "font-size": r * 0.6,
        fill: "#d62728", stroke: "#fff", "stroke-width": r * 0.12, "paint-order": "stroke",
      }, `${(t.winrate * 100).toFixed(0)}%`);
    }
  });
}

// The groups of a finished position: each counted group joined and ringed
// in its own colour and numbered (per stone colour); Odd's groups too small
// to count ringed in dashed grey.
function drawGroups(shapes) {
  const numbers = { B: 0, W: 0 };
  let colourAt = 0;
  state.counted_groups.forEach((group, i) => {
    const spots = new Map(group.cells.map((c) => [c, cellSpot(c)]));
    const r = Math.min(...[...spots.values()].filter(Boolean).map((p) => p.r));
    const colour = group.counted ? GROUP_COLOURS[colourAt++ % GROUP_COLOURS.length] : "#8c8c8c";
    const attrs = { "data-group": i, "data-colour": group.colour };
    const cls = group.counted ? "ov-group" : "ov-small";
    for (const [a, b] of group.links) {
      const p = spots.get(a), q = spots.get(b);
      if (!p || !q) continue;
      overlayShape(shapes, "line", {
        class: `${cls}-link`, x1: p.x, y1: p.y, x2: q.x, y2: q.y, stroke: colour,
        "stroke-width": r * (group.counted ? 0.35 : 0.15), ...attrs,
      });
    }
    for (const [cell, p] of spots) {
      if (!p) continue;
      const dashes = group.counted ? {} : { "stroke-dasharray": `${p.r * 0.25} ${p.r * 0.2}` };
      overlayShape(shapes, "circle", {
        class: cls, cx: p.x, cy: p.y, r: p.r * 0.92, fill: "none", stroke: colour,
        "stroke-width": p.r * (group.counted ? 0.2 : 0.14), "data-cell-of": cell, ...attrs, ...dashes,
      });
    }
    if (group.counted) {
      const p = spots.get(group.cells[0]);
      numbers[group.colour]++;
      if (p) {
        overlayShape(shapes, "text", {
          class: "ov-label ov-group-no", x: p.x, y: p.y, "font-size": p.r * 0.9,
          fill: group.colour === "B" ? "#fff" : "#000",
        }, numbers[group.colour]);
      }
    }
  });
}

// What was counted at the end, in words.
function scoreText(s) {
  if (!s.counted_groups) return "";
  const counted = (c) => s.counted_groups.filter((g) => g.counted && g.colour === c).length;
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const text = `Counted: Black ${plural(counted("B"), "group")}, White ${plural(counted("W"), "group")}`;
  if (!gameInfo(s.game).has_min_group) return `${text}; fewer groups wins.`;
  const small = s.counted_groups.filter((g) => !g.counted).length;
  const total = counted("B") + counted("W");
  const uncounted = small ? `; ${plural(small, "smaller group")} not counted` : "";
  return `${text} (groups of ${s.min_group}+ stones), ${total} in all${uncounted}.`;
}

// ---- composing a person's turn ----

function chosenColour() {
  return $("colour-w").checked ? "W" : "B";
}

function resetComposer() {
  pending = [];
  previews = [];
  composeSeq++;
  $("confirm").disabled = true;
  $("clear").disabled = true;
}

async function clickCell(cell) {
  if (!state || !state.human_turn) {
    if (state) showReason(state.why_not || "no turn can be played here", false);
    return;
  }
  const game = gameInfo(state.game);
  if (!game.colour_is_chosen) return playToken(cell);
  if (!game.has_two_stone_turns) return playToken(`${chosenColour()}:${cell}`);
  // Xodd and Yodd: one or two stones, then confirm.
  const at = pending.findIndex((s) => s.cell === cell);
  if (at >= 0) {
    pending.splice(at, 1);
    previews = [];
    await checkPending(false);
  } else if (pending.length >= 2) {
    showReason("a turn has at most two stones: confirm, or click a stone to take it back", false);
  } else {
    pending.push({ cell, colour: chosenColour() });
    await checkPending(true);
  }
}

// Asks the server about the pending stones. A refused new stone is taken
// back, and the stones before it stay as they were, Confirm included.
async function checkPending(added) {
  const seq = ++composeSeq;
  $("clear").disabled = pending.length === 0;
  $("confirm").disabled = true;
  drawOverlay();
  if (pending.length === 0) {
    showReason("");
    return;
  }
  const p = await api("preview", { stones: pending });
  if (seq !== composeSeq) return;
  const refused = p.error || !p.ok;
  if (refused && added) {
    pending.pop();
    const before = previews[pending.length - 1];
    const still = before && before.complete ? `; ${before.token} can still be confirmed` : "";
    showReason(`refused: ${p.error || p.reason}${still}`, false);
  } else {
    previews[pending.length - 1] = p;
    if (refused) showReason(`refused: ${p.error || p.reason}`, false);
    else if (p.complete) {
      const more = pending.length === 1 && state.moves.length > 0;
      showReason(`${p.token}: confirm the turn${more ? ", or add a second stone" : ""}`, true);
    } else showReason(p.reason, true);
  }
  const now = previews[pending.length - 1];
  $("confirm").disabled = !(now && now.ok && now.complete);
  $("clear").disabled = pending.length === 0;
  drawOverlay();
}

async function playToken(token) {
  const answer = await api("play", { token });
  if (answer.error) {
    showReason(`refused: ${answer.error}`, false);
  } else {
    showReason("");
    resetComposer();
  }
}

async function confirmTurn() {
  const tokens = pending.map((s) => `${s.colour}:${s.cell}`);
  if (tokens.length) await playToken(tokens.join(","));
}

// ---- drawing the state ----

function seatName(seat) { return seat === "b" ? "Black" : "White"; }

// `text` ending with a full stop.
function sentence(text) {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function draw(s) {
  const boardChanged = !state || s.board !== boardSvgText;
  const turnChanged = !state || s.moves.length !== state.moves.length || s.game !== state.game
    || s.view !== state.view || s.node !== state.node || s.human_turn !== state.human_turn;
  // A hint about the position left behind is stale on another.
  if (state && (s.view !== state.view || s.node !== state.node)) showReason("");
  state = s;
  if (boardChanged) {
    if (patchBoard(s.board)) {
      measuredSpots = null;
      fitBoard();
    }
    boardSvgText = s.board;
  }
  if (turnChanged) {
    resetComposer();
    previewLine = null;
    const own = s.to_move === "b" ? "colour-b" : "colour-w";
    $(own).checked = true;
  }
  setText($("title"), `${gameInfo(s.game).title} ${s.size}${s.rules ? " (" + s.rules + ")" : ""}: ` +
    `Black ${s.seats[0]}, White ${s.seats[1]}`);
  const status = $("status");
  if (s.result && s.view === s.moves.length) {
    setText(status, `Game over (${s.result.code}). ${sentence(s.result.text)}`);
    status.className = "over";
  } else if (s.finished) {
    setText(status, `Game over (${s.finished.code}). ${s.finished.text}. ` +
      `Reviewing turn ${s.view} of ${s.moves.length}.`);
    status.className = "over";
  } else {
    const who = s.seats[s.to_move === "b" ? 0 : 1];
    const stopped = s.engines.some((e) => e.name === who && e.fault) ? ", stopped" : "";
    const paused = s.paused ? " Paused." : "";
    const groups = !gameInfo(s.game).counts_groups ? "" : ` Groups: Black ${s.groups[0]}, White ${s.groups[1]}.`;
    const review = s.view !== s.moves.length ? ` (reviewing turn ${s.view} of ${s.moves.length})` : "";
    setText(status, `${seatName(s.to_move)} to move (${who}${stopped}).${paused}${groups}${review}`);
    status.className = "";
  }
  setText($("score"), scoreText(s));
  $("score").hidden = !s.counted_groups;
  $("captured").hidden = !s.captured;
  if (s.captured) {
    setText($("captured"), `Captured: ${s.captured[0]} black, ${s.captured[1]} white`);
  }
  drawClocks();
  const notice = $("notice");
  notice.hidden = !s.notice;
  if (s.notice) {
    setText(notice, s.notice.text);
    notice.className = s.notice.level;
  }
  const game = gameInfo(s.game);
  const parity = game.has_two_stone_turns;
  const person = s.seats.includes("human");
  // After the end only looking back (a turn tried there starts a
  // variation) and starting again apply.
  const playing = person && !s.over;
  const composing = playing || s.human_turn;
  $("colours").hidden = !game.colour_is_chosen || !composing;
  $("confirm").hidden = !parity || !composing;
  $("clear").hidden = !parity || !composing;
  $("pass").hidden = !s.can_pass;
  $("swap").hidden = !s.can_swap;
  $("resign").hidden = !playing;
  $("analyze-label").hidden = !person;
  $("pause").hidden = person || s.over;
  setText($("pause"), s.paused ? "Resume" : "Pause");
  $("board").classList.toggle("waiting", !s.human_turn);
  $("analyze").checked = s.analysis_wanted;
  drawCandidates();
  whenChanged("graph", [s.winrates, s.view], drawGraph);
  whenChanged("moves", [s.moves, s.view, s.node, s.node_name], drawMoves);
  whenChanged("tree", [s.tree, s.node], drawTree);
  whenChanged("engines", s.engines, () => { drawEngines(); drawEngineAlert(); });
  fillForm();
  drawOverlay();
}

// What each panel was last drawn from, as JSON.
const drawnFrom = new Map();

// Draws a panel again only when what it shows has changed.
function whenChanged(panel, from, drawPanel) {
  const key = JSON.stringify(from);
  if (drawnFrom.get(panel) === key) return;
  drawnFrom.set(panel, key);
  drawPanel();
}

// The candidates to list: while the pointer is over the table, in the
// order they had when it came, so that the row under it keeps its turn.
// A held turn that drops out of the engine's list (it keeps its most
// visited ones) keeps its row as last listed.
function listed(a) {
  const top = a.candidates.slice(0, LISTED);
  if (!heldOrder) return top;
  const byToken = new Map(a.candidates.map((c) => [c.token, c]));
  const kept = heldOrder.map((t) => byToken.get(t) || heldRows.get(t)).filter(Boolean);
  for (const c of kept) heldRows.set(c.token, c);
  const rest = top.filter((c) => !heldOrder.includes(c.token));
  return kept.concat(rest).slice(0, LISTED);
}

function drawCandidates() {
  const a = state.analysis;
  const body = $("candidates").querySelector("tbody");
  const visits = a ? a.candidates.reduce((n, c) => n + c.visits, 0) : 0;
  if (!a) {
    listedRows = [];
    body.replaceChildren();
    setText($("analysis-head"), "No analysis of this position.");
    return;
  }
  if (a.turn === state.view) {
    setText($("analysis-head"), `${a.engine} for ${seatName(a.seat)}, ${visits} visits`);
  } else {
    const played = state.moves[a.turn] ? `, played ${state.moves[a.turn].token}` : "";
    setText($("analysis-head"), `${a.engine} for ${seatName(a.seat)} at turn ${a.turn + 1}${played}: ${visits} visits`);
  }
  if (previewLine) {
    // The line previewed follows its turn's latest analysis.
    const same = a.turn === state.view && (a.candidates.find((c) => c.token === previewLine.token)
      || (heldOrder && heldRows.get(previewLine.token)));
    if (same) previewLine.pv = same.pv;
    else previewLine = null;
  }
  listedRows = listed(a);
  // The rows there are kept and only their text changed.
  while (body.rows.length > listedRows.length) body.lastElementChild.remove();
  while (body.rows.length < listedRows.length) body.appendChild(candidateRow());
  listedRows.forEach((c, i) => {
    const tr = body.rows[i];
    const texts = [c.token, String(c.visits), `${(c.winrate * 100).toFixed(1)}%`, c.pv.slice(0, 8).join(" ")];
    texts.forEach((text, j) => setText(tr.cells[j], text));
    if (tr.lastChild.title !== texts[3]) tr.lastChild.title = texts[3];
    tr.dataset.token = c.token;
    tr.classList.toggle("previewing", Boolean(previewLine && previewLine.token === c.token));
    // A line is drawn only from the position it starts from.
    tr.shows = a.turn === state.view ? { seat: a.seat.toUpperCase(), token: c.token, pv: c.pv } : null;
  });
}

// A row of the candidates table; the line it shows on the board is the
// one its `shows` names as it is drawn.
function candidateRow() {
  const tr = document.createElement("tr");
  for (let j = 0; j < 4; j++) tr.appendChild(document.createElement("td"));
  tr.lastChild.className = "line";
  tr.shows = null;
  const show = () => {
    if (!tr.shows) return;
    previewLine = { ...tr.shows };
    tr.parentNode.querySelectorAll("tr").forEach((r) => r.classList.toggle("previewing", r === tr));
    drawOverlay();
  };
  const hide = () => {
    if (!tr.shows) return;
    previewLine = null;
    tr.classList.remove("previewing");
    drawOverlay();
  };
  tr.addEventListener("mouseenter", show);
  tr.addEventListener("mouseleave", hide);
  tr.addEventListener("click", () => (previewLine ? hide() : show()));
  return tr;
}

// Sets an element's text where it differs: the same text set again would
// still cost the browser its layout.
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

function clockText(seconds) {
  const s = Math.floor(seconds);
  return seconds < 60 ? `${seconds.toFixed(1)} s` : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// Each seat's thinking time; the running one goes on from the state's.
function drawClocks() {
  if (!state) return;
  const c = state.clock;
  const extra = (performance.now() - stateAt) / 1000;
  const used = (i) => c.used[i] + (c.running === "bw"[i] ? extra : 0);
  setText($("clock-b"), `Black ${clockText(used(0))}`);
  setText($("clock-w"), `White ${clockText(used(1))}`);
  $("clock-b").classList.toggle("running", c.running === "b");
  $("clock-w").classList.toggle("running", c.running === "w");
}

function drawGraph() {
  const g = $("graph");
  g.replaceChildren();
  const w = state.winrates;
  const n = Math.max(1, w.length - 1);
  const x = (i) => (i / n) * 300;
  const y = (v) => (1 - v) * 100;
  shape(g, "line", { x1: 0, y1: 50, x2: 300, y2: 50, stroke: "#bbb", "stroke-dasharray": "4 3" });
  shape(g, "line", {
    x1: x(state.view), y1: 0, x2: x(state.view), y2: 100, stroke: "#d62728", "stroke-width": 1,
  });
  const pts = [];
  w.forEach((v, i) => { if (v !== null && v !== undefined) pts.push(`${x(i).toFixed(1)},${y(v).toFixed(1)}`); });
  if (pts.length) {
    shape(g, "polyline", { points: pts.join(" "), fill: "none", stroke: "#1c1c1c", "stroke-width": 1.5 });
  }
}

// The turns of the line, numbered (the number is text of the row, so no
// digit is ever cut off); a turn with other turns tried in its place says
// how many, and a named one its name.
function drawMoves() {
  const list = $("moves");
  list.replaceChildren();
  state.moves.forEach((m, i) => {
    const li = document.createElement("li");
    const no = document.createElement("span");
    no.className = "no";
    no.textContent = `${i + 1}.`;
    li.append(no, ` ${m.seat} ${m.token}`);
    if (m.others) {
      const alt = document.createElement("span");
      alt.className = "alt";
      alt.textContent = ` +${m.others}`;
      alt.title = `${m.others} other turn${m.others === 1 ? "" : "s"} tried here: see the tree`;
      li.appendChild(alt);
    }
    if (m.name) {
      const name = document.createElement("span");
      name.className = "vname";
      name.textContent = ` ${m.name}`;
      li.appendChild(name);
    }
    li.dataset.node = m.node;
    if (i + 1 === state.view) li.className = "current";
    li.addEventListener("click", () => send("view", { turn: i + 1 }));
    list.appendChild(li);
  });
  // Keep the current turn in view by scrolling the list alone, not the page.
  const current = list.querySelector(".current");
  if (current) {
    const top = current.offsetTop;
    if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }
  $("turn-no").textContent = `turn ${state.view} / ${state.moves.length}`;
  $("branch").disabled = state.view === state.moves.length;
  const atStart = state.node === 0;
  $("delete-variation").disabled = atStart;
  $("name-variation").disabled = atStart;
  const name = $("variation-name");
  if (document.activeElement !== name || name.dataset.node !== String(state.node)) {
    name.value = state.node_name || "";
    name.dataset.node = state.node;
  }
  name.disabled = atStart;
}

// The game tree: a dot for each turn, the turns from the start across and
// each variation on a row of its own below the line it leaves; the line
// being played drawn dark, the turn viewed ringed in red. Laid out by the
// server; a click goes to that turn.
const TREE_STEP = 16;
function drawTree() {
  const svg = $("tree");
  svg.replaceChildren();
  const dots = new Map(state.tree.map((d) => [d.node, d]));
  const at = (d) => ({ x: d.depth * TREE_STEP + TREE_STEP / 2, y: d.row * TREE_STEP + TREE_STEP / 2 });
  const width = Math.max(...state.tree.map((d) => d.depth)) + 1;
  const height = Math.max(...state.tree.map((d) => d.row)) + 1;
  svg.setAttribute("width", width * TREE_STEP + 120);
  svg.setAttribute("height", height * TREE_STEP);
  for (const d of state.tree) {
    const parent = d.parent === null ? null : dots.get(d.parent);
    if (!parent) continue;
    const p = at(parent), q = at(d);
    const bend = q.y === p.y ? `${q.x},${q.y}` : `${p.x},${q.y - TREE_STEP / 2} ${q.x - TREE_STEP / 2},${q.y} ${q.x},${q.y}`;
    shape(svg, "polyline", {
      points: `${p.x},${p.y} ${bend}`, fill: "none", stroke: d.line ? "#3b2f1e" : "#b9a888", "stroke-width": d.line ? 2 : 1.2,
    });
  }
  for (const d of state.tree) {
    const p = at(d);
    const dot = shape(svg, "circle", {
      class: "tree-dot", cx: p.x, cy: p.y, r: d.seat ? 5 : 4,
      fill: d.seat === "b" ? "#1c1c1c" : d.seat === "w" ? "#fafafa" : "#8c7a5a",
      stroke: d.node === state.node ? "#d62728" : d.line ? "#3b2f1e" : "#b9a888",
      "stroke-width": d.node === state.node ? 3 : 1.2, "data-node": d.node,
    });
    const title = document.createElementNS(SVG_NS, "title");
    title.textContent = d.depth ? `turn ${d.depth}${d.name ? ": " + d.name : ""}` : "the start";
    dot.appendChild(title);
    dot.addEventListener("click", () => send("node", { node: d.node }));
    if (d.name) {
      shape(svg, "text", { class: "tree-name", x: p.x + 7, y: p.y - 5, "font-size": 10 }, d.name);
    }
  }
  // Keep the turn viewed in sight by scrolling the box alone.
  const box = $("tree-box");
  const viewed = dots.get(state.node);
  if (viewed) {
    const p = at(viewed);
    if (p.x < box.scrollLeft || p.x > box.scrollLeft + box.clientWidth - TREE_STEP) {
      box.scrollLeft = p.x - box.clientWidth / 2;
    }
    if (p.y < box.scrollTop || p.y > box.scrollTop + box.clientHeight - TREE_STEP) {
      box.scrollTop = p.y - box.clientHeight / 2;
    }
  }
}

// The variations beside the one viewed (its siblings, in order): -1 the
// one before, +1 the one after.
function siblingNode(step) {
  const viewed = state.tree.find((d) => d.node === state.node);
  if (!viewed || viewed.parent === null) return null;
  const siblings = state.tree.filter((d) => d.parent === viewed.parent).map((d) => d.node);
  const i = siblings.indexOf(state.node) + step;
  return i >= 0 && i < siblings.length ? siblings[i] : null;
}

function deleteVariation() {
  if (confirm(`Delete turn ${state.view} and every turn after it, in all its variations?`)) {
    send("delete", { node: state.node });
  }
}

function drawEngines() {
  const list = $("engines");
  list.replaceChildren();
  const words = { starting: "starting…", idle: "ready", failed: "failed to start", stopped: "stopped" };
  for (const e of state.engines) {
    const li = document.createElement("li");
    const who = e.identity ? ` (${e.identity})` : "";
    li.textContent = `${e.name}${who}: ${words[e.status] || e.status}${e.fault ? ": " + e.fault : ""} `;
    li.dataset.engine = e.name;
    li.dataset.status = e.status;
    if (e.fault) {
      li.className = "stopped";
      const b = document.createElement("button");
      b.textContent = "Restart";
      b.className = "restart";
      b.dataset.engine = e.name;
      b.addEventListener("click", () => send("engine/restart", { name: e.name }));
      li.appendChild(b);
    }
    list.appendChild(li);
  }
}

// Engines that failed to start, named where the player looks first, with
// the reason.
function drawEngineAlert() {
  const failed = state.engines.filter((e) => e.status === "failed");
  const alert = $("engine-alert");
  alert.hidden = !failed.length;
  alert.textContent = failed.map((e) => `Engine ${e.name} failed to start: ${sentence(e.fault || "no reason given")}`)
    .join(" ") + (failed.length ? ` ${failed.length === 1 ? "It" : "They"} cannot play until restarted under Engines.` : "");
}

// The players offered: people, and every engine, those that failed to
// start marked and not to be chosen. The form shows the seats, game and
// size of the game on the board whenever they change (a record opened, a
// game started), and the rest of the time what the player has chosen.
function fillForm() {
  for (const id of ["black", "white"]) {
    const select = $(id);
    const wanted = [["human", "human", false], ...state.engines.map((e) => {
      const failed = e.status === "failed";
      return [e.name, failed ? `${e.name} (failed to start)` : e.name, failed];
    })];
    const shown = [...select.options].map((o) => [o.value, o.textContent, o.disabled]);
    if (JSON.stringify(shown) !== JSON.stringify(wanted)) {
      const chosen = select.value;
      select.replaceChildren(...wanted.map(([value, label, failed]) => {
        const option = new Option(label, value);
        option.disabled = failed;
        return option;
      }));
      if (chosen) select.value = chosen;
    }
  }
  const board = JSON.stringify([state.game, state.size, state.seats]);
  if (formFilled === board) return;
  formFilled = board;
  $("game").value = state.game;
  $("size").value = state.size;
  $("black").value = state.seats[0];
  $("white").value = state.seats[1];
  $("seconds").value = state.seconds;
  formForGame();
}

function formForGame() {
  const game = gameInfo($("game").value);
  const sizes = game.sizes;
  $("size").min = sizes[0].size;
  $("size").max = sizes[sizes.length - 1].size;
  const n = Number($("size").value) || game.default_size;
  const board = sizes.find((b) => b.size === n);
  if (board) $("min-group").max = board.cells;
  document.querySelectorAll(".min-group-only").forEach((e) => { e.hidden = !game.has_min_group; });
  document.querySelectorAll(".start-options-only").forEach((e) => { e.hidden = !game.has_start_options; });
  balanceNote();
}

// What the balance study (docs/balance.md) found for the board and rule
// variant the form describes, and on an Odd side its fair smallest group
// or that none is established.
function balanceNote() {
  const game = gameInfo($("game").value);
  const n = Number($("size").value) || game.default_size;
  const board = game.sizes.find((b) => b.size === n);
  const notes = board ? board.balance : [];
  let note;
  let even = "";
  if (game.has_min_group) {
    const m = Number($("min-group").value) || n;
    note = notes.find((b) => b.min_group === m);
    if (board && board.min_group_note) even = ` Side ${n}: ${board.min_group_note}.`;
  } else if (game.has_start_options) {
    note = notes.find((b) => b.open_start === $("open-start").checked && b.swap === $("swap-rule").checked);
  } else {
    note = notes[0];
  }
  $("balance-note").textContent = note
    ? `Balance study: ${note.text}${even}`
    : `The balance study has no games of this board and variant.${even}`;
}

// ---- controls ----

// The cell nearest to a click that hit none (Onyx's points are small
// discs): within three quarters of the distance between neighbouring
// cells, else null.
function nearestCell(e) {
  const svg = svgRoot();
  if (!svg) return null;
  const p = svg.createSVGPoint();
  p.x = e.clientX;
  p.y = e.clientY;
  const at = p.matrixTransform(svg.getScreenCTM().inverse());
  const all = [...cellSpots()].map(([name, spot]) => ({ name, ...spot }));
  let best = null, bestD = Infinity, step = Infinity;
  for (const s of all) {
    const d = Math.hypot(s.x - at.x, s.y - at.y);
    if (d < bestD) { bestD = d; best = s; }
  }
  if (!best) return null;
  for (const s of all) {
    if (s !== best) step = Math.min(step, Math.hypot(s.x - best.x, s.y - best.y));
  }
  return bestD <= 0.75 * step ? best.name : null;
}

// A label for each game tree of an SGF collection: its players and
// result, as its root gives them.
function gameLabels(text) {
  const labels = [];
  let depth = 0, inValue = false, start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inValue) {
      if (c === "\\") i++;
      else if (c === "]") inValue = false;
    } else if (c === "[") inValue = true;
    else if (c === "(" && depth++ === 0) start = i;
    else if (c === ")" && depth > 0 && --depth === 0) labels.push(treeLabel(text.slice(start, i + 1)));
  }
  return labels;
}

function treeLabel(tree) {
  const prop = (id) => {
    const m = tree.match(new RegExp(`(?:^|[^A-Z])${id}\\[((?:\\\\.|[^\\]])*)\\]`));
    return m ? m[1].replace(/\\(.)/g, "$1") : "";
  };
  const players = prop("PB") || prop("PW") ? `${prop("PB") || "?"} - ${prop("PW") || "?"}` : "";
  return [prop("OG"), players, prop("RE")].filter(Boolean).join(", ");
}

function uploadSgf(game) {
  const msg = $("records-msg");
  msg.className = "";
  msg.textContent = `opening ${opened.name}…`;
  return transport.openSgf(opened.text, game)
    .then((answer) => {
      const choice = $("game-choice");
      if (answer.error) {
        msg.textContent = `cannot open ${opened.name}: ${answer.error}`;
        msg.className = "bad-file";
        return;
      }
      choice.hidden = answer.games < 2;
      if (answer.games > 1) {
        const pick = $("game-pick");
        if (pick.options.length !== answer.games) {
          const labels = gameLabels(opened.text);
          const label = (i) => labels.length === answer.games && labels[i] ? `: ${labels[i]}` : "";
          pick.replaceChildren(...Array.from({ length: answer.games },
            (_, i) => new Option(`game ${i + 1}${label(i)}`, i + 1)));
        }
        pick.value = answer.game;
        $("game-count").textContent = `of ${answer.games}`;
        msg.textContent = `opened ${opened.name}: game ${answer.game} of ${answer.games}; choose another above`;
      } else {
        msg.textContent = `opened ${opened.name}`;
      }
    });
}

function wire() {
  $("board").addEventListener("click", (e) => {
    const el = e.target.closest("[data-cell]");
    const cell = el ? el.getAttribute("data-cell") : nearestCell(e);
    if (cell) clickCell(cell);
    else if (state && state.human_turn) showReason("click on a point or a cell of the board", false);
  });
  const tbody = $("candidates").querySelector("tbody");
  tbody.addEventListener("mouseenter", () => {
    heldOrder = listedRows.map((c) => c.token);
    heldRows = new Map(listedRows.map((c) => [c.token, c]));
  });
  tbody.addEventListener("mouseleave", () => {
    heldOrder = null;
    heldRows = new Map();
    if (state) drawCandidates();
  });
  $("pause").addEventListener("click", () => send("pause", { on: !state.paused }));
  setInterval(drawClocks, 250);
  addEventListener("resize", () => {
    fitBoard();
    overlay();
  });
  $("confirm").addEventListener("click", confirmTurn);
  $("clear").addEventListener("click", () => { resetComposer(); showReason(""); drawOverlay(); });
  $("pass").addEventListener("click", () => playToken("pass"));
  $("swap").addEventListener("click", () => playToken("swap"));
  $("undo").addEventListener("click", () => send("undo"));
  $("resign").addEventListener("click", () => {
    if (confirm("Resign this game?")) send("resign");
  });
  $("overlays").addEventListener("click", nextOverlayMode);
  drawOverlayButton();
  $("analyze").addEventListener("change", async (e) => {
    const answer = await send("analyze", { on: e.target.checked });
    // Refused: the box shows what the session does.
    if (answer.error) e.target.checked = state.analysis_wanted;
  });
  $("first").addEventListener("click", () => send("view", { turn: 0 }));
  $("prev").addEventListener("click", () => send("view", { turn: Math.max(0, state.view - 1) }));
  $("next").addEventListener("click", () => send("view", { turn: Math.min(state.moves.length, state.view + 1) }));
  $("last").addEventListener("click", () => send("view", { turn: state.moves.length }));
  $("branch").addEventListener("click", () => send("branch"));
  $("name-variation").addEventListener("click", () =>
    send("name", { node: state.node, name: $("variation-name").value }));
  $("variation-name").addEventListener("keydown", (e) => {
    if (e.key === "Enter") send("name", { node: state.node, name: e.target.value });
  });
  $("delete-variation").addEventListener("click", deleteVariation);
  $("download").addEventListener("click", async (e) => {
    e.preventDefault();
    const text = await transport.sgf();
    if (text === null) return showReason("the record could not be fetched", false);
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "application/x-go-sgf" }));
    link.download = "oddity-game.sgf";
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  });
  $("game").addEventListener("change", () => {
    $("size").value = gameInfo($("game").value).default_size;
    formForGame();
  });
  $("size").addEventListener("input", formForGame);
  ["min-group", "open-start", "swap-rule"].forEach((id) => $(id).addEventListener("input", balanceNote));
  $("new-game").addEventListener("submit", async (e) => {
    e.preventDefault();
    const game = $("game").value;
    const form = {
      game,
      size: Number($("size").value) || null,
      black: $("black").value,
      white: $("white").value,
      seconds: Number($("seconds").value) || null,
    };
    if (gameInfo(game).has_min_group && $("min-group").value) form.min_group = Number($("min-group").value);
    if (gameInfo(game).has_start_options) {
      form.open_start = $("open-start").checked;
      form.swap = $("swap-rule").checked;
    }
    const answer = await send("new", form);
    if (!answer.error) {
      showReason("");
      // The file opened before is no longer on the board.
      $("game-choice").hidden = true;
      $("records-msg").textContent = "";
      // On a narrow screen the form is below the board: back to the board.
      const board = $("play").getBoundingClientRect();
      if (board.top < 0 || board.top > innerHeight / 2) $("play").scrollIntoView({ block: "start" });
    }
  });
  $("apply-seats").addEventListener("click", async () => {
    const answer = await send("seats", { black: $("black").value, white: $("white").value });
    if (!answer.error) showReason("");
  });
  $("upload").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    $("game-choice").hidden = true;
    opened = { name: file.name, text: await file.text() };
    e.target.value = "";
    await uploadSgf(1);
  });
  $("game-pick").addEventListener("change", (e) => uploadSgf(Number(e.target.value)));
  window.addEventListener("keydown", (e) => {
    if (e.target.closest("input, select, textarea")) return;
    if (e.key === "o") nextOverlayMode();
    if (e.key === "x") ($("colour-b").checked ? $("colour-w") : $("colour-b")).checked = true;
    if (e.key === "Enter" && !$("confirm").disabled) confirmTurn();
    if (e.key === "Escape") { resetComposer(); showReason(""); drawOverlay(); }
    if (e.key === "ArrowLeft" && state) send("view", { turn: Math.max(0, state.view - 1) });
    if (e.key === "ArrowRight" && state) send("view", { turn: Math.min(state.moves.length, state.view + 1) });
    if ((e.key === "ArrowUp" || e.key === "ArrowDown") && state) {
      const node = siblingNode(e.key === "ArrowUp" ? -1 : 1);
      if (node !== null) send("node", { node });
      e.preventDefault();
    }
  });
}

// The game list and the palette come from the session before anything is
// drawn; until they do, the page says it has no connection and tries again.
// Where the session cannot run in this tab, the page says why.
async function start() {
  try {
    transport = await openTransport();
  } catch (e) {
    // Nothing here could work: the message alone.
    document.querySelector("main").hidden = true;
    pageAlert(e.message || String(e));
    return;
  }
  if (transport.memory) {
    for (const label of document.querySelectorAll(".tab-only")) label.hidden = false;
    $("memory").value = transport.memory();
    $("memory").addEventListener("change", (e) => {
      const answer = transport.setMemory(Number(e.target.value));
      showReason(answer.error || "", false);
      e.target.value = transport.memory();
    });
  }
  while (!(catalogue = await transport.games())) {
    $("connection").hidden = false;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  for (const g of catalogue.games) {
    const option = document.createElement("option");
    option.value = g.id;
    option.textContent = g.label;
    $("game").appendChild(option);
  }
  wire();
  connect();
}

start();
