// The engine's dedicated Web Worker: loads the WebAssembly module (with
// threads where the page is cross-origin isolated, else the plain one),
// searches when the page's session asks, and sends its progress and
// answers back. The page never waits for it.
//
// Messages in:  {type: 'start', memory}            (once)
//               {type: 'think', generation, sgf, millis, every, stop}
//                 (stop: an Int32Array on a SharedArrayBuffer, or null)
//               {type: 'bench', what: 'playouts'|'search', game, size, millis, threads}
// Messages out: {type: 'ready', threads, isolated, why}
//                 (why: where threads were wanted but not had, the reason)
//               {type: 'progress', generation, thought} and {type: 'best', generation, thought}
//                 (thought: the engine's report as JSON text, which the page's
//                 session reads as it is: no parse and copy of an object
//                 on either thread)
//               {type: 'bench', rate}
//               {type: 'error', message, memory, size, starting}
//                 (memory: it ran out; size: its memory then, in MiB, where
//                 it had any; starting: it could not start)

import { loadModule } from './load.js';

let wasm = null;
let module = null;
let engine = null;

function fail(error, starting) {
  const message = String(error && error.message ? error.message : error);
  // What it had when it failed (before the probe below grows it).
  const size = wasm && wasm.memory ? Math.round(wasm.memory.buffer.byteLength / 2 ** 20) : undefined;
  // The module's allocator refused to take its heap past the page's
  // budget, or the browser refused to grow the memory.
  let memory = (module && module.memoryRefused && module.memoryRefused()) ||
    (error instanceof RangeError && /memory/i.test(message));
  if (!memory && error instanceof WebAssembly.RuntimeError && wasm && wasm.memory) {
    try {
      wasm.memory.grow(16);
    } catch (e) {
      memory = true;
    }
  }
  engine = null;
  postMessage({ type: 'error', message, memory, size, starting });
}

// The module with threads where the page is isolated, else (or where it
// cannot be had) the plain one; `why` says why threads were not had.
async function start(memory) {
  const isolated = self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
  let threads = 1;
  let why;
  module = null;
  if (isolated) {
    try {
      ({ module, exports: wasm } = await loadModule('pkg-threads'));
      threads = Math.max(1, navigator.hardwareConcurrency || 1);
      await module.initThreadPool(threads);
    } catch (error) {
      module = null;
      threads = 1;
      why = `${error.message || error}, so the engine uses one thread`;
    }
  }
  if (!module) ({ module, exports: wasm } = await loadModule('pkg'));
  module.setMemoryLimit(memory);
  // The engine's options, as text, read as every front end reads them.
  engine = new module.Engine(memory, { threads: String(threads), seed: String(Date.now() % 1000000) });
  postMessage({ type: 'ready', threads, isolated, why });
}

function think(m) {
  engine.setSgf(m.sgf);
  const progress = (text) => postMessage({ type: 'progress', generation: m.generation, thought: text });
  const text = engine.think(m.millis, null, progress, m.every || 200, m.stop || null);
  postMessage({ type: 'best', generation: m.generation, thought: text });
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
    if (m.type === 'start') {
      try {
        await start(m.memory);
      } catch (error) {
        fail(error, true);
      }
    } else if (!engine) postMessage({ type: 'error', message: 'the engine is not running', memory: false });
    else if (m.type === 'think') think(m);
    else if (m.type === 'bench') bench(m);
  } catch (error) {
    fail(error, false);
  }
};
