// `scripts/web.sh bench`: the web page's figures, written into their
// section of docs/performance.md: the bundle's size, and the time per
// fixture photo in the page (headless Chromium) against the native binary
// on the same photos.
//
// The page reads a photo on one thread with its digit model loaded (it
// loads it when it opens); its time is #result[data-ms], from handing the
// photo's bytes to the reader to the decision being back. The binary is
// timed two ways, by the `ms.total` of `--json --no-image`: warm on one
// core (`--jobs 1`, the photo given several times in one process and the
// first run, which waits for the model, left out), the like-for-like
// figure the ratio is taken against; and as a person runs it, one process
// per photo on every core, the model loading beside the first stages.
// Neither side draws the answer.

import { execFileSync } from 'node:child_process';
import {
  copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import {
  ROOT, SITE, binary, fixturePhotos, launch, nativeJson, openPage, readPhoto, serve,
} from './harness.mjs';

// Runs per photo and side; the median is reported.
const RUNS = Number(process.env.WEB_BENCH_RUNS || 5);
const DOC = path.join(ROOT, 'docs/performance.md');
// docs/performance.md's sections are each written between markers of their
// name, by scripts/figures.py where the checkout has it (`put`), so that
// every other section and the prose stay as they are.
const SECTION = 'web';
const TITLE = 'The web page';
const FIGURES = path.join(ROOT, 'scripts/figures.py');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const gzipped = (bytes) => gzipSync(bytes, { level: 9 }).length;

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

function sizes() {
  const wasm = readFileSync(path.join(SITE, 'pkg/snap_web_bg.wasm'));
  const all = files(SITE).map((p) => readFileSync(p));
  return {
    wasm: wasm.length,
    wasmGz: gzipped(wasm),
    files: all.length,
    page: all.reduce((n, b) => n + b.length, 0),
    pageGz: all.reduce((n, b) => n + gzipped(b), 0),
  };
}

// The binary as a person runs it: one process per photo, every core.
async function nativeCold(photo) {
  const times = [];
  let grids = 0;
  for (let i = 0; i < RUNS; i++) {
    const lines = await nativeJson(['--no-image', photo]);
    grids = lines.filter((l) => l.grid).length;
    times.push(lines[0].ms.total);
  }
  return { ms: median(times), grids };
}

// The binary warm on one core: the photo RUNS + 1 times in one process
// (copies under other names: one output name each), the first left out.
async function nativeWarm(photo) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'web-bench-'));
  try {
    const copies = [];
    for (let i = 0; i <= RUNS; i++) {
      const copy = path.join(dir, `${i}-${path.basename(photo)}`);
      copyFileSync(photo, copy);
      copies.push(copy);
    }
    const lines = await nativeJson(['--no-image', '--jobs', '1', ...copies]);
    const times = copies.slice(1).map((copy) => lines.find((l) => l.path === copy).ms.total);
    return median(times);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function pageMs(page, photo) {
  const times = [];
  for (let i = 0; i < RUNS; i++) times.push((await readPhoto(page, photo)).ms);
  return median(times);
}

function cpu() {
  return os.cpus()[0]?.model.replace(/\s+/g, ' ').trim() || 'unknown CPU';
}

const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;
const ms = (n) => n.toFixed(0);

async function main() {
  const size = sizes();
  const server = await serve();
  const browser = await launch();
  const rows = [];
  try {
    const { page } = await openPage(browser, server.url);
    for (const photo of fixturePhotos()) {
      const cold = await nativeCold(photo);
      const warm = await nativeWarm(photo);
      const inPage = await pageMs(page, photo);
      rows.push({ name: path.basename(photo), grids: cold.grids, cold: cold.ms, native: warm, page: inPage });
      console.error(`${path.basename(photo)}: native ${ms(cold.ms)} ms, warm one core ${ms(warm)} ms, page ${ms(inPage)} ms`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const version = browser.version();
  const total = (k) => rows.reduce((n, r) => n + r[k], 0);
  const ratios = rows.map((r) => r.page / r.native);
  const lines = [
    `Measured by \`scripts/web.sh bench\` on ${cpu()} (${os.cpus().length} cores), Chromium ${version}`,
    `headless, median of ${RUNS} runs each. Page: \`#result[data-ms]\`, one thread (WebAssembly with`,
    'SIMD, in a worker), the digit model loaded when the page opened. Native: the `ms.total` of',
    `\`${path.relative(ROOT, binary())} --json --no-image\`, warm on one core (\`--jobs 1\`, the photo`,
    'given again in one process, its first run left out), and as a person runs it (one process',
    'per photo, every core, the model loading beside the first stages). Neither draws the answer.',
    '',
    '| bundle | size | gzipped |',
    '|---|---:|---:|',
    `| WebAssembly (\`pkg/snap_web_bg.wasm\`) | ${mb(size.wasm)} | ${mb(size.wasmGz)} |`,
    `| the whole page (${size.files} files) | ${mb(size.page)} | ${mb(size.pageGz)} |`,
    '',
    '| photo | grids | native, one run ms | native, warm, one core ms | page ms | page / warm native |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.name} | ${r.grids} | ${ms(r.cold)} | ${ms(r.native)} | ${ms(r.page)} | ${(r.page / r.native).toFixed(2)} |`),
    `| all ${rows.length} photos | ${total('grids')} | ${ms(total('cold'))} | ${ms(total('native'))} | ${ms(total('page'))} | ${(total('page') / total('native')).toFixed(2)} |`,
    '',
    `Per photo the page takes ${Math.min(...ratios).toFixed(2)}x to ${Math.max(...ratios).toFixed(2)}x`
      + ` the warm one-core native time (median ${median(ratios).toFixed(2)}x).`,
  ];
  writeSection(lines.join('\n'));
  console.log(lines.join('\n'));
}

// Replaces the section between its markers, or adds it at the end under
// its title: through scripts/figures.py where there is one, else the same
// way here.
function writeSection(body) {
  if (existsSync(FIGURES)) {
    execFileSync('python3', [FIGURES, 'put', 'performance', SECTION], { input: body, stdio: ['pipe', 'inherit', 'inherit'] });
    return;
  }
  const begin = `<!-- figures:${SECTION} -->`;
  const end = `<!-- /figures:${SECTION} -->`;
  const block = `${begin}\n${body.trimEnd()}\n${end}`;
  let doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Performance\n';
  const at = doc.indexOf(begin);
  const until = doc.indexOf(end);
  if (at >= 0 && until > at) {
    doc = doc.slice(0, at) + block + doc.slice(until + end.length);
  } else {
    doc = `${doc.trimEnd()}\n\n## ${TITLE}\n\n${block}\n`;
  }
  writeFileSync(DOC, doc);
}

if (!existsSync(SITE)) throw new Error('no page: run scripts/web.sh build first');
await main();
