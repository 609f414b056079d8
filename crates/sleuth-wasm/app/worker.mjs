// The engine in a Web Worker, so that the page never freezes while it
// counts: each message {id, request} (one request of the page, see
// src/page.rs) is answered with {id, text, millis}: the engine's JSON text
// and how long it took. A long count is cancelled by terminating the worker
// (engine.mjs starts a new one).
import * as sleuth from './sleuth.mjs';

self.onmessage = async ({ data: { id, request } }) => {
  try {
    await sleuth.init(); // at once when loaded; again after a trap
    const start = performance.now();
    const text = sleuth.page(JSON.stringify(request));
    self.postMessage({ id, text, millis: performance.now() - start });
  } catch (e) {
    // The engine could not load, or it stopped (a trap): say so, as the API would.
    self.postMessage({ id, text: JSON.stringify({ status: 500, error: `the Sleuth engine failed: ${e.message}` }) });
  }
};
