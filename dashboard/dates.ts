const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A timestamp of the service in the reader's own time zone and language. */
export function when(iso: string): string {
  return format.format(new Date(iso));
}
