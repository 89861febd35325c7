import { accessSync, constants } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateIdentity } from '../../../server/identity/generate';
import { presentIdentity } from '../../../server/identity/presented';
import { browserSuite, CHROMIUM } from '../../support/browser-fixtures';
import { seededRandom } from '../../support/seeded-random';

/** More cores than this host has, so that a realm the identity misses shows the host's instead. */
const CLAIMED_CORES = 6;
const identity = generateIdentity(undefined, seededRandom(51));
identity.hardware.cpu_cores = CLAIMED_CORES;
const presented = presentIdentity(identity, {}, null);

/** Debian's launcher script, as a person there sets CHROME_PATH; the binary itself where there is none. */
const DEBIAN_WRAPPER = '/usr/bin/chromium';
const launcher = isExecutable(DEBIAN_WRAPPER) ? DEBIAN_WRAPPER : CHROMIUM;

const suite = browserSuite('pp-identity-realms', {
  chromePath: launcher,
  identity: presented,
  fingerprint: { screen: presented.window },
});

/**
 * Every realm a page can make reads the cores and draws one picture: the page, a sandboxed `srcdoc` frame (an
 * opaque origin), a frame made inside it, an about:blank frame the page writes into, a javascript: frame, a
 * dedicated worker and a worker it starts. Each posts `realm|cores|pixels` up to the page.
 */
const REALMS_PAGE = `<!doctype html><body><script>
const P = ${JSON.stringify(`var read = (realm) => {
  const canvas = typeof document === 'object' ? document.createElement('canvas') : new OffscreenCanvas(64, 16);
  canvas.width = 64; canvas.height = 16;
  const context = canvas.getContext('2d');
  const gradient = context.createLinearGradient(0, 0, 64, 0);
  gradient.addColorStop(0, '#13a'); gradient.addColorStop(1, '#e82');
  context.fillStyle = gradient; context.fillRect(0, 0, 64, 16);
  return realm + '|' + navigator.hardwareConcurrency + '|' + context.getImageData(0, 0, 64, 16).data.join();
};`)};
eval(P);
const S = '<scr' + 'ipt>', E = '</scr' + 'ipt>';
const inFrame = (realm, up) => S + 'const P = ' + JSON.stringify(P) + '; eval(P); ' + up + '.postMessage(read(' + JSON.stringify(realm) + '), "*");';
window.readings = new Promise((resolve) => {
  const seen = [read('page')];
  addEventListener('message', (event) => { seen.push(event.data); if (seen.length === 7) resolve(seen.sort()); });
});
const inner = inFrame('frame inside the sandboxed frame', 'top') + E;
const sandboxed = document.createElement('iframe');
sandboxed.setAttribute('sandbox', 'allow-scripts');
sandboxed.srcdoc = inFrame('sandboxed frame', 'parent') + 'const f = document.createElement("iframe"); f.srcdoc = ' + JSON.stringify(inner).replaceAll('</', '<\\\\/') + '; document.documentElement.append(f);' + E;
document.body.append(sandboxed);
const blank = document.createElement('iframe');
document.body.append(blank);
blank.contentWindow.eval(P + '; parent.postMessage(read("about:blank frame"), "*")');
window.javascriptFrame = inFrame('javascript: frame', 'parent') + E;
const javascriptFrame = document.createElement('iframe');
javascriptFrame.src = 'javascript:parent.javascriptFrame';
document.body.append(javascriptFrame);
const nested = P + 'postMessage(read("nested worker"))';
const outer = P + 'const nested = new Worker(URL.createObjectURL(new Blob([' + JSON.stringify(nested) + ']))); nested.onmessage = (event) => postMessage(event.data); postMessage(read("worker"));';
new Worker(URL.createObjectURL(new Blob([outer]))).onmessage = (event) => postMessage(event.data, '*');
</script></body>`;

let origin = '';
const server = createServer((_request, response) => {
  response.setHeader('Content-Type', 'text/html');
  response.end(REALMS_PAGE);
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function readRealms(page: Page): Promise<string[]> {
  await page.goto(`${origin}/`);
  return (await page.evaluate('window.readings')) as string[];
}

describe('the identity in every realm a page can make', () => {
  it('reaches sandboxed, about:blank and javascript: frames and nested workers before their scripts, 10 loads in a row', async () => {
    const page = await (suite.cdp.contexts()[0] ?? (await suite.cdp.newContext())).newPage();
    for (let load = 0; load < 10; load += 1) {
      const readings = await readRealms(page);
      const [, , pagePixels] = (readings.find((reading) => reading.startsWith('page|')) as string).split('|');
      for (const reading of readings) {
        const [realm, cores, pixels] = reading.split('|');
        expect(`${realm}: ${cores} cores`, `load ${load}`).toBe(`${realm}: ${CLAIMED_CORES} cores`);
        // The same drawing reads back with the profile's noise in every realm, as in the page.
        expect(pixels === pagePixels, `${realm}, load ${load}: the page's picture`).toBe(true);
      }
    }
    await page.close();
  });

  it('shows the identity’s screen when launched through Debian’s /usr/bin/chromium launcher script', async () => {
    const page = await (suite.cdp.contexts()[0] ?? (await suite.cdp.newContext())).newPage();
    await page.goto(`${origin}/`);
    const shown = await page.evaluate('[screen.width, screen.height, screen.availWidth, screen.availHeight]');
    const { width, height, avail_width, avail_height } = presented.screen;
    expect(shown).toEqual([width, height, avail_width, avail_height]);
    await page.close();
  });
});
