// The engine in a Web Worker, so that the page never freezes while it
// counts: each message {id, request} (one request of the page, see
// src/page.rs) is answered with {id, text, millis}: the engine's JSON text
// and how long it took; an advice request with "progress": true is
// answered first with {id, partial} after each suggestion evaluated (the
// advice so far, JSON text). A long count is cancelled by terminating the worker
// (engine.mjs starts a new one).
import * as sleuth from './sleuth.mjs';

self.onmessage = async ({ data: { id, request } }) => {
  try {
    await sleuth.init(); // at once when loaded; again after a trap
    const start = performance.now();
    // The advice so far goes to the page as it firms up ({id, partial}).
    const text = sleuth.pageWithProgress(JSON.stringify(request), (partial) => self.postMessage({ id, partial }));
    self.postMessage({ id, text, millis: performance.now() - start });
  } catch (e) {
    // The engine could not load, or it stopped (a trap): say so, as the API would.
    self.postMessage({ id, text: JSON.stringify({ status: 500, error: `the Sleuth engine failed: ${e.message}` }) });
  }
};
