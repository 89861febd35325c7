/**
 * What of a form's fields may be kept in session storage while the popup is closed: never a secret (a password,
 * a key, a pasted list of proxies), and never the password inside a URL. What was typed into a secret field is
 * remembered only as the field's name, so that the form can ask for it again instead of saving without it.
 */

/** The draft entry that names the secret fields that held something when the draft was kept. */
const TYPED_SECRETS = '#secretsTyped';

// `scheme://user:password@` → `scheme://user@`: the user name stays, the password goes.
const URL_WITH_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^:@/\s"]*):[^@/\s"]*@/gi;
// A URL still being typed, `scheme://user:pass` before its `@`: what follows the colon is not a port, so cut it.
const URL_PASSWORD_BEING_TYPED = /([a-z][a-z0-9+.-]*:\/\/[^:@/\s"]*):(?=[^@/\s"]*[^\d@/\s"])[^@/\s"]*$/gi;

/** The text without any password written into a URL. (A password of digits alone, half typed, reads as a port.) */
export function withoutUrlPasswords(text: string): string {
  return text.replace(URL_WITH_PASSWORD, '$1@').replace(URL_PASSWORD_BEING_TYPED, '$1');
}

/** The fields to keep: secrets left out (their names noted if they held something), passwords cut out of URLs. */
export function keepable(fields: Record<string, string>, secrets: readonly string[]): Record<string, string> {
  const kept: Record<string, string> = {};
  const typed: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (secrets.includes(name)) {
      if (value) typed.push(name);
    } else if (name !== TYPED_SECRETS) kept[name] = withoutUrlPasswords(value);
  }
  if (typed.length) kept[TYPED_SECRETS] = typed.join(',');
  return kept;
}

/** A kept draft split into its fields and the secret fields that must be typed again. */
export function restore(kept: Record<string, string>): { fields: Record<string, string>; lost: string[] } {
  const { [TYPED_SECRETS]: typed, ...fields } = kept;
  return { fields, lost: typed ? typed.split(',') : [] };
}
