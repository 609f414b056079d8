// Sleuth's engine in WebAssembly, for browsers and Node 20.
//
//   import * as sleuth from "./sleuth.mjs";
//   await sleuth.init();
//   const json = sleuth.analyze(gameText); // what `sleuth analyze --json` prints
//
// analyze, why, advise and check take a game file's text and return the
// command line's `--json` text. They throw an Error whose message is the
// command line's (exit code 2) for a game it refuses. They run on the
// calling thread: call them from a Web Worker to keep a page responsive.
// page and pageWithProgress answer the notepad page's requests (the
// offline app); the second hands over the advice so far as it firms up.
// sleuth.wasm is loaded from beside this file (fs in Node, fetch elsewhere).

let module = null;
let engine = null;
let onProgress = null; // the handler of the running pageWithProgress
const read = (ptr, len) => decoder.decode(new Uint8Array(engine.memory.buffer, ptr, len));
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** Loads the engine; `source` (optional) is the .wasm's URL, bytes or WebAssembly.Module. */
export async function init(source) {
  if (engine) return;
  if (!module) module = await compile(source ?? new URL("./sleuth.wasm", import.meta.url));
  // The engine calls back with the advice so far (pageWithProgress).
  const imports = { sleuth: { sleuth_progress: (ptr, len) => onProgress?.(read(ptr, len)) } };
  engine = (await WebAssembly.instantiate(module, imports)).exports;
}

async function compile(source) {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source);
  const url = new URL(source, import.meta.url);
  if (url.protocol === "file:" && typeof process !== "undefined" && process.versions?.node) {
    const { readFile } = await import("node:fs/promises");
    return WebAssembly.compile(await readFile(url));
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load ${url}: HTTP ${response.status}`);
  return WebAssembly.compile(await response.arrayBuffer());
}

/** `sleuth analyze --json`. */
export function analyze(gameText) {
  return call("sleuth_analyze", gameText);
}

/** `sleuth why --json`: `place` is a player id or "case_file". */
export function why(gameText, card, place) {
  return call("sleuth_why", gameText, card, place);
}

/** `sleuth advise --json`, with its default options. */
export function advise(gameText) {
  return call("sleuth_advise", gameText);
}

/** `sleuth check --json`. */
export function check(gameText) {
  return call("sleuth_check", gameText);
}

/**
 * One request of the notepad page (the offline app's local backend): a JSON
 * object `{"op", ...}` in, `{"status", "body"}` or `{"status", "error"}` out,
 * as JSON text (see src/page.rs).
 */
export function page(requestText) {
  return call("sleuth_page", requestText);
}

/**
 * `page`, calling `progress(text)` with the advice so far (JSON text: the
 * suggestions evaluated so far, best first, `"partial": true`) after each
 * suggestion it evaluates, for an `advice` request with `"progress": true`.
 * The calls come on this thread, during this one.
 */
export function pageWithProgress(requestText, progress) {
  onProgress = progress;
  try {
    return call("sleuth_page_progress", requestText);
  } finally {
    onProgress = null;
  }
}

function call(name, ...texts) {
  if (!engine) throw new Error("the Sleuth engine is not loaded: await init() first");
  const e = engine;
  const buffers = [];
  try {
    const args = [];
    for (const text of texts) {
      if (typeof text !== "string") throw new TypeError(`${name}: expected strings, got ${typeof text}`);
      const bytes = encoder.encode(text);
      const ptr = e.sleuth_alloc(bytes.length);
      buffers.push([ptr, bytes.length]);
      // The memory may have grown (a new ArrayBuffer): view it afresh.
      new Uint8Array(e.memory.buffer, ptr, bytes.length).set(bytes);
      args.push(ptr, bytes.length);
    }
    const code = e[name](...args);
    const out = decoder.decode(new Uint8Array(e.memory.buffer, e.sleuth_output_ptr(), e.sleuth_output_len()));
    if (code !== 0) throw new Error(out);
    return out;
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError) {
      // A trap (a bug, or memory exhausted) leaves the instance unusable;
      // init() makes a new one.
      engine = null;
      throw new Error(`the Sleuth engine stopped (${error.message}); await init() to restart it`);
    }
    throw error;
  } finally {
    if (engine === e) for (const [ptr, len] of buffers) e.sleuth_free(ptr, len);
  }
}
