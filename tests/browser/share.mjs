// Drives Debian's chromium (through playwright-core), JavaScript on, as a form's owner and
// then a respondent on a phone:
//
//   node share.mjs '<json config>'
//
// The owner signs in by a printed link, makes a document with fields a form from its page,
// copies the form's link with the button and reads the clipboard; a phone-sized context (390 px, touch) opens that link,
// answers, signs on the pad with a finger (touch events through the DevTools protocol) and
// sends. tests/e2e/sharing.rs judges what this prints: one JSON object.
import { launch, record, stepper, watch } from './harness.mjs';

const cfg = JSON.parse(process.argv[2]);
const browser = await launch(cfg);
const seen = record();
const step = stepper(seen);

try {
  const owner = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, locale: 'en-US' });
  await owner.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: cfg.base });
  const desk = await owner.newPage();
  watch(desk, seen);

  await step('sign in by a printed link', async () => {
    await desk.goto(cfg.link);
    await Promise.all([desk.waitForURL('**/documents'), desk.getByRole('button', { name: 'Sign in' }).click()]);
  });

  await step('make the document a form from its page', async () => {
    await desk.goto(new URL(`/d/${cfg.form}`, cfg.base).toString());
    await Promise.all([
      desk.waitForURL(`**/forms/${cfg.form}**`),
      desk.getByRole('button', { name: 'Make this a form' }).click(),
    ]);
    seen.formNotice = await desk.locator('.notice').innerText();
  });

  await step('copy the form link from its page', async () => {
    seen.summary = await desk.locator('#summary').innerText();
    const summaryTop = (await desk.locator('#summary').boundingBox()).y;
    seen.summaryAboveTheFold = summaryTop < 900;
    await desk.getByRole('button', { name: 'Copy link' }).click();
    await desk.locator('#copied', { hasText: 'Link copied.' }).waitFor();
    seen.clipboard = await desk.evaluate(() => navigator.clipboard.readText());
    seen.copyButtonAfter = await desk.getByRole('button', { name: 'Copied' }).count();
    // The QR code arrived and is a picture the browser decoded.
    seen.qrWidth = await desk.locator('.qr img').evaluate(async (img) => {
      await img.decode();
      return img.naturalWidth;
    });
    seen.embedOff = await desk.locator('#embed-off').count();
    // What changes from run to run (the port in the link and its QR code, times) is masked.
    await desk.screenshot({
      path: `${cfg.shots}/form-share.png`,
      fullPage: true,
      mask: [desk.locator('.meta, .who span, .fill-link, .qr img, .qr a, #summary, td, caption, .notice')],
    });
  });

  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
  });
  const mobile = await phone.newPage();
  watch(mobile, seen);

  await step('open the copied link on a phone', async () => {
    await mobile.goto(seen.clipboard);
    const questions = await mobile.locator('section.questions').boundingBox();
    const pages = await mobile.locator('section.pages').boundingBox();
    seen.formFirst = questions.y < pages.y;
    seen.questionsWidth = questions.width;
    seen.sideways = await mobile.evaluate(() => document.scrollingElement.scrollWidth - innerWidth);
    seen.dateHint = await mobile.locator('[data-date-hint]').innerText();
    seen.dateInputType = await mobile.getByLabel('Date of birth').getAttribute('type');
    seen.padShown = await mobile.locator('canvas.pad').isVisible();
  });

  await step('answer and sign with a finger', async () => {
    await mobile.getByLabel('Your email address').fill('phone@example.org');
    await mobile.getByLabel('Full name').fill('Pat Phone');
    await mobile.getByLabel(/^Email/).fill('pat@example.org');
    await mobile.getByLabel('I agree to the rules').check();
    await mobile.getByLabel('Date of birth').fill('1990-04-02');
    const pad = mobile.locator('canvas.pad');
    await pad.scrollIntoViewIfNeeded();
    const box = await pad.boundingBox();
    const cdp = await phone.newCDPSession(mobile);
    const touch = (type, points) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y]) => ({ x, y })) });
    // A wave across the pad, then a dot: two strokes.
    const wave = [];
    for (let i = 0; i <= 24; i += 1) {
      const t = i / 24;
      wave.push([box.x + box.width * (0.1 + 0.8 * t), box.y + box.height * (0.5 + 0.3 * Math.sin(t * Math.PI * 3))]);
    }
    await touch('touchStart', [wave[0]]);
    for (const p of wave.slice(1)) await touch('touchMove', [p]);
    await touch('touchEnd', []);
    await touch('touchStart', [[box.x + box.width * 0.92, box.y + box.height * 0.3]]);
    await touch('touchEnd', []);
    seen.drawing = JSON.parse(await mobile.locator('input[name="d.sign"]').inputValue());
    seen.padInk = await pad.evaluate((canvas) => {
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let ink = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) ink += 1;
      return ink;
    });
    await mobile.screenshot({ path: `${cfg.shots}/form-phone.png` });
  });

  await step('send', async () => {
    const [sent] = await Promise.all([mobile.waitForNavigation(), mobile.getByRole('button', { name: 'Send' }).click()]);
    seen.sentStatus = sent.status();
    seen.confirmation = await mobile.locator('#confirmation').innerText();
  });

  await step('see the response on the form page', async () => {
    await desk.reload();
    seen.summaryAfter = await desk.locator('#summary').innerText();
    // The response's own page: every answer, the drawn signature named as such.
    await desk.getByRole('link', { name: 'See them' }).click();
    await Promise.all([desk.waitForURL('**/responses/**'), desk.locator('#responses tbody tr a, section[aria-labelledby="responses"] tbody a').first().click()]);
    seen.responseSignature = await desk.locator('dt', { hasText: 'Signature' }).locator('xpath=following-sibling::dd[1]').innerText();
    await desk.screenshot({ path: `${cfg.shots}/response.png`, fullPage: true, mask: [desk.locator('.meta, .who span')] });
    // The public page as a respondent on a laptop sees it: the pages beside the questions.
    await desk.goto(seen.clipboard);
    await desk.screenshot({ path: `${cfg.shots}/form-public.png` });
  });
} catch {
  // `seen.error` says which step failed.
} finally {
  await browser.close();
  console.log(JSON.stringify(seen));
}
