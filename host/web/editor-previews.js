// The pages' pictures while editing: the server draws each changed page that is on screen
// (POST /d/{id}/preview, the SVG exporter, so what the editor shows is what exports), a
// few at a time; for each page the newest answer wins. While a preview is waited for or in
// flight, #editor carries `data-preview-pending`.

import { detailOf, sendJson } from "./request.js";

const DEBOUNCE_MS = 150;
const PREVIEWS_AT_ONCE = 2;
/** Pages this far (CSS pixels) above or below the window count as on screen, so they are
 *  drawn before they scroll in. */
const NEAR_PX = 400;

export class PagePreviews {
  /**
   * `root` carries the pending mark; `url(i)` is where page i (0-based) is drawn; `draft()`
   * is the document as edited now; `onDraft(json)` hears its JSON each time previews are
   * sent; `onError(text)` and `onDrawn()` tell the status line of a failure and a success.
   */
  constructor({ root, url, csrf, draft, onDraft, onError, onDrawn }) {
    Object.assign(this, { root, url, csrf, draft, onDraft, onError, onDrawn });
    this.timer = 0;
    this.inflight = 0;
    /** Page index → the draft's JSON to draw it from, in the order they were wanted. */
    this.wanted = new Map();
    /** Page index → { sent: the page's JSON last asked for (undefined: ask again),
     *  asked: requests made, shown: the request whose picture shows }. */
    this.pages = new Map();
    /** Tells answers for a model since replaced (a reload) apart. */
    this.generation = 0;
    this.views = [];
    this.visible = new Set();
    this.observer =
      typeof IntersectionObserver === "function"
        ? new IntersectionObserver((entries) => this.onIntersect(entries), { rootMargin: `${NEAR_PX}px 0px` })
        : null;
  }

  /** Starts over for a freshly loaded model shown in page views `views`. */
  reset(views) {
    this.generation++;
    this.wanted.clear();
    this.pages = new Map();
    this.views = views;
    if (this.observer) this.observer.disconnect();
    this.visible.clear();
    views.forEach((pv, i) => {
      pv.el.dataset.index = String(i);
      if (this.observer) this.observer.observe(pv.el);
      else this.visible.add(i);
    });
    // Which pages show now, without waiting for the observer's first report: previews are
    // pending from the first moment, so "no data-preview-pending" means drawn.
    for (const pv of views) {
      const r = pv.el.getBoundingClientRect();
      if (r.bottom >= -NEAR_PX && r.top <= innerHeight + NEAR_PX) this.visible.add(pv.index);
    }
  }

  onIntersect(entries) {
    for (const en of entries) {
      const i = Number(en.target.dataset.index);
      if (en.isIntersecting) this.visible.add(i);
      else this.visible.delete(i);
    }
    this.schedule(30);
  }

  pageState(i) {
    let state = this.pages.get(i);
    if (!state) {
      state = { sent: undefined, asked: 0, shown: 0 };
      this.pages.set(i, state);
    }
    return state;
  }

  /** Draws the changed pages on screen once the edits pause for `delay` ms. */
  schedule(delay = DEBOUNCE_MS) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = 0;
      this.flush();
    }, delay);
    this.syncPending();
  }

  flush() {
    const doc = this.draft();
    const json = JSON.stringify(doc);
    this.onDraft(json);
    for (const i of [...this.visible].sort((a, b) => a - b)) {
      const page = doc.pages[i];
      if (!page) continue;
      const state = this.pageState(i);
      const sig = JSON.stringify(page);
      if (state.sent !== sig) {
        state.sent = sig;
        this.wanted.set(i, json);
      }
    }
    this.pump();
    this.syncPending();
  }

  pump() {
    while (this.inflight < PREVIEWS_AT_ONCE && this.wanted.size) {
      const [i, body] = this.wanted.entries().next().value;
      this.wanted.delete(i);
      this.request(i, body);
    }
  }

  async request(i, body) {
    const generation = this.generation;
    const state = this.pageState(i);
    const seq = ++state.asked;
    const current = () => generation === this.generation && seq > state.shown;
    this.inflight++;
    this.syncPending();
    try {
      const res = await sendJson(this.url(i), { csrf: this.csrf, body, accept: "image/svg+xml" });
      if (!res.ok) {
        const detail = await detailOf(res);
        if (current()) {
          state.sent = undefined; // try again after the next change
          this.onError(`Page ${i + 1} cannot be drawn: ${detail}`);
        }
        return;
      }
      const blob = await res.blob();
      if (!current()) return; // an older answer arriving after a newer one
      const url = URL.createObjectURL(blob.type === "image/svg+xml" ? blob : new Blob([blob], { type: "image/svg+xml" }));
      const img = new Image();
      img.src = url;
      try {
        await img.decode();
      } catch {
        /* shown anyway; the <img> reports its own failure */
      }
      if (!current() || !this.views[i]) {
        URL.revokeObjectURL(url);
        return;
      }
      state.shown = seq;
      this.views[i].setPicture(url);
      this.onDrawn();
    } catch (err) {
      if (current()) {
        state.sent = undefined;
        this.onError(`Page ${i + 1} preview failed: ${err.message}`);
      }
    } finally {
      this.inflight--;
      this.pump();
      this.syncPending();
    }
  }

  syncPending() {
    const pending = this.inflight > 0 || this.wanted.size > 0 || !!this.timer;
    if (pending) this.root.setAttribute("data-preview-pending", "");
    else this.root.removeAttribute("data-preview-pending");
  }
}
