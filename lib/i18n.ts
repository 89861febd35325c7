import { browser } from 'wxt/browser';

/** A key of public/_locales/en/messages.json (typed by `wxt prepare`). */
export type MessageName = Parameters<typeof browser.i18n.getMessage>[0];

/** The text of a message in the browser's language, with `$1`… filled in. */
export function t(name: MessageName, ...substitutions: (string | number)[]): string {
  return browser.i18n.getMessage(name, substitutions.map(String));
}
