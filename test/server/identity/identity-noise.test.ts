import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { varyPixels } from '../../../server/identity/blended-pixels';
import { generateIdentity } from '../../../server/identity/generate';
import { presentIdentity } from '../../../server/identity/presented';
import { varySamples } from '../../../server/identity/read-back-noise';
import { browserSuite, median } from '../../support/browser-fixtures';
import { seededRandom } from '../../support/seeded-random';

const presented = presentIdentity(generateIdentity(undefined, seededRandom(52)), {}, null);
const { seed } = presented.identity;
const profile = browserSuite('pp-identity-noise', { identity: presented });
/** The same Chromium without an identity, side by side. */
const bare = browserSuite('pp-identity-noise-bare');

const pages: { profile?: Page; bare?: Page } = {};
beforeAll(async () => {
  for (const [name, suite] of [
    ['profile', profile],
    ['bare', bare],
  ] as const) {
    const page = await (suite.cdp.contexts()[0] ?? (await suite.cdp.newContext())).newPage();
    await page.goto(`${suite.pages.origin}/`);
    await page.evaluate(DRAW);
    pages[name] = page;
  }
});
afterAll(async () => {
  await pages.profile?.close();
  await pages.bare?.close();
});

/** A picture of the kind fingerprinting scripts draw: a gradient, text, arcs, half-transparent strokes. */
const DRAW = `window.draw = (width, height) => {
  const canvas = document.createElement('canvas');
  canvas.width = width; canvas.height = height;
  const context = canvas.getContext('2d');
  const gradient = context.createLinearGradient(0, 0, width, height);
  gradient.addColorStop(0, '#1a4'); gradient.addColorStop(1, '#d52');
  context.fillStyle = gradient; context.fillRect(0, 0, width, height);
  context.font = Math.round(height / 6) + 'px sans-serif'; context.fillStyle = '#fff';
  context.fillText('Identity ✓ 51', width / 20, height / 2);
  context.strokeStyle = 'rgba(30, 60, 200, 0.6)'; context.lineWidth = height / 40;
  context.beginPath(); context.arc(width / 2, height / 2, height / 3, 0, 6); context.stroke();
  return canvas;
};
window.bytesOf = async (blob) => Array.from(new Uint8Array(await blob.arrayBuffer()));
window.samplesOf = async (frequency) => {
  const audio = new OfflineAudioContext(1, 4410, 44100);
  const oscillator = audio.createOscillator();
  oscillator.type = 'triangle'; oscillator.frequency.value = frequency;
  const compressor = audio.createDynamicsCompressor();
  oscillator.connect(compressor); compressor.connect(audio.destination); oscillator.start();
  const rendered = await audio.startRendering();
  const copied = new Float32Array(rendered.length);
  rendered.copyFromChannel(copied, 0);
  return { read: Array.from(rendered.getChannelData(0)), copied: Array.from(copied) };
};`;

const evaluate = <T>(name: 'profile' | 'bare', expression: string) =>
  (pages[name] as Page).evaluate(expression) as Promise<T>;

function varied(pixels: number[], width: number, height: number): number[] {
  const bytes = Uint8Array.from(pixels);
  varyPixels(new Uint32Array(bytes.buffer), width, height, 0, seed);
  return Array.from(bytes);
}

