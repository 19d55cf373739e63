// Loading one of the two WebAssembly modules (pkg/ or pkg-threads/, as
// web/build.sh writes them), for the page (tab.js) and the engine's worker
// (engine-worker.js). A file that cannot be had is named in the error.

function status(response) {
  return `the server answered ${response.status} ${response.statusText}`.trim();
}

// What the site answers for `path`, in words, for an error's text; where
// it answers fine, the `error` that loading it gave.
async function answered(path, error) {
  try {
    const response = await fetch(path, { cache: "no-store" });
    if (!response.ok) return status(response);
  } catch (e) {
    return `it could not be fetched: ${e.message || e}`;
  }
  return error.message || String(error);
}

// The module of folder `dir` (relative to this script), initialised: its
// exports. `init` is passed to its initialisation with the module.
export async function loadModule(dir, init = {}) {
  const script = `${dir}/oddity_web.js`;
  const binary = `${dir}/oddity_web_bg.wasm`;
  let module;
  try {
    module = await import(new URL(script, import.meta.url).href);
  } catch (e) {
    throw new Error(`${script} could not be loaded (${await answered(new URL(script, import.meta.url), e)})`);
  }
  const url = new URL(binary, import.meta.url);
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new Error(`${binary} could not be fetched (${e.message || e})`);
  }
  if (!response.ok) {
    throw new Error(`${binary} could not be loaded (${status(response)})`);
  }
  try {
    const exports = await module.default({ module_or_path: response, ...init });
    return { module, exports };
  } catch (e) {
    throw new Error(`${binary} could not be started (${e.message || e})`);
  }
}
