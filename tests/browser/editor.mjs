// Drives Debian's chromium (through playwright-core), JavaScript on, through an account
// holder's pages and the editor at /d/{id}:
//
//   node editor.mjs '<json config>'
//
// The config names the server, a printed sign-in link, a bearer token (for the change made
// "elsewhere" during the conflict step) and the documents to work on; tests/e2e/editor.rs
// makes them and judges what this prints: one JSON object of what the browser saw.
import { launch, record, stepper, watch } from './harness.mjs';

const cfg = JSON.parse(process.argv[2]);
const browser = await launch(cfg);
const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
const page = await context.newPage();
const seen = record();
watch(page, seen);
const step = stepper(seen);
// Leaving an editor with unsaved edits asks first; the test means to leave.
page.on('dialog', (d) => d.accept());
const url = (path) => new URL(path, cfg.base).toString();

// What changes from run to run (times, addresses, ids) is masked in the screenshots.
async function shot(name) {
  await page.screenshot({
    path: `${cfg.shots}/${name}.png`,
    fullPage: false,
    animations: 'disabled',
    caret: 'hide',
    mask: [page.locator('.meta, .who span, td, code, .hint, .notice, caption, .fill-link, .qr img')],
    maskColor: '#888888',
  });
}

async function openEditor(id) {
  await page.goto(url(`/d/${id}`));
  await page.waitForSelector('body[data-editor-ready="1"]', { timeout: 30000 });
  await settle();
}

// Waits until no draft picture is being drawn.
async function settle() {
  await page.waitForFunction(() => !document.querySelector('#editor')?.hasAttribute('data-preview-pending'), null, { timeout: 30000 });
}

async function save() {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForFunction(() => {
    const s = document.querySelector('#editor-status')?.textContent || '';
    const c = document.querySelector('#editor-conflict');
    return /Saved version \d+/.test(s) || (c && !c.hidden) || /not valid|refused|Not saved/i.test(s);
  }, null, { timeout: 30000 });
  return (await page.locator('#editor-status').textContent()) || '';
}

