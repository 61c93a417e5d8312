// After one visit the page works with no network and no server: the
// service worker serves it, and the reader runs in the page.

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { FIXTURES, launch, nativeVerdict, openPage, readPhoto, serve } from '../harness.mjs';

const PHOTO = path.join(FIXTURES, 'image18.jpg');

describe('offline', () => {
  let server;
  let browser;

  before(async () => {
    server = await serve();
    browser = await launch();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('a photo is solved after the server is gone and the network is off', async () => {
    const { context, page } = await openPage(browser, server.url);
    // Installed and in control of the page (it claims it on activation).
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise((resolve) => {
          navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true });
        });
      }
    });
    const manifest = await page.evaluate(async () => (await fetch('manifest.webmanifest')).json());
    assert.equal(manifest.display, 'standalone');
    assert.ok(manifest.icons.some((i) => i.sizes === '512x512'));
    await server.close();
    server = null;
    await context.setOffline(true);
    await page.reload();
    await page.locator('body[data-ready=yes]').waitFor({ state: 'attached' });
    const got = await readPhoto(page, PHOTO);
    const native = await nativeVerdict(PHOTO);
    assert.deepEqual(
      { status: got.status, solution: got.solution },
      { status: native.status, solution: native.solution },
    );
    assert.equal(got.status, 'solved');
  });
});
