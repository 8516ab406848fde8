// What every script here shares: Debian's chromium started the same way, the record of
// what the browser saw (`seen`: console errors, refused requests, the steps done), and
// steps that name themselves in `seen.error` when they fail. Each script prints `seen`
// as one JSON object at the end; the Rust test beside it judges it.
import { chromium } from 'playwright-core';

export function launch(cfg) {
  return chromium.launch({
    executablePath: cfg.chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--font-render-hinting=none'],
  });
}

export function record() {
  return { consoleErrors: [], steps: [], refused: [] };
}

/** Keeps a page's console errors, uncaught errors and refused requests (by path) in `seen`. */
export function watch(page, seen) {
  page.on('console', (m) => {
    if (m.type() === 'error') seen.consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => seen.consoleErrors.push(String(e)));
  page.on('response', (r) => {
    if (r.status() >= 400) seen.refused.push(`${r.status()} ${new URL(r.url()).pathname}`);
  });
}

/** A step runner: `step(name, f)` runs f, and a failure names the step in `seen.error`. */
export function stepper(seen) {
  return async (name, f) => {
    try {
      await f();
      seen.steps.push(name);
    } catch (e) {
      seen.error = `${name}: ${e.stack || e}`;
      throw e;
    }
  };
}
