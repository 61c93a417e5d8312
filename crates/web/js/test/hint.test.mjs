// The hint instead of the answer: the step `sudoku-snap hint` gives, drawn
// on the photo; and the answer image saved.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { FIXTURES, launch, nativeJson, openPage, readPhoto, serve } from '../harness.mjs';

const PHOTO = path.join(FIXTURES, 'image18.jpg');

// How many pixels of the canvas differ (by more than `tolerance` in some
// channel) from the photo as the browser decodes it.
async function changedPixels(page, photo, tolerance) {
  const bytes = [...(await readFile(photo))];
  return page.evaluate(async ({ bytes, tolerance }) => {
    const canvas = document.getElementById('canvas');
    const bitmap = await createImageBitmap(new Blob([new Uint8Array(bytes)]), { imageOrientation: 'none' });
    const plain = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
    plain.drawImage(bitmap, 0, 0);
    const a = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    const b = plain.getImageData(0, 0, bitmap.width, bitmap.height).data;
    if (a.length !== b.length) return -1;
    let changed = 0;
    for (let i = 0; i < a.length; i += 4) {
      if (Math.abs(a[i] - b[i]) > tolerance || Math.abs(a[i + 1] - b[i + 1]) > tolerance
        || Math.abs(a[i + 2] - b[i + 2]) > tolerance) changed++;
    }
    return changed;
  }, { bytes, tolerance });
}

// Two JPEG decoders differ by a few levels; the drawing changes pixels by far more.
const TOLERANCE = 48;

describe('hint and save', () => {
  let server;
  let browser;
  let context;
  let page;

  before(async () => {
    server = await serve();
    browser = await launch();
    ({ context, page } = await openPage(browser, server.url, { acceptDownloads: true }));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('in hint mode the next step is named and drawn, not the answer', async () => {
    await page.locator('label:has(input[value=hint])').click();
    const got = await readPhoto(page, PHOTO);
    assert.equal(got.status, 'solved');
    const [native] = await nativeJson(['hint', '--no-image', PHOTO]);
    assert.ok(native.hint, 'the binary gives a hint');
    assert.equal(await page.locator('#result').innerText(), native.hint);
    const hinted = await changedPixels(page, PHOTO, TOLERANCE);
    assert.ok(hinted > 0, 'the hint is drawn');
    // The answer draws every missing digit: far more ink than one step.
    await page.locator('#show-answer').click();
    await page.locator('#result').getByText('Solved').waitFor();
    const answered = await changedPixels(page, PHOTO, TOLERANCE);
    assert.ok(answered > 0, 'the answer is drawn');
    assert.notEqual(answered, hinted);
  });

  it('the answer image saves as a JPEG of the photo\'s size', async () => {
    await page.locator('label:has(input[value=answer])').click();
    await readPhoto(page, PHOTO);
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#save').click()]);
    assert.equal(download.suggestedFilename(), 'image18.solved.jpg');
    const bytes = await readFile(await download.path());
    assert.deepEqual([...bytes.subarray(0, 3)], [0xff, 0xd8, 0xff], 'a JPEG');
    const size = await page.evaluate(async (data) => {
      const bitmap = await createImageBitmap(new Blob([new Uint8Array(data)]));
      return [bitmap.width, bitmap.height];
    }, [...bytes]);
    assert.deepEqual(size, [640, 480]);
    await context.close();
  });
});
