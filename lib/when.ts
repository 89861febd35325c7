/** Times as people read them: how long ago (or from now), and the exact moment for a tooltip. */

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "5 minutes ago", "yesterday", "in 3 days", "now": `iso` from `now`, in the reader's language. */
export function fromNow(iso: string, now = Date.now()): string {
  const apart = Date.parse(iso) - now;
  const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  for (const [unit, ms] of UNITS) {
    if (Math.abs(apart) >= ms) return relative.format(Math.round(apart / ms), unit);
  }
  return relative.format(0, 'second');
}

/** The exact moment, in the reader's time zone and language. */
export function exactly(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** The time of day, as a clock shows it: "10:32". */
export function clockTime(iso: string): string {
  return new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}
