// The engine for the offline app's page: sleuth.wasm in a Web Worker
// (worker.mjs), one request at a time. Counts can take seconds on a large
// game: while one runs for more than a moment the page shows "Counting…"
// with a Cancel button, which terminates the worker (the only way to stop
// WebAssembly mid-count) and starts a new one.

/** What a cancelled request answers (as the API would answer a request it gave up). */
export const CANCELLED = 'Counting cancelled. Your turns are saved; the notepad counts again after your next change, or when you open the game again.';

/** How long a request runs before the page shows "Counting…" and Cancel. */
const SHOW_AFTER_MS = 400;

export class Engine {
  /** `cancellable`: this engine runs the counts, and shows the Cancel bar. */
  constructor({ cancellable }) {
    this.cancellable = cancellable;
    this.queue = [];   // [{request, resolve, tag}] waiting
    this.running = null;
    this.worker = null;
    this.nextId = 1;
    this.bar = null;
  }

  /**
   * Answers `request` (see src/page.rs) with {status, body | error, millis}.
   * `tag` ({game, version}, optional) lets a request for a newer version of a
   * game drop a waiting or running advice for an older one (its answer would be
   * thrown away). `onPartial` (optional) gets each partial answer of the
   * running request (the advice so far, parsed).
   */
  call(request, tag, onPartial) {
    if (tag) this.dropStale(tag);
    return new Promise((resolve) => {
      this.queue.push({ request, resolve, tag, onPartial });
      this.pump();
    });
  }

  dropStale(tag) {
    const stale = (job) => job.tag && job.tag.game === tag.game && job.tag.version < tag.version && job.request.op === 'advice';
    for (const job of this.queue.filter(stale)) job.resolve({ status: 409, error: 'superseded by a newer version of the game' });
    this.queue = this.queue.filter((job) => !stale(job));
    if (this.running && stale(this.running)) this.stop({ status: 409, error: 'superseded by a newer version of the game' });
  }

  pump() {
    if (this.running || !this.queue.length) return;
    const job = this.queue.shift();
    this.running = job;
    if (!this.worker) {
      this.worker = new Worker(new URL('./worker.mjs', import.meta.url), { type: 'module' });
      this.worker.onmessage = ({ data }) => this.answered(data);
      this.worker.onerror = (ev) => {
        ev.preventDefault();
        this.stop({ status: 500, error: `the Sleuth engine could not start: ${ev.message || 'its worker failed to load'}` });
      };
    }
    job.id = this.nextId++;
    job.started = performance.now();
    if (this.cancellable) job.timer = setTimeout(() => this.showBar(job), SHOW_AFTER_MS);
    this.worker.postMessage({ id: job.id, request: job.request });
  }

  answered({ id, text, millis, partial }) {
    const job = this.running;
    if (!job || job.id !== id) return;
    if (partial !== undefined) {
      if (job.onPartial) job.onPartial(JSON.parse(partial));
      return;
    }
    let reply;
    try { reply = JSON.parse(text); } catch (_) { reply = { status: 500, error: `the Sleuth engine answered: ${text}` }; }
    reply.millis = millis;
    this.finish(reply);
  }

  finish(reply) {
    const job = this.running;
    this.running = null;
    clearTimeout(job.timer);
    this.hideBar();
    job.resolve(reply);
    this.pump();
  }

  /** Stops the running request (terminating the worker) with `reply`. */
  stop(reply) {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    if (this.running) this.finish(reply);
  }

  /** Cancel: the running request and every waiting one. */
  cancel() {
    const waiting = this.queue;
    this.queue = [];
    for (const job of waiting) job.resolve({ status: 503, error: CANCELLED });
    this.stop({ status: 503, error: CANCELLED });
  }

  showBar(job) {
    if (this.running !== job) return;
    if (!this.bar) {
      const text = document.createElement('span');
      const button = document.createElement('button');
      button.type = 'button';
      button.id = 'counting-cancel';
      button.className = 'small';
      button.textContent = 'Cancel';
      button.addEventListener('click', () => this.cancel());
      this.bar = document.createElement('div');
      this.bar.id = 'counting';
      this.bar.setAttribute('role', 'status');
      this.bar.style.cssText = 'position:fixed;top:0;left:0;right:0;z-index:100;display:flex;gap:1em;align-items:center;'
        + 'justify-content:center;padding:.4em;background:#fff8d0;border-bottom:1px solid #c9b458;color:#222';
      this.bar.append(text, button);
      document.body.append(this.bar);
    }
    const what = job.request.op === 'advice' ? 'Thinking about the advice' : 'Counting the deals';
    const tick = () => {
      if (this.running !== job) return;
      const s = Math.round((performance.now() - job.started) / 1000);
      this.bar.firstChild.textContent = `${what}… ${s} s`;
      job.timer = setTimeout(tick, 1000);
    };
    this.bar.style.display = 'flex';
    tick();
  }

  hideBar() {
    if (this.bar) this.bar.style.display = 'none';
  }
}
