// The page: a game checked by the rules (the module's Game, compiled from
// the same Rust as the native programs) and the engine in a Web Worker.
// Everything stays in the tab: the page loads only its own files.

const $ = (id) => document.getElementById(id);
const ui = {
  ready: false, threads: 0, game: null, rules: null, thinking: false,
  auto: false, lastThought: null, error: null, memoryError: false,
};
// For tests and the console: what the page holds.
window.oddity = ui;

function say(text) {
  ui.error = text;
  $('message').textContent = text;
  $('message').hidden = false;
}

function missing() {
  if (typeof WebAssembly !== 'object') {
    return 'This browser has no WebAssembly, which the engine needs: use a current Chrome, Firefox, Safari or Edge.';
  }
  if (typeof Worker !== 'function') {
    return 'This browser has no Web Workers, which the engine needs to think without freezing the page.';
  }
  return null;
}

let worker = null;

function startWorker() {
  if (worker) worker.terminate();
  ui.ready = false;
  $('engine').textContent = 'Starting the engine…';
  worker = new Worker('engine-worker.js', { type: 'module' });
  ui.worker = worker;
  worker.onmessage = (event) => receive(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    failed(`The engine could not start: ${event.message || 'its script did not load'}.`, false);
  };
  ui.memory = Number($('memory').value);
  worker.postMessage({ type: 'start', memory: ui.memory });
}

function failed(text, memory) {
  ui.ready = false;
  ui.thinking = false;
  ui.auto = false;
  ui.memoryError = memory;
  say(memory
    ? `The engine ran out of memory (${text}). Lower the memory setting and start a new engine; the game is kept and can still be downloaded as SGF.`
    : `${text} The game is kept and can still be downloaded as SGF.`);
  buttons();
}

function receive(m) {
  if (m.type === 'ready') {
    ui.ready = true;
    // Milliseconds from the page's start to a playing engine.
    ui.readyMillis = performance.now();
    ui.threads = m.threads;
    $('engine').textContent = m.threads > 1
      ? `Engine: ${m.threads} threads (this page is cross-origin isolated).`
      : `Engine: one thread${m.why ? ` (${m.why}: threads need SharedArrayBuffer)` : ''}.`;
    buttons();
  } else if (m.type === 'progress') {
    showThought(m.thought, false);
  } else if (m.type === 'best') {
    ui.thinking = false;
    showThought(m.thought, true);
    if (m.thought.best) play(m.thought.best);
    if (ui.auto && !state().over) think();
    else ui.auto = false;
    buttons();
  } else if (m.type === 'bench') {
    ui.bench = m.rate;
  } else if (m.type === 'error') {
    failed(`The engine stopped: ${m.message}.`, m.memory);
  }
}

function showThought(t, done) {
  ui.lastThought = t;
  const top = t.candidates.slice(0, 3)
    .map((c) => `${c.turn} ${(100 * c.value).toFixed(0)}% (${c.visits})`).join(', ');
  $('thinking').textContent = `${done ? 'Played' : 'Thinking'}: ${t.iterations} iterations in ${t.millis.toFixed(0)} ms; ${top}`;
}

function state() {
  return JSON.parse(ui.rules.state());
}

function render() {
  const s = state();
  ui.game = s;
  $('status').textContent = s.over
    ? `${s.title}: ${s.result}.`
    : `${s.title}: ${s.to_move === 'b' ? 'Black' : 'White'} to move.`;
  $('moves').replaceChildren(...s.moves.map((t) => {
    const li = document.createElement('li');
    li.textContent = t;
    return li;
  }));
}

function play(token) {
  try {
    ui.rules.play(token);
  } catch (e) {
    say(`Refused: ${e}`);
    ui.auto = false;
  }
  render();
}

function think() {
  if (!ui.ready || ui.thinking || state().over) return;
  ui.thinking = true;
  const s = state();
  worker.postMessage({
    type: 'think', game: s.game, size: s.size, moves: s.moves,
    millis: Number($('millis').value), every: 200,
  });
  buttons();
}

function buttons() {
  const idle = ui.ready && !ui.thinking && ui.rules && !state().over;
  $('move').disabled = !idle;
  $('auto').disabled = !idle;
}

function newGame() {
  const size = $('size').value === '' ? undefined : Number($('size').value);
  try {
    const rules = new rulesModule.Game($('game').value, size);
    if (ui.rules) ui.rules.free();
    ui.rules = rules;
    $('message').hidden = true;
    ui.error = null;
  } catch (e) {
    say(`Cannot start that game: ${e}`);
  }
  render();
  buttons();
}

function downloadSgf() {
  const blob = new Blob([ui.rules.sgf()], { type: 'application/x-go-sgf' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `${state().game}.sgf`;
  a.click();
  URL.revokeObjectURL(a.href);
}

let rulesModule = null;

async function main() {
  const lack = missing();
  if (lack) {
    say(lack);
    $('engine').textContent = 'No engine.';
    return;
  }
  try {
    rulesModule = await import('./pkg/oddity_web.js');
    await rulesModule.default();
  } catch (e) {
    say(`The game's module could not be loaded (${e}). Reload the page; if it goes on, the site is missing its files.`);
    $('engine').textContent = 'No engine.';
    return;
  }
  newGame();
  $('new').onclick = () => {
    // A new engine after a failure or with a new memory setting.
    if (!ui.ready || Number($('memory').value) !== ui.memory) startWorker();
    newGame();
  };
  $('move').onclick = think;
  $('auto').onclick = () => { ui.auto = true; think(); };
  $('sgf').onclick = downloadSgf;
  startWorker();
}

main();
