import { describe, expect, it } from 'vitest';
import { boundedText, MAX_TEXT_BYTES, shownText } from '../../../server/core/bounded-text';

describe('boundedText', () => {
  it('leaves a text within the bound as it is', () => {
    expect(boundedText('short')).toBe('short');
    expect(boundedText('é'.repeat(MAX_TEXT_BYTES / 2))).toBe('é'.repeat(MAX_TEXT_BYTES / 2));
  });

  it('cuts a longer one to the bound with a mark, never splitting a character', () => {
    for (const text of ['E'.repeat(30 * 2 ** 20), 'é'.repeat(5000), '😀'.repeat(2000)]) {
      const cut = boundedText(text);
      expect(cut.endsWith('… [cut]')).toBe(true);
      expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(MAX_TEXT_BYTES);
      expect(Buffer.byteLength(cut)).toBeGreaterThan(MAX_TEXT_BYTES - 16);
      expect(text.startsWith(cut.slice(0, -'… [cut]'.length))).toBe(true);
      expect(cut).not.toContain('\uFFFD');
    }
    expect(Buffer.byteLength(boundedText('x'.repeat(100), 50))).toBeLessThanOrEqual(50);
  });

  it('shows a title without bidirectional overrides, isolates, marks or control characters', () => {
    expect(shownText('Invoice \u202Efdp.exe\u202C \u2066x\u2069 \u200Fy\u001b[31mred\u0007\u009b')).toBe(
      'Invoice fdp.exe x y[31mred',
    );
    expect(shownText('Café — 東京 🛒')).toBe('Café — 東京 🛒');
  });
});