describe('the profile’s read-back noise', () => {
  it('is a pure function of the seed and the pixels, the same by every route and through a round trip', async () => {
    const read = `(async () => {
      const canvas = draw(96, 48);
      const direct = canvas.toDataURL();
      const copy = document.createElement('canvas'); copy.width = 96; copy.height = 48;
      copy.getContext('2d').putImageData(canvas.getContext('2d').getImageData(0, 0, 96, 48), 0, 0);
      const offscreen = new OffscreenCanvas(96, 48);
      offscreen.getContext('2d').drawImage(canvas, 0, 0);
      // Six columns from one colour to another, as across an anti-aliased edge.
      const glCanvas = document.createElement('canvas'); glCanvas.width = 6; glCanvas.height = 2;
      const gl = glCanvas.getContext('webgl', { preserveDrawingBuffer: true });
      gl.enable(gl.SCISSOR_TEST);
      for (let column = 0; column < 6; column += 1) {
        const part = column / 5;
        gl.scissor(column, 0, 1, 2); gl.clearColor(0.2 + 0.6 * part, 0.4 + 0.2 * part, 0.8 - 0.6 * part, 1);
        gl.clear(gl.COLOR_BUFFER_BIT);
      }
      const webgl = new Uint8Array(48); gl.readPixels(0, 0, 6, 2, gl.RGBA, gl.UNSIGNED_BYTE, webgl);
      const webglMiddle = new Uint8Array(8); gl.readPixels(2, 1, 2, 1, gl.RGBA, gl.UNSIGNED_BYTE, webglMiddle);
      // The export decoded and drawn again: it reads as the canvas does, so the noise leaves a varied pixel as it is.
      const image = new Image(); image.src = direct; await image.decode();
      const redrawn = document.createElement('canvas'); redrawn.width = 96; redrawn.height = 48;
      redrawn.getContext('2d').drawImage(image, 0, 0);
      return {
        redrawn: Array.from(redrawn.getContext('2d').getImageData(0, 0, 96, 48).data),
        pixels: Array.from(canvas.getContext('2d').getImageData(0, 0, 96, 48).data),
        corner: Array.from(canvas.getContext('2d').getImageData(40, 20, 8, 4).data),
        direct,
        roundTrip: copy.toDataURL(),
        blob: await bytesOf(await new Promise((resolve) => canvas.toBlob(resolve))),
        offscreen: await bytesOf(await offscreen.convertToBlob()),
        webgl: Array.from(webgl),
        webglMiddle: Array.from(webglMiddle),
      };
    })()`;
    type Reading = {
      redrawn: number[];
      pixels: number[];
      corner: number[];
      direct: string;
      roundTrip: string;
      blob: number[];
      offscreen: number[];
      webgl: number[];
      webglMiddle: number[];
    };
    const [seen, raw] = [await evaluate<Reading>('profile', read), await evaluate<Reading>('bare', read)];
    const expected = varied(raw.pixels, 96, 48);
    expect(expected).not.toEqual(raw.pixels);
    expect(seen.pixels).toEqual(expected);
    // A rectangle reads as the same part of the whole.
    const corner = Array.from({ length: 4 }, (_, row) =>
      expected.slice(((20 + row) * 96 + 40) * 4, ((20 + row) * 96 + 48) * 4),
    );
    expect(seen.corner).toEqual(corner.flat());
    // The bare browser encodes the expected pixels as the profile's export does.
    const encoded = await evaluate<string>(
      'bare',
      `(() => { const canvas = document.createElement('canvas'); canvas.width = 96; canvas.height = 48;
        canvas.getContext('2d').putImageData(new ImageData(Uint8ClampedArray.from(${JSON.stringify(expected)}), 96, 48), 0, 0);
        return canvas.toDataURL(); })()`,
    );
    expect(seen.direct).toBe(encoded);
    expect(seen.roundTrip).toBe(seen.direct);
    expect(seen.redrawn).toEqual(seen.pixels);
    expect(raw.redrawn).toEqual(raw.pixels);
    expect(Buffer.from(seen.blob).toString('base64')).toBe(seen.direct.split(',')[1]);
    expect(Buffer.from(seen.offscreen).toString('base64')).toBe(seen.direct.split(',')[1]);
    expect(raw.roundTrip).toBe(raw.direct);
    const webgl = varied(raw.webgl, 6, 2);
    expect(webgl).not.toEqual(raw.webgl);
    expect(seen.webgl).toEqual(webgl);
    expect(seen.webglMiddle).toEqual(webgl.slice(32, 40));
  });

  it('reads back solid fills exactly as drawn: CreepJS’s "pixel data modified" probe finds nothing', async () => {
    // CreepJS (docs/creep.js, getPixelMods and getCanvas2d): 8×8 pixels of unrelated colours, each filled 1×1 and
    // read back 1×1, must read as filled; a cleared canvas reads as zeros; a 2×2 black square with a white arc
    // reads as on a bare browser. Here with a fixed sequence of colours (xorshift), ten grids.
    const probe = `(() => {
      let state = 51;
      const next = () => { state ^= state << 13; state ^= state >>> 17; state ^= state << 5; return (state >>> 8) & 255; };
      const modified = [];
      for (let grid = 0; grid < 10; grid += 1) {
        const canvas = document.createElement('canvas'); canvas.width = 8; canvas.height = 8;
        const context = canvas.getContext('2d', { willReadFrequently: true, desynchronized: true });
        const filled = [];
        for (let x = 0; x < 8; x += 1)
          for (let y = 0; y < 8; y += 1) {
            const colour = [next(), next(), next(), 255];
            context.fillStyle = 'rgba(' + colour.join(', ') + ')'; context.fillRect(x, y, 1, 1);
            filled.push([x, y, colour.join(',')]);
          }
        for (const [x, y, colour] of filled) {
          const read = Array.from(context.getImageData(x, y, 1, 1).data).join(',');
          if (read !== colour) modified.push(x + ',' + y + ': ' + colour + ' read as ' + read);
        }
        context.clearRect(0, 0, 8, 8);
        if (Math.max(...context.getImageData(0, 0, 8, 8).data)) modified.push('cleared canvas');
      }
      const small = document.createElement('canvas'); small.width = 2; small.height = 2;
      const context = small.getContext('2d');
      context.fillStyle = '#000'; context.fillRect(0, 0, 2, 2); context.fillStyle = '#fff'; context.fillRect(2, 2, 1, 1);
      context.beginPath(); context.arc(0, 0, 2, 0, 1, true); context.closePath(); context.fill();
      const solid = document.createElement('canvas'); solid.width = 40; solid.height = 20;
      const flat = solid.getContext('2d');
      flat.fillStyle = '#2a6'; flat.fillRect(0, 0, 40, 20); flat.fillStyle = '#c31'; flat.fillRect(10, 5, 20, 10);
      return { modified, lowEntropy: context.getImageData(0, 0, 2, 2).data.join(''), solid: solid.toDataURL() };
    })()`;
    const [seen, raw] = [await evaluate('profile', probe), await evaluate('bare', probe)];
    expect(seen).toEqual(raw);
    expect(seen).toMatchObject({ modified: [] });
  });

  it('varies audio as a pure function of the seed and the samples, and leaves silence silent', async () => {
    const [seen, raw] = [
      await evaluate<{ read: number[]; copied: number[] }>('profile', 'samplesOf(10000)'),
      await evaluate<{ read: number[]; copied: number[] }>('bare', 'samplesOf(10000)'),
    ];
    const samples = Float32Array.from(raw.read);
    varySamples(new Uint32Array(samples.buffer), samples.length, seed);
    expect(Array.from(samples)).not.toEqual(raw.read);
    expect(seen.read).toEqual(Array.from(samples));
    expect(seen.copied).toEqual(seen.read);
    const silence = `(async () => {
      const buffer = new AudioBuffer({ length: 1000, sampleRate: 44100 });
      const copied = new Float32Array(1000); buffer.copyFromChannel(copied, 0);
      const still = await samplesOf(0);
      return [...new Set([...buffer.getChannelData(0), ...copied, ...still.read, ...still.copied])];
    })()`;
    expect(await evaluate('profile', silence)).toEqual(await evaluate('bare', silence));
    expect(await evaluate('profile', silence)).toEqual([0]);
  });

  it('calls nothing a page can replace: a spy on what the read-outs use never fires', async () => {
    const spied = await evaluate<{ during: string[]; own: number }>(
      'profile',
      `(async () => {
        const canvas = draw(64, 32);
        const offscreen = new OffscreenCanvas(64, 32); offscreen.getContext('2d').drawImage(canvas, 0, 0);
        const gl = document.createElement('canvas').getContext('webgl');
        const audio = new OfflineAudioContext(1, 441, 44100);
        const oscillator = audio.createOscillator(); oscillator.connect(audio.destination); oscillator.start();
        const rendered = await audio.startRendering();
        const fired = [];
        const spy = (owner, name, label, kind = 'value') => {
          const descriptor = Object.getOwnPropertyDescriptor(owner, name);
          const original = descriptor[kind];
          Object.defineProperty(owner, name, { ...descriptor, [kind]: function (...args) { fired.push(label); return original.apply(this, args); } });
        };
        for (const context of [CanvasRenderingContext2D, OffscreenCanvasRenderingContext2D])
          for (const name of ['drawImage', 'putImageData', 'getImageData'])
            spy(context.prototype, name, context.name + '.' + name);
        for (const owner of [HTMLCanvasElement, OffscreenCanvas]) {
          for (const name of ['width', 'height']) {
            spy(owner.prototype, name, owner.name + '.' + name + ' getter', 'get');
            spy(owner.prototype, name, owner.name + '.' + name + ' setter', 'set');
          }
          spy(owner.prototype, 'getContext', owner.name + '.getContext');
        }
        spy(Document.prototype, 'createElement', 'document.createElement');
        spy(Object, 'assign', 'Object.assign');
        spy(Math, 'min', 'Math.min');
        spy(Math, 'imul', 'Math.imul');
        spy(WeakSet.prototype, 'has', 'WeakSet.has');
        spy(WeakMap.prototype, 'get', 'WeakMap.get');
        spy(String.prototype, 'split', 'String.split');
        spy(ImageData.prototype, 'data', 'ImageData.data getter', 'get');
        const typed = Object.getPrototypeOf(Uint8Array.prototype);
        spy(typed, 'buffer', 'TypedArray.buffer', 'get');
        spy(typed, 'byteOffset', 'TypedArray.byteOffset', 'get');
        spy(typed, 'length', 'TypedArray.length', 'get');
        spy(Array.prototype, Symbol.iterator, 'Array iterator');
        canvas.toDataURL();
        await new Promise((resolve) => canvas.toBlob(resolve));
        await offscreen.convertToBlob();
        const pixels = new Uint8Array(16);
        gl.readPixels(0, 0, 2, 2, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
        rendered.getChannelData(0);
        rendered.copyFromChannel(new Float32Array(441), 0);
        Function.prototype.toString.call(HTMLCanvasElement.prototype.toDataURL);
        try { HTMLCanvasElement.prototype.toDataURL.call({}); } catch {}
        const during = fired.length;
        // The page's own call: the spies work.
        canvas.getContext('2d');
        return { during: fired.slice(0, during), own: fired.length - during };
      })()`,
    );
    expect(spied).toEqual({ during: [], own: 1 });
  });

  // A benchmark, not a timed assertion: it prints each route's figure beside the bare browser's, taken in turns.
  it('reads back a 1000×1000 canvas by each route, timed beside a bare browser', async () => {
    const routes = {
      getImageData: `canvas.getContext('2d').getImageData(0, 0, 1000, 1000)`,
      toDataURL: 'canvas.toDataURL()',
    };
    for (const [route, read] of Object.entries(routes)) {
      const timed = `(() => { const canvas = draw(1000, 1000); const start = performance.now(); ${read}; return performance.now() - start; })()`;
      const times: { profile: number[]; bare: number[] } = { profile: [], bare: [] };
      // Two rounds first, on each side, that count for nothing: the engine compiles what the read runs.
      for (let round = -2; round < 7; round += 1) {
        const bare = await evaluate<number>('bare', timed);
        const withNoise = await evaluate<number>('profile', timed);
        if (round < 0) continue;
        times.bare.push(bare);
        times.profile.push(withNoise);
      }
      const [withNoise, without] = [median(times.profile), median(times.bare)];
      console.info(
        `1000×1000 ${route}: ${withNoise.toFixed(1)} ms with the profile's noise, ${without.toFixed(1)} ms bare (×${(withNoise / without).toFixed(2)}, medians of 7)`,
      );
    }
  });
});
