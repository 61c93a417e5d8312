// Tap-to-correct: tapping a cell and picking a value decides the grid
// again, exactly as the binary does with `--set`.

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import {
  FIXTURES, cellCentre, launch, nativeVerdict, openPage, readPhoto, serve, verdict,
} from '../harness.mjs';

// A single-grid photo the binary reads as unsure (cells to check).
const UNSURE = path.join(FIXTURES, 'unsure-blurred.jpg');
const SOLVED = path.join(FIXTURES, 'image18.jpg');

// `r7c1=1` as { row, col, value } (0-based row and column).
function parseSet(arg) {
  const m = /^r(\d+)c(\d+)=(.)$/.exec(arg);
  assert.ok(m, `a --set argument: ${arg}`);
  return { row: Number(m[1]) - 1, col: Number(m[2]) - 1, value: m[3] === '.' ? 0 : Number(m[3]) };
}

// Taps cell (row, col) of a 9x9 grid with corners `quad` and picks
// `value` (a number; -1 for "as read"); resolves with the new verdict.
async function tapAndPick(page, quad, { row, col, value }) {
  const box = await page.locator('#canvas').boundingBox();
  const size = await page.evaluate(() => {
    const canvas = document.getElementById('canvas');
    return { width: canvas.width, height: canvas.height };
  });
  const { x, y } = cellCentre(quad, 9, row, col, box, size);
  await page.mouse.click(x, y);
  await page.locator('#picker').waitFor({ state: 'visible' });
  const title = await page.locator('#picker-title').innerText();
  assert.ok(title.startsWith(`r${row + 1}c${col + 1}`), `picker for r${row + 1}c${col + 1}: ${title}`);
  await page.evaluate(() => {
    for (const key of ['status', 'read', 'solution', 'ms']) delete document.getElementById('result').dataset[key];
  });
  const button = value === -1 ? '#picker-read' : `#picker [data-value="${value}"]`;
  await page.locator(button).click();
  return verdict(page);
}

const pick = (v) => ({ status: v.status, read: v.read, solution: v.solution });

describe('tap to correct', () => {
  let server;
  let browser;
  let page;

  before(async () => {
    server = await serve();
    browser = await launch();
    ({ page } = await openPage(browser, server.url, { viewport: { width: 360, height: 740 } }));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('an unsure grid, its cells set as it asks, is decided as --set decides it', async () => {
    const native = await nativeVerdict(UNSURE);
    const [line] = native.lines;
    assert.equal(line.status, 'unsure');
    assert.ok(line.set.length > 0, 'cells to set');
    assert.deepEqual(pick(await readPhoto(page, UNSURE)), pick(native));
    const sets = line.set.map((s) => s.replace(/^--set /, ''));
    let got;
    for (const set of sets) got = await tapAndPick(page, line.quad, parseSet(set));
    const expected = await nativeVerdict(UNSURE, sets.flatMap((s) => ['--set', s]));
    assert.equal(expected.status, 'solved');
    assert.deepEqual(pick(got), pick(expected));
    // "As read" takes the last correction back.
    const undone = await tapAndPick(page, line.quad, { ...parseSet(sets.at(-1)), value: -1 });
    const rest = sets.slice(0, -1).flatMap((s) => ['--set', s]);
    assert.deepEqual(pick(undone), pick(await nativeVerdict(UNSURE, rest)));
  });

  it('a clue set to clash with its row is decided as --set decides it', async () => {
    const native = await nativeVerdict(SOLVED);
    const [line] = native.lines;
    assert.equal(line.status, 'solved');
    await readPhoto(page, SOLVED);
    // The first empty cell gets the digit of a clue in its row.
    const givens = line.givens;
    const cell = givens.indexOf('.');
    const row = Math.floor(cell / 9);
    const clue = [...givens.slice(row * 9, row * 9 + 9)].find((c) => c !== '.');
    const set = { row, col: cell % 9, value: Number(clue) };
    const got = await tapAndPick(page, line.quad, set);
    const expected = await nativeVerdict(SOLVED, ['--set', `r${row + 1}c${(cell % 9) + 1}=${clue}`]);
    assert.equal(expected.status, 'no_solution');
    assert.deepEqual(pick(got), pick(expected));
  });

  it('the page fits a 360-pixel-wide screen, picker included', async () => {
    await readPhoto(page, UNSURE);
    const [line] = (await nativeVerdict(UNSURE)).lines;
    const box = await page.locator('#canvas').boundingBox();
    const size = await page.evaluate(() => ({
      width: document.getElementById('canvas').width,
      height: document.getElementById('canvas').height,
    }));
    const { x, y } = cellCentre(line.quad, 9, 6, 0, box, size);
    await page.mouse.click(x, y);
    await page.locator('#picker').waitFor({ state: 'visible' });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 360, `page ${width} px wide`);
    for (const button of await page.locator('#picker button').all()) {
      const b = await button.boundingBox();
      assert.ok(b.x >= 0 && b.x + b.width <= 360, `button at ${b.x}..${b.x + b.width}`);
      assert.ok(b.width >= 28 && b.height >= 40, `button ${b.width}x${b.height} big enough to tap`);
    }
    await page.locator('#picker-close').click();
  });
});
