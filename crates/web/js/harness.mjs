// What the browser tests, the figures and the screenshots share: a static
// server for target/web, Debian's Chromium driven by playwright-core, the
// page's test contract, and the native binary's --json for comparison.

import { execFile } from 'node:child_process';
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const SITE = path.join(ROOT, 'target/web');
export const FIXTURES = path.join(ROOT, 'fixtures');

// How long one photo may take in the page before a test gives up: a
// multi-grid page takes a few seconds on a busy 2-core machine.
export const PHOTO_TIMEOUT_MS = 120_000;

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
};

// Serves `dir` on a free loopback port; resolves with { url, close }.
export function serve(dir = SITE) {
  if (!existsSync(path.join(dir, 'index.html'))) {
    throw new Error(`${dir} has no page: run scripts/web.sh build first`);
  }
  const server = createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    let file = path.join(dir, path.normalize(name));
    if (!file.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
      'cache-control': 'no-cache',
    });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}/`,
        close: () => new Promise((done) => {
          server.closeAllConnections();
          server.close(done);
        }),
      });
    });
  });
}

// Debian's Chromium, headless, with nothing that reaches out to the
// network on its own (this machine has none but the package registries).
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

// The page's verdict on a photo: the #result attributes once it is done.
export async function readPhoto(page, photo) {
  await page.evaluate(() => {
    const result = document.getElementById('result');
    for (const key of ['status', 'read', 'solution', 'ms']) delete result.dataset[key];
  });
  await page.setInputFiles('#photo', photo);
  return verdict(page);
}

// The #result attributes, once the page has set them.
export async function verdict(page) {
  const result = page.locator('#result[data-status]');
  await result.waitFor({ state: 'attached', timeout: PHOTO_TIMEOUT_MS });
  return page.evaluate(() => {
    const d = document.getElementById('result').dataset;
    return { status: d.status, read: d.read, solution: d.solution, ms: Number(d.ms) };
  });
}

// The fixture photos the page is compared on: every photo in fixtures/.
export function fixturePhotos() {
  return readdirSync(FIXTURES)
    .filter((f) => /\.(jpe?g|png)$/i.test(f))
    .sort()
    .map((f) => path.join(FIXTURES, f));
}

// The native binary: $SUDOKU_SNAP, else the newer of the release and
// debug builds.
export function binary() {
  if (process.env.SUDOKU_SNAP) return process.env.SUDOKU_SNAP;
  const builds = ['release', 'debug']
    .map((p) => path.join(ROOT, 'target', p, 'sudoku-snap'))
    .filter((p) => existsSync(p))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!builds.length) throw new Error('no sudoku-snap binary: run cargo build --release');
  return builds[0];
}

// The binary's JSON lines for `args` (it exits 1 for a photo not solved).
export async function nativeJson(args) {
  const run = promisify(execFile);
  let stdout;
  try {
    ({ stdout } = await run(binary(), [...args, '--json'], { maxBuffer: 1 << 26 }));
  } catch (e) {
    if (e.code !== 1) throw e;
    ({ stdout } = e);
  }
  return stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

// The binary's verdict on a photo in the page's form: each grid's
// status, read and solution, joined by spaces.
export async function nativeVerdict(photo, extra = []) {
  const lines = await nativeJson([...extra, '--no-image', photo]);
  const join = (f) => lines.map((l) => f(l) || '').join(' ');
  return {
    status: join((l) => l.status),
    read: join((l) => l.read),
    solution: join((l) => l.solution),
    lines,
  };
}

// Where on the screen the middle of cell (row, col) of a grid (n cells a
// side, `quad` its corners tl, tr, br, bl in image pixels) is shown, for a
// canvas showing the image at `box` (its bounding box) of `size` pixels.
export function cellCentre(quad, n, row, col, box, size) {
  const [x, y] = squareToQuad(quad, (col + 0.5) / n, (row + 0.5) / n);
  return { x: box.x + (x * box.width) / size.width, y: box.y + (y * box.height) / size.height };
}

// The point (u, v) of the unit square, mapped projectively onto `quad`
// (corners tl, tr, br, bl): the homography of Heckbert's "Fundamentals of
// Texture Mapping", square to quadrilateral.
export function squareToQuad(quad, u, v) {
  const [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = quad;
  const dx1 = x1 - x2, dx2 = x3 - x2, dy1 = y1 - y2, dy2 = y3 - y2;
  const sx = x0 - x1 + x2 - x3, sy = y0 - y1 + y2 - y3;
  const det = dx1 * dy2 - dx2 * dy1;
  const g = (sx * dy2 - dx2 * sy) / det;
  const h = (dx1 * sy - sx * dy1) / det;
  const a = x1 - x0 + g * x1, b = x3 - x0 + h * x3, c = x0;
  const d = y1 - y0 + g * y1, e = y3 - y0 + h * y3, f = y0;
  const w = g * u + h * v + 1;
  return [(a * u + b * v + c) / w, (d * u + e * v + f) / w];
}

// Opens the page from `url` in a new context and waits for the reader to
// be loaded.
export async function openPage(browser, url, options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.goto(url);
  await page.locator('body[data-ready]').waitFor({ state: 'attached', timeout: PHOTO_TIMEOUT_MS });
  const ready = await page.evaluate(() => document.body.dataset.ready);
  if (ready !== 'yes') throw new Error(`the reader did not load: ${errors.join('; ')}`);
  return { context, page, errors };
}
