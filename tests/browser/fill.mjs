// Drives a real chromium (Debian's, through playwright-core) against the public form
// page with JavaScript switched off, as a respondent without scripts would see it.
//
//   node fill.mjs <chromium> fill <form url>    -> sends empty, then filled answers
//   node fill.mjs <chromium> closed <form url>  -> reads a closed form
//
// Prints one JSON object of what the browser saw; tests/e2e/browser.rs judges it.
import { chromium } from 'playwright-core';

const [, , executablePath, mode, url] = process.argv;
const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
const context = await browser.newContext({ javaScriptEnabled: false });
const page = await context.newPage();
const seen = {};

async function pictures() {
  // Every page picture must have arrived and decoded: fetch each one as the browser would.
  const sources = await page.locator('section.pages img').evaluateAll((imgs) =>
    imgs.map((i) => ({ src: i.getAttribute('src'), alt: i.getAttribute('alt') })),
  );
  const out = [];
  for (const s of sources) {
    const r = await page.request.get(new URL(s.src, url).toString());
    out.push({ alt: s.alt, status: r.status(), type: r.headers()['content-type'], bytes: (await r.body()).length });
  }
  return out;
}

try {
  const first = await page.goto(url);
  seen.status = first.status();
  seen.title = await page.title();
  seen.heading = await page.locator('h1').first().innerText();
  seen.pictures = await pictures();
  seen.labels = await page.locator('form label, form legend').allInnerTexts();

  if (mode === 'closed') {
    seen.closed = await page.locator('#closed').count() > 0 ? await page.locator('#closed').innerText() : null;
    seen.sendButtons = await page.getByRole('button', { name: 'Send' }).count();
    seen.disabledInputs = await page.locator('form input:disabled, form select:disabled, form textarea:disabled').count();
  } else {
    // Send with nothing filled in: the server answers with its messages.
    const [empty] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Send' }).click()]);
    seen.emptyStatus = empty.status();
    seen.problems = await page.locator('#problems li').allInnerTexts();
    seen.nameInvalid = await page.getByLabel('Full name').getAttribute('aria-invalid');
    // A bad address keeps what was typed and says what is wrong.
    await page.getByLabel('Full name').fill('Browser Person');
    await page.getByLabel(/^Email/).fill('not-an-address');
    await page.getByLabel('I agree to the rules').check();
    const [bad] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Send' }).click()]);
    seen.badStatus = bad.status();
    seen.badProblems = await page.locator('#problems li').allInnerTexts();
    seen.keptName = await page.getByLabel('Full name').inputValue();
    // Now properly.
    await page.getByLabel('Your email address').fill('browser@example.org');
    await page.getByLabel(/^Email/).fill('person@example.org');
    await page.getByLabel('Age').fill('37');
    await page.getByLabel('Date of birth').fill('1989-05-17');
    if (!(await page.getByLabel('I agree to the rules').isChecked())) {
      await page.getByLabel('I agree to the rules').check();
    }
    await page.getByLabel('full', { exact: true }).check();
    await page.getByLabel('Shirt size').selectOption('L');
    await page.getByLabel('Days').selectOption(['Tue', 'Wed']);
    await page.getByLabel('Notes').fill('Typed in a browser,\nover two lines.');
    await page.getByLabel('Signature').fill('B. Person');
    const [sent] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Send' }).click()]);
    seen.sentStatus = sent.status();
    seen.confirmation = await page.locator('#confirmation').innerText();
  }
} catch (e) {
  seen.error = String(e && e.stack ? e.stack : e);
} finally {
  await browser.close();
}
console.log(JSON.stringify(seen));
