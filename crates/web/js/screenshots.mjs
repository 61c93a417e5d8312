// `scripts/web.sh screenshots`: the page as a person sees it, on a phone
// (360 x 740 CSS pixels) and a desktop, into docs/:
//
// - web-phone-answer.png: a photo solved, the answer drawn in;
// - web-phone-correct.png: a photo read unsure, a shaded cell tapped and
//   the digit picker open;
// - web-desktop.png: the same on a desktop;
// - and the app icons (icon-192.png, icon-512.png) rendered from icon.svg
//   into crates/web/www/.

import path from 'node:path';

import { FIXTURES, ROOT, cellCentre, launch, nativeJson, openPage, readPhoto, serve } from './harness.mjs';

const DOCS = path.join(ROOT, 'docs');
const WWW = path.join(ROOT, 'crates/web/www');
const PHONE = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 };
const UNSURE = path.join(FIXTURES, 'unsure-blurred.jpg');

// Taps cell (row, col) of the one 9x9 grid of the photo shown.
async function tapCell(page, quad, row, col) {
  const box = await page.locator('#canvas').boundingBox();
  const size = await page.evaluate(() => ({
    width: document.getElementById('canvas').width,
    height: document.getElementById('canvas').height,
  }));
  const { x, y } = cellCentre(quad, 9, row, col, box, size);
  await page.mouse.click(x, y);
  await page.locator('#picker').waitFor({ state: 'visible' });
}

async function icons(browser, url) {
  const context = await browser.newContext({ viewport: { width: 512, height: 512 } });
  const page = await context.newPage();
  for (const side of [192, 512]) {
    await page.setViewportSize({ width: side, height: side });
    await page.setContent(`<style>html,body{margin:0;background:transparent}</style><img src="${url}icon.svg" width="${side}" height="${side}">`);
    await page.locator('img').screenshot({ path: path.join(WWW, `icon-${side}.png`), omitBackground: true });
  }
  await context.close();
}

async function main() {
  const server = await serve();
  const browser = await launch();
  try {
    await icons(browser, server.url);
    const [unsure] = await nativeJson(['--no-image', UNSURE]);
    const [first] = unsure.set.map((s) => /r(\d+)c(\d+)=(.)/.exec(s));

    const phone = await openPage(browser, server.url, PHONE);
    await readPhoto(phone.page, path.join(FIXTURES, 'image18.jpg'));
    await phone.page.screenshot({ path: path.join(DOCS, 'web-phone-answer.png'), fullPage: true });
    await readPhoto(phone.page, UNSURE);
    await tapCell(phone.page, unsure.quad, Number(first[1]) - 1, Number(first[2]) - 1);
    await phone.page.screenshot({ path: path.join(DOCS, 'web-phone-correct.png'), fullPage: true });
    await phone.context.close();

    const desktop = await openPage(browser, server.url, DESKTOP);
    await readPhoto(desktop.page, UNSURE);
    await tapCell(desktop.page, unsure.quad, Number(first[1]) - 1, Number(first[2]) - 1);
    await desktop.page.screenshot({ path: path.join(DOCS, 'web-desktop.png') });
    await desktop.context.close();
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
