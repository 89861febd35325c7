/**
 * Store images made from the real popup: a capture of the popup page, set in a 1280×800 screenshot with a
 * line of text beside it, and a 440×280 promo tile with the extension's icon. The frames are plain HTML drawn
 * by the same Chromium; only the popup capture shows the product, and it is what the extension really drew.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { PROJECT_ROOT } from '../../../server/core/config';

export const SCREENSHOT_SIZE = { width: 1280, height: 800 };
export const TILE_SIZE = { width: 440, height: 280 };
const ICON = `data:image/png;base64,${readFileSync(path.join(PROJECT_ROOT, 'public/icon/128.png')).toString('base64')}`;
const STYLE = `
  * { box-sizing: border-box; }
  body { margin: 0; font-family: system-ui, sans-serif; color: #fff; overflow: hidden;
         background: linear-gradient(135deg, #0b5d2a, #188038 55%, #1a73e8); }
  h1 { margin: 0 0 16px; font-size: 44px; line-height: 1.15; }
  p { margin: 0; font-size: 22px; line-height: 1.45; opacity: .92; }
`;

/** The popup page as the person sees it now, as a PNG: as tall as its content, up to the popup's size. */
export async function capturePopup(popup: Page): Promise<Buffer> {
  const size = popup.viewportSize();
  if (!size) throw new Error('the popup page has no viewport size');
  const height = Math.min(await popup.evaluate(() => document.body.scrollHeight), size.height);
  return popup.screenshot({
    clip: { x: 0, y: 0, width: size.width, height },
    animations: 'disabled',
    caret: 'hide',
  });
}

/** A 1280×800 store screenshot: the popup capture on the right, a heading and a sentence on the left. */
export async function storeScreenshot(
  context: BrowserContext,
  popupPng: Buffer,
  heading: string,
  sentence: string,
): Promise<Buffer> {
  return render(
    context,
    SCREENSHOT_SIZE,
    `<style>${STYLE}
      main { display: flex; align-items: center; gap: 72px; height: 100vh; padding: 0 96px; }
      section { flex: 1; }
      img.popup { border-radius: 12px; box-shadow: 0 24px 64px rgba(0,0,0,.35); background: #fff; }
      img.icon { width: 64px; height: 64px; margin-bottom: 24px; }
    </style>
    <main>
      <section><img class="icon" src="${ICON}" alt=""><h1>${htmlText(heading)}</h1><p>${htmlText(sentence)}</p></section>
      <img class="popup" src="data:image/png;base64,${popupPng.toString('base64')}" alt="">
    </main>`,
  );
}

/** The 440×280 promo tile: icon, name and what it does. */
export function promoTile(context: BrowserContext, name: string, tagline: string): Promise<Buffer> {
  return render(
    context,
    TILE_SIZE,
    `<style>${STYLE}
      main { display: flex; flex-direction: column; justify-content: center; height: 100vh; padding: 0 36px; }
      img { width: 72px; height: 72px; margin-bottom: 16px; }
      h1 { font-size: 34px; margin-bottom: 8px; }
      p { font-size: 17px; }
    </style>
    <main><img src="${ICON}" alt=""><h1>${htmlText(name)}</h1><p>${htmlText(tagline)}</p></main>`,
  );
}

/** Writes `png` as `<folder>/<name>.png`. */
export function saveImage(folder: string, name: string, png: Buffer): string {
  const file = path.join(folder, `${name}.png`);
  writeFileSync(file, png);
  return file;
}

/** Width and height from a PNG's header. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

async function render(
  context: BrowserContext,
  size: { width: number; height: number },
  html: string,
): Promise<Buffer> {
  const page = await context.newPage();
  try {
    await page.setViewportSize(size);
    await page.setContent(`<!doctype html><html lang="en">${html}</html>`);
    await page.evaluate(() => document.fonts.ready);
    return await page.screenshot();
  } finally {
    await page.close();
  }
}

function htmlText(text: string): string {
  return text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
}
