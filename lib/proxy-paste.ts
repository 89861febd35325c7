import type { ProxyPasteResult } from './api/schemas/proxy-paste';
import { t } from './i18n';

/** Lines sent in one request: a paste of 500 is five, each a step of the progress shown. */
export const PASTE_CHUNK = 100;

/** A pasted line that is not blank, by its number in the box. */
export interface PastedLine {
  line: number;
  text: string;
}

/** What a paste did so far: proxies saved, lines that were saved already, lines refused with why. */
export interface PasteTally {
  added: number;
  known: number;
  refused: (PastedLine & { reason: string })[];
}

/** The box's lines that are not blank, numbered as the person sees them, in parts of PASTE_CHUNK. */
export function pasteParts(text: string): PastedLine[][] {
  const lines = text
    .split(/\r?\n/)
    .flatMap((line, index) => (line.trim() ? [{ line: index + 1, text: line }] : []));
  const parts: PastedLine[][] = [];
  for (let start = 0; start < lines.length; start += PASTE_CHUNK)
    parts.push(lines.slice(start, start + PASTE_CHUNK));
  return parts;
}

/** The tally with a part's answer added, or with the part refused whole (`reason`: the request failed). */
export function addToTally(
  tally: PasteTally,
  part: PastedLine[],
  answer: ProxyPasteResult | string,
): PasteTally {
  if (typeof answer === 'string')
    return { ...tally, refused: [...tally.refused, ...part.map((line) => ({ ...line, reason: answer }))] };
  const refused = part.flatMap((line, index) => {
    const item = answer.items[index];
    return item?.ok ? [] : [{ ...line, reason: item?.problem?.detail ?? '' }];
  });
  return {
    added: tally.added + answer.added,
    known: tally.known + answer.known,
    refused: [...tally.refused, ...refused],
  };
}

/** "500 added, 3 already saved, 2 refused: lines 17 and 230", then why each refused line was (the first ten). */
export function pasteSummary({ added, known, refused }: PasteTally): string {
  const lines = new Intl.ListFormat('en').format(refused.map(({ line }) => String(line)));
  const total =
    t('pastedTotal', added, known, refused.length) + (refused.length ? `: ${t('pastedLines', lines)}` : '');
  return [
    `${total}.`,
    ...refused
      .slice(0, 10)
      .map(({ line, reason }) => t('pastedLineRefused', line, reason.replace(/\.$/, ''))),
  ].join('\n');
}
