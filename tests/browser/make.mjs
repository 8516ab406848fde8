// Drives Debian's chromium (through playwright-core), JavaScript on, as a person making a
// document from a file:
//
//   node make.mjs '<json config>'
//
// Signs in by a printed link, drops a Markdown file on the Documents page, downloads the
// PDF of what it made, replaces it with a file chosen with the button, and tries a file no
// converter reads. tests/e2e/make_documents.rs judges what this prints: one JSON object.
import { launch, record, stepper, watch } from './harness.mjs';

const cfg = JSON.parse(process.argv[2]);
const browser = await launch(cfg);
const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, acceptDownloads: true });
const page = await context.newPage();
// Every refused request is kept by path, so the test can tell the one it asked for.
const seen = record();
watch(page, seen);
const step = stepper(seen);
const url = (path) => new URL(path, cfg.base).toString();

/** WCAG contrast ratio of an element's text on its own background colour. */
async function contrastOf(locator) {
  return locator.evaluate(async (el) => {
    // The colours the state settles on, not a frame of its transition.
    await Promise.all(el.getAnimations().map((a) => a.finished));
    const style = getComputedStyle(el);
    const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
    const lum = ([r, g, b]) => {
      const f = (v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const [a, b] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
  });
}

try {
  await step('sign in by a printed link', async () => {
    await page.goto(cfg.link);
    await Promise.all([page.waitForURL('**/documents'), page.getByRole('button', { name: 'Sign in' }).click()]);
  });

  await step('drop a Markdown file on the Documents page', async () => {
    seen.newButtonContrast = await contrastOf(page.locator('form.upload label.button'));
    const drag = await page.evaluateHandle(({ name, type, text }) => {
      const data = new DataTransfer();
      data.items.add(new File([text], name, { type }));
      return data;
    }, cfg.dropped);
    await page.dispatchEvent('main', 'dragenter', { dataTransfer: drag });
    await page.dispatchEvent('main', 'dragover', { dataTransfer: drag });
    seen.dropHint = await page.evaluate(() =>
      document.body.classList.contains('dropping')
        ? getComputedStyle(document.body, '::after').content.replace(/^"|"$/g, '')
        : '',
    );
    await Promise.all([page.waitForURL('**/d/**'), page.dispatchEvent('main', 'drop', { dataTransfer: drag })]);
    await page.waitForSelector('body[data-editor-ready="1"]', { timeout: 30000 });
    seen.documentId = new URL(page.url()).pathname.split('/')[2];
    seen.heading = await page.locator('h1').textContent();
    seen.notice = await page.locator('.notice').textContent();
  });

  await step('press Add field and read it under the pointer', async () => {
    const add = page.getByRole('button', { name: 'Add field' });
    await add.click();
    seen.addFieldPressed = await add.getAttribute('aria-pressed');
    await add.hover();
    seen.addFieldContrast = await contrastOf(add);
    await page.keyboard.press('Escape');
  });

  await step('download its PDF', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('.downloads a', { hasText: /^\.pdf$/ }).click(),
    ]);
    const path = `${cfg.shots}/dropped.pdf`;
    await download.saveAs(path);
    seen.download = path;
  });

  await step('replace it with a file chosen with the button', async () => {
    const { name, type, text } = cfg.replacement;
    await Promise.all([
      page.waitForURL(/notice=Saved/),
      page.setInputFiles('#upload-file', { name, mimeType: type, buffer: Buffer.from(text) }),
    ]);
    await page.waitForSelector('body[data-editor-ready="1"]', { timeout: 30000 });
    seen.replaceNotice = await page.locator('.notice').textContent();
    seen.metaAfterReplace = await page.locator('#doc-meta').textContent();
  });

  await step('try a file no converter reads', async () => {
    await page.goto(url('/documents'));
    const { name, type, text } = cfg.refused;
    await page.setInputFiles('#upload-file', { name, mimeType: type, buffer: Buffer.from(text) });
    const status = page.locator('form.upload .status.problem');
    await status.waitFor({ timeout: 30000 });
    seen.refusal = await status.textContent();
    seen.refusalRole = await status.getAttribute('role');
    await page.screenshot({ path: `${cfg.shots}/refused.png` });
  });
} catch {
  // `seen.error` says which step failed.
} finally {
  await browser.close();
  console.log(JSON.stringify(seen));
}