try {
  await step('sign in by a printed link', async () => {
    await page.goto(cfg.link);
    await Promise.all([page.waitForURL('**/documents'), page.getByRole('button', { name: 'Sign in' }).click()]);
    seen.afterSignIn = new URL(page.url()).pathname;
  });

  await step('find a created document', async () => {
    await page.getByLabel('Title contains').fill(cfg.search);
    await Promise.all([page.waitForURL('**/documents?**'), page.getByRole('button', { name: 'Show' }).click()]);
    seen.found = await page.locator('.card .title').allInnerTexts();
    await page.goto(url('/documents'));
    await page.waitForFunction(() => [...document.images].every((i) => i.complete));
    seen.thumbnails = await page.locator('.card img').evaluateAll((imgs) => imgs.map((i) => i.naturalWidth));
    await shot('documents');
  });

  await step('rename a node label in a mermaid diagram', async () => {
    await openEditor(cfg.mermaid.id);
    await page.locator(`[data-shape-id="${cfg.mermaid.node}"]`).click();
    await page.keyboard.press('Enter');
    const box = page.locator('textarea.qe-textedit');
    await box.fill(cfg.mermaid.label);
    await page.keyboard.press('Control+Enter');
    seen.mermaidSave = await save();
    // The line under the title and the history follow the save.
    await page.waitForFunction(() => /version 3\b/.test(document.querySelector('#doc-meta')?.textContent || ''), null, { timeout: 15000 });
    seen.metaAfterSave = await page.locator('#doc-meta').textContent();
    seen.versionsAfterSave = await page.locator('#versions tbody tr').count();
    seen.diagramHint = await page.locator('.qe-panel-hint').textContent();
    // The connectors' guide lines stop at the nodes' edges: no point of one lies inside a
    // node, where it would cross the node's text.
    seen.guidePointsInsideNodes = await page.evaluate(() => {
      const nodes = [...document.querySelectorAll('.qe-item[data-type="node"]')].map((n) => n.getBBox());
      let inside = 0;
      let points = 0;
      for (const line of document.querySelectorAll('.qe-connector-line')) {
        for (const p of line.points) {
          points += 1;
          if (nodes.some((b) => p.x > b.x + 0.5 && p.x < b.x + b.width - 0.5 && p.y > b.y + 0.5 && p.y < b.y + b.height - 0.5)) inside += 1;
        }
      }
      return { inside, points };
    });
    // The same in the pixels: a screenshot with the guide lines and one without them
    // differ only where the lines are drawn; the test finds none of those inside a node.
    await page.mouse.move(0, 0);
    await settle();
    await page.screenshot({ path: `${cfg.shots}/guides-shown.png`, fullPage: true, animations: 'disabled', caret: 'hide' });
    // (Through the CSSOM: the page's CSP refuses a style tag.)
    const guides = (shown) => page.evaluate((v) => {
      for (const l of document.querySelectorAll('.qe-connector-line')) l.style.visibility = v;
    }, shown ? '' : 'hidden');
    await guides(false);
    await page.screenshot({ path: `${cfg.shots}/guides-hidden.png`, fullPage: true, animations: 'disabled', caret: 'hide' });
    await guides(true);
    seen.nodeBoxes = await page.locator('.qe-item[data-type="node"]').evaluateAll((nodes) => nodes.map((n) => {
      const r = n.getBoundingClientRect();
      return { x: r.x + window.scrollX, y: r.y + window.scrollY, w: r.width, h: r.height };
    }));
    // Text that no longer fits its node grows the node (around its centre); undone after.
    const node = page.locator(`[data-shape-id="${cfg.mermaid.node}"]`);
    const frame = () => node.evaluate((n) => {
      const b = n.getBBox();
      return { x: b.x, y: b.y, w: b.width, h: b.height };
    });
    const before = await frame();
    await node.click();
    await page.keyboard.press('Enter');
    await page.locator('textarea.qe-textedit').fill('A label that no longer fits\nits box, written\nover three lines');
    await page.keyboard.press('Control+Enter');
    const after = await frame();
    seen.textGrowth = { before, after };
    await page.keyboard.press('Control+z');
    seen.textGrowthUndone = await frame();
  });

  await step('add a node, connect it, then delete it again', async () => {
    // On the renamed diagram (saved): a new node joined to the first, then removed with
    // its connector; undo brings both back, redo takes them away, and nothing is saved.
    const before = await page.locator('[data-shape-id]').count();
    await page.getByRole('button', { name: 'Add node', exact: true }).click();
    const added = await page.locator('[data-shape-id]').count();
    await page.locator(`[data-shape-id="${cfg.mermaid.node}"]`).click();
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    seen.shapesBefore = before;
    seen.shapesAdded = added;
    const newest = await page.evaluate((known) => {
      const ids = [...document.querySelectorAll('[data-shape-id]')].map((e) => e.dataset.shapeId);
      return ids.find((id) => /^n\d+$/.test(id) && !known.includes(id));
    }, cfg.mermaid.shapes);
    seen.newNode = newest || null;
    if (newest) await page.locator(`[data-shape-id="${newest}"]`).click();
    seen.shapesConnected = await page.locator('[data-shape-id]').count();
    if (newest) await page.locator(`[data-shape-id="${newest}"]`).click();
    await page.keyboard.press('Delete');
    seen.shapesDeleted = await page.locator('[data-shape-id]').count();
    await page.keyboard.press('Control+z');
    seen.shapesUndone = await page.locator('[data-shape-id]').count();
    await page.keyboard.press('Control+y');
    seen.shapesRedone = await page.locator('[data-shape-id]').count();
  });

  await step('drag a node; its connector follows', async () => {
    await openEditor(cfg.drawio.id);
    const node = page.locator(`[data-shape-id="${cfg.drawio.node}"]`);
    const b = await node.boundingBox();
    const [x, y] = [b.x + b.width / 2, b.y + b.height / 2];
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) await page.mouse.move(x + (cfg.drawio.dx * i) / 8, y + (cfg.drawio.dy * i) / 8);
    await page.mouse.up();
    await settle();
    seen.drawioSave = await save();
  });

  await step('draw a field on a Markdown document', async () => {
    await openEditor(cfg.markdown.id);
    await page.getByRole('button', { name: 'Add field', exact: true }).click();
    const overlay = page.locator('svg.overlay[data-page="1"]');
    // Bring the upper part of page 1 into view: the mouse only acts inside the viewport.
    await overlay.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    const b = await overlay.boundingBox();
    // From 15% to 55% of the width, 30% to 33% of the height of page 1 (below the text).
    await page.mouse.move(b.x + b.width * 0.15, b.y + b.height * 0.3);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) {
      await page.mouse.move(b.x + b.width * (0.15 + (0.4 * i) / 8), b.y + b.height * (0.3 + (0.03 * i) / 8));
    }
    await page.mouse.up();
    const panel = page.locator('form.qe-field-form');
    // The panel checks a key by the server's rule (sent with the model), not by one of its
    // own: a key longer than the server's limit is refused with that limit, and one the
    // server takes (a space, a leading digit) is applied.
    const key = panel.getByLabel('Key', { exact: true });
    const apply = panel.getByRole('button', { name: 'Apply' });
    await key.fill('k'.repeat(201));
    await apply.click();
    const longKeyProblem = await panel.locator('.qe-form-error').textContent();
    if (!/longer than 200 characters/.test(longKeyProblem)) throw new Error(`a 201-character key: ${longKeyProblem}`);
    await key.fill('2nd signer');
    await apply.click();
    if ((await page.locator('[data-field-key="2nd signer"]').count()) !== 1) throw new Error('the key "2nd signer" was not applied');
    await key.fill(cfg.markdown.key);
    await panel.getByLabel('Type', { exact: true }).selectOption('text');
    await panel.getByLabel('Label', { exact: true }).fill('Your name');
    await panel.getByLabel('Required', { exact: true }).check();
    await panel.getByRole('button', { name: 'Apply' }).click();
    await settle();
    seen.fieldBoxes = await page.locator(`[data-field-key="${cfg.markdown.key}"]`).count();
    await shot('editor');
    seen.markdownSave = await save();
  });

  await step('see the downloads a Markdown report is offered', async () => {
    await openEditor(cfg.markdown.id);
    const downloads = page.locator('nav.downloads');
    await downloads.scrollIntoViewIfNeeded();
    seen.markdownDownloads = await downloads.locator('a').allInnerTexts();
    await shot('document');
  });

  await step('make the document a form and close it', async () => {
    await page.goto(url(`/d/${cfg.markdown.id}`));
    await Promise.all([
      page.waitForURL(`**/forms/${cfg.markdown.id}**`),
      page.getByRole('button', { name: 'Make this a form' }).click(),
    ]);
    seen.formNotice = await page.locator('.notice').innerText();
    seen.formQuestions = await page.locator('section[aria-labelledby="questions"] li strong').allInnerTexts();
    await shot('form');
    await page.getByLabel('Open: take new answers').uncheck();
    await Promise.all([page.waitForURL('**/forms/**'), page.getByRole('button', { name: 'Save settings' }).click()]);
    seen.formState = await page.locator('p.meta').first().innerText();
  });

  await step('save against a changed document', async () => {
    await openEditor(cfg.conflict.id);
    // The same document changes elsewhere (through the API) after the editor loaded it.
    const r = await fetch(url(`/api/v1/pdfs/${cfg.conflict.id}`), {
      method: 'PUT',
      headers: { authorization: `Bearer ${cfg.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ markdown: '# Changed elsewhere\n\nBy another client.' }),
    });
    seen.elsewhereStatus = r.status;
    await page.locator('[data-shape-id]').first().click();
    await page.keyboard.press('ArrowRight');
    await save();
    seen.conflictShown = await page.locator('#editor-conflict').isVisible();
    seen.conflictText = await page.locator('#editor-conflict').innerText();
  });

  await step('delete a document and restore it from the bin', async () => {
    await page.goto(url(`/d/${cfg.bin.id}`));
    await Promise.all([page.waitForURL('**/documents**'), page.getByRole('button', { name: 'Move to bin' }).click()]);
    seen.binnedNotice = await page.locator('.notice').innerText();
    await page.goto(url('/bin'));
    await shot('bin');
    const row = page.locator('tr', { hasText: cfg.bin.title });
    // The row's text and its buttons share one middle line.
    seen.binRowOffset = await row.evaluate((tr) => {
      const middle = (r) => r.top + r.height / 2;
      const range = document.createRange();
      range.selectNodeContents(tr.cells[0]);
      const text = middle(range.getBoundingClientRect());
      const button = middle(tr.querySelector('button').getBoundingClientRect());
      return Math.abs(text - button);
    });
    await Promise.all([page.waitForURL('**/bin**'), row.getByRole('button', { name: 'Restore' }).click()]);
    seen.restoredNotice = await page.locator('.notice').innerText();
  });

  await step('create a credential', async () => {
    await page.goto(url('/credentials'));
    await shot('credentials');
    await page.getByRole('button', { name: 'Create credential' }).click();
    seen.clientId = await page.locator('#client-id').innerText();
    seen.clientSecret = await page.locator('#client-secret').innerText();
  });

  await step('add a webhook endpoint', async () => {
    await page.goto(url('/webhooks'));
    await page.getByLabel('URL').fill('https://hooks.example.org/quire');
    await page.getByLabel('document.created').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    seen.webhookSecret = await page.locator('#webhook-secret').innerText();
    await page.goto(url('/webhooks'));
    await shot('webhooks');
  });

  await step('the session stays out of the API; changes need the token', async () => {
    const api = await page.request.get(url('/api/v1/documents'));
    seen.apiStatus = api.status();
    const noToken = await page.request.post(url(`/d/${cfg.bin.id}/bin`), { form: { x: '1' }, maxRedirects: 0 });
    seen.noCsrfStatus = noToken.status();
  });

  await step('forms and usage', async () => {
    await page.goto(url('/forms'));
    await shot('forms');
    await page.goto(url('/usage'));
    await shot('usage');
  });
} catch (e) {
  seen.error = seen.error || String(e.stack || e);
} finally {
  await browser.close();
}
console.log(JSON.stringify(seen));
