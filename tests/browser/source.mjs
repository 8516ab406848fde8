// Drives Debian's chromium (through playwright-core), JavaScript on, as a person editing a
// mermaid diagram's source beside its drawing:
//
//   node source.mjs '<json config>'
//
// Opens the document, Edit source, adds a node and reads the preview drawn before any
// save, breaks a line and sees the refusal at its line, mends it, saves. Prints one JSON
// object; tests/e2e/make_documents.rs judges it.
import { launch, record, stepper, watch } from './harness.mjs';

const cfg = JSON.parse(process.argv[2]);
const browser = await launch(cfg);
const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
const page = await context.newPage();
const seen = record();
watch(page, seen);
const step = stepper(seen);

/** Waits for a preview newer than `after`; returns its number and the SVG the server
 *  draws for the text now in the box (read again through the same route: the page shows
 *  its picture from a blob: URL, which its policy lets no script read back). */
async function previewAfter(after) {
  await page.waitForFunction((n) => Number(document.querySelector('#preview').dataset.drawn || 0) > n, after, { timeout: 30000 });
  const drawn = await page.locator('#preview').evaluate((img) => Number(img.dataset.drawn));
  const text = await page.locator('#source').inputValue();
  const csrf = await page.locator('#source-form').getAttribute('data-csrf');
  const r = await page.request.post(new URL(`/d/${cfg.document}/source/preview?page=1`, cfg.base).toString(), {
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRF-Token': csrf },
    data: JSON.stringify({ mermaid: text }),
  });
  return { drawn, svg: await r.text() };
}

try {
  await step('sign in by a printed link', async () => {
    await page.goto(cfg.link);
    await Promise.all([page.waitForURL('**/documents'), page.getByRole('button', { name: 'Sign in' }).click()]);
  });

  await step('open the source beside the drawing', async () => {
    await page.goto(new URL(`/d/${cfg.document}`, cfg.base).toString());
    await Promise.all([page.waitForURL('**/source'), page.getByRole('link', { name: 'Edit source' }).click()]);
    seen.sourceText = await page.locator('#source').inputValue();
    seen.label = await page.locator('label[for=source]').innerText();
  });

  let drawn = 0;
  await step('add a node and see it drawn before saving', async () => {
    const source = page.locator('#source');
    await source.focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n  B --> C[Celebrate]');
    const preview = await previewAfter(drawn);
    drawn = preview.drawn;
    seen.previewHasNewNode = preview.svg.includes('Celebrate');
    seen.previewState = await page.locator('#preview-state').innerText();
    // Nothing is saved yet: the stored model is still the version the page opened.
    const stored = await page.evaluate(async (id) => (await fetch(`/d/${id}/model`)).json(), cfg.document);
    seen.versionBeforeSave = stored.version;
    seen.storedHasNewNode = JSON.stringify(stored.model).includes('Celebrate');
  });

  await step('break a line and see the refusal at it', async () => {
    await page.keyboard.type('\n  C -->');
    const problem = page.locator('#source-problem');
    await problem.waitFor({ state: 'visible', timeout: 30000 });
    seen.problem = await problem.innerText();
    seen.invalid = await page.locator('#source').getAttribute('aria-invalid');
    await page.getByRole('button', { name: /^Go to line/ }).click();
    seen.selectedLine = await page.locator('#source').evaluate((t) => t.value.slice(t.selectionStart, t.selectionEnd));
    await page.screenshot({ path: `${cfg.shots}/source.png`, mask: [page.locator('.meta, .who span')] });
  });

  await step('mend it and save', async () => {
    // The selected broken line goes; the preview is drawn again without a problem.
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    const preview = await previewAfter(drawn);
    seen.mendedHasNewNode = preview.svg.includes('Celebrate');
    seen.problemHidden = await page.locator('#source-problem').isHidden();
    await Promise.all([page.waitForURL(/notice=Saved/), page.getByRole('button', { name: /^Save as version/ }).click()]);
    seen.notice = await page.locator('.notice').innerText();
  });
} catch {
  // `seen.error` says which step failed.
} finally {
  await browser.close();
  console.log(JSON.stringify(seen));
}
