// The reader's thread: loads the WebAssembly build of the pipeline
// (crates/web) and answers the page's requests (app.js's `ask`), one at a
// time, in the order they come.
//
// Requests: warm_up; read {name, bytes}; correct {grid, cell, value};
// answer; photo; hint. Views come back as objects (the reader's JSON),
// pictures as {width, height, rgba} with the pixels transferred.

import init, { Snap } from './pkg/snap_web.js';

let snap = null;

async function reader() {
  if (!snap) {
    await init({ module_or_path: new URL('./pkg/snap_web_bg.wasm', import.meta.url) });
    snap = new Snap();
  }
  return snap;
}

// A picture for postMessage, its pixels moved rather than copied.
function picture(p, transfer) {
  if (!p) return null;
  const out = { width: p.width, height: p.height, rgba: p.take_rgba().buffer };
  p.free();
  transfer.push(out.rgba);
  return out;
}

const ops = {
  async warm_up() {
    (await reader()).warm_up();
    return true;
  },
  async read({ name, bytes }) {
    return JSON.parse((await reader()).read(name, new Uint8Array(bytes)));
  },
  async correct({ grid, cell, value }) {
    return JSON.parse((await reader()).correct(grid, cell, value));
  },
  async answer(_, transfer) {
    return picture((await reader()).answer(), transfer);
  },
  async photo(_, transfer) {
    return picture((await reader()).photo(), transfer);
  },
  async hint(_, transfer) {
    const hint = (await reader()).hint();
    const out = { reports: JSON.parse(hint.json), picture: picture(hint.take_picture(), transfer) };
    hint.free();
    return out;
  },
};

let queue = Promise.resolve();

self.onmessage = (event) => {
  const { id, op, ...args } = event.data;
  queue = queue.then(async () => {
    const transfer = [];
    try {
      if (!ops[op]) throw new Error(`unknown request ${op}`);
      const result = await ops[op](args, transfer);
      self.postMessage({ id, ok: true, result }, transfer);
    } catch (e) {
      const fatal = e instanceof WebAssembly.RuntimeError;
      self.postMessage({ id, ok: false, fatal, error: e && e.message ? e.message : String(e) });
    }
  });
};
