// The engine's dedicated Web Worker: loads the WebAssembly module (with
// threads where the page is cross-origin isolated, else the plain one),
// searches when the page asks, and sends its progress and answers back.
// The page never waits for it.
//
// Messages in:  {type: 'start', memory}            (once)
//               {type: 'think', game, size, moves, millis, every}
//               {type: 'bench', what: 'playouts'|'search', game, size, millis, threads}
// Messages out: {type: 'ready', threads, isolated, why}
//               {type: 'progress', thought} and {type: 'best', thought}
//               {type: 'bench', rate}
//               {type: 'error', message, memory}   (memory: it ran out)

let wasm = null;
let module = null;
let engine = null;

function fail(error) {
  let message = String(error && error.message ? error.message : error);
  let memory = false;
  // A WebAssembly trap after an allocation the memory could not grow for:
  // the memory is exhausted when it cannot grow by one more MiB.
  if (error instanceof WebAssembly.RuntimeError && wasm && wasm.memory) {
    try {
      wasm.memory.grow(16);
    } catch (e) {
      memory = true;
    }
  }
  if (error instanceof RangeError && /memory/i.test(message)) memory = true;
  engine = null;
  postMessage({ type: 'error', message, memory });
}

async function start(memory) {
  const isolated = self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
  let threads = 1;
  let why = '';
  if (isolated) {
    module = await import('./pkg-threads/oddity_web.js');
    wasm = await module.default();
    threads = Math.max(1, navigator.hardwareConcurrency || 1);
    await module.initThreadPool(threads);
  } else {
    module = await import('./pkg/oddity_web.js');
    wasm = await module.default();
    why = self.crossOriginIsolated === true
      ? 'this browser gives no SharedArrayBuffer'
      : 'this page is not cross-origin isolated';
  }
  engine = new module.Engine(memory, threads, BigInt(Date.now() % 1000000));
  postMessage({ type: 'ready', threads, isolated, why });
}

function think(m) {
  const game = new module.Game(m.game, m.size);
  try {
    for (const token of m.moves) game.play(token);
    engine.setGame(game);
  } finally {
    game.free();
  }
  const progress = (text) => postMessage({ type: 'progress', thought: JSON.parse(text) });
  const text = engine.think(m.millis, null, progress, m.every || 200);
  postMessage({ type: 'best', thought: JSON.parse(text) });
}

function bench(m) {
  const text = m.what === 'playouts'
    ? module.benchPlayouts(m.game, m.size, m.millis)
    : module.benchSearch(m.game, m.size, m.millis, m.threads, m.memory || 1024);
  postMessage({ type: 'bench', rate: JSON.parse(text) });
}

onmessage = async (event) => {
  const m = event.data;
  try {
    if (m.type === 'start') await start(m.memory);
    else if (!engine) postMessage({ type: 'error', message: 'the engine is not running', memory: false });
    else if (m.type === 'think') think(m);
    else if (m.type === 'bench') bench(m);
  } catch (error) {
    fail(error);
  }
};
