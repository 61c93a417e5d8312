// Every fixture photo read in the page gives the binary's verdict: each
// grid's status, reading and solution (the page runs the same pipeline,
// compiled to WebAssembly).

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { fixturePhotos, launch, nativeVerdict, openPage, readPhoto, serve } from '../harness.mjs';

describe('fixture photos in the page', () => {
  let server;
  let browser;
  let page;
  let errors;

  before(async () => {
    server = await serve();
    browser = await launch();
    ({ page, errors } = await openPage(browser, server.url));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const photo of fixturePhotos()) {
    it(`${path.basename(photo)}: status, reading and solution as the binary's`, async () => {
      const native = await nativeVerdict(photo);
      const got = await readPhoto(page, photo);
      assert.deepEqual(
        { status: got.status, read: got.read, solution: got.solution },
        { status: native.status, read: native.read, solution: native.solution },
      );
      assert.ok(got.ms > 0, `data-ms ${got.ms}`);
      assert.deepEqual(errors, []);
    });
  }

  it('bytes that are no photo give the binary\'s status', async () => {
    const junk = { name: 'junk.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not a photo') };
    await page.evaluate(() => {
      for (const key of ['status', 'read', 'solution', 'ms']) delete document.getElementById('result').dataset[key];
    });
    await page.setInputFiles('#photo', junk);
    await page.locator('#result[data-status]').waitFor({ state: 'attached' });
    const status = await page.evaluate(() => document.getElementById('result').dataset.status);
    assert.equal(status, 'error');
    assert.match(await page.locator('#result').innerText(), /junk\.jpg|image|decode|format/i);
  });
});
