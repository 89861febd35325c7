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
    const device = (css: number) => Math.round(css * pixel_ratio);
    args.push(
      `--screen-info={${device(width)}x${device(height)} devicePixelRatio=${pixel_ratio} colorDepth=${color_depth}` +
        ` workAreaRight=${device(width - avail_width)} workAreaBottom=${device(height - avail_height)}}`,
    );
  }
  return args;
}
