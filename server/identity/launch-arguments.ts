import type { PresentedIdentity } from './presented';

/**
 * Command-line switches that carry the identity into every scope at once (pages, frames, every kind of worker,
 * request headers), appended after the others so that they win. A headless browser's screen is the one
 * `--screen-info` describes, in device pixels; a headed one shows the display it runs on.
 */
export function identityArguments(presented: PresentedIdentity, headless: boolean): string[] {
  const args: string[] = [];
  if (presented.languages) args.push(`--accept-lang=${presented.languages.join(',')}`);
  if (headless) {
    const { width, height, avail_width, avail_height, pixel_ratio, color_depth } = presented.screen;
    const device = (css: number) => deviceSize(css, pixel_ratio);
    args.push(
      `--screen-info={${device(width)}x${device(height)} devicePixelRatio=${pixel_ratio} colorDepth=${color_depth}` +
        ` workAreaRight=${device(width - avail_width)} workAreaBottom=${device(height - avail_height)}}`,
    );
  }
  return args;
}

/** The slack Chromium allows a fractional scale before it rounds a size up (`kDisplaySizeAllowanceEpsilon`). */
const SIZE_ALLOWANCE = 0.01;

/**
 * The device pixels that Chromium shows as exactly `css` CSS pixels: it divides by the ratio and rounds up (the
 * screen and the work area's insets alike), so a size rounded to the nearest pixel showed one CSS pixel more
 * whenever `css × ratio` fell on a half (1050 at 1.25 became 1313, shown as 1051). The largest size that does
 * not round past `css` does not.
 */
export function deviceSize(css: number, pixelRatio: number): number {
  return Math.floor((css + SIZE_ALLOWANCE) * pixelRatio);
}
