import type { Dialog, Page } from 'playwright-core';
import { PageProblem } from '../core/domain-errors';

/** The most of a dialog's message an answer carries: the page writes it. */
const MAX_MESSAGE_CHARS = 1_000;

/*
 * The dialogs (alert, confirm, prompt, beforeunload) of the agent's tabs wait for the agent: none is dismissed
 * behind its back, and while one is open every answer says so, since the page can do nothing else until then.
 */

const open = new WeakMap<Page, Dialog>();

/** From now on, a dialog of this tab stays open until browser_handle_dialog answers it. */
export function watchDialogs(page: Page): void {
  page.on('dialog', (dialog) => open.set(page, dialog));
}

export function openDialog(page: Page): Dialog | undefined {
  return open.get(page);
}

/** The open dialog in a line: its kind and its message, cut. */
export function dialogLine(dialog: Dialog): string {
  const message = dialog.message();
  const cut = message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}…` : message;
  const kind = dialog.type();
  return `${kind === 'alert' ? 'An' : 'A'} ${kind} dialog is open: ${JSON.stringify(cut)}. Answer it with browser_handle_dialog.`;
}

export function refuseWhileOpen(page: Page): void {
  const dialog = open.get(page);
  if (dialog) throw new PageProblem(`${dialogLine(dialog)} The page does nothing else until then.`);
}

/** Accepts (with a prompt's text) or dismisses the open dialog; answers the sentence of what was done. */
export async function answerDialog(page: Page, accept: boolean, promptText?: string): Promise<string> {
  const dialog = open.get(page);
  if (!dialog) throw new PageProblem('No dialog is open in the agent’s tab.');
  open.delete(page);
  if (accept) await dialog.accept(promptText);
  else await dialog.dismiss();
  return `${accept ? 'Accepted' : 'Dismissed'} the ${dialog.type()} dialog.`;
}

/**
 * Runs an action that a dialog may interrupt: once one opens, the page waits for it, so the action cannot end
 * before it is answered. The action's answer, or `whenOpened` as soon as a dialog opens (the action goes on,
 * and ends once the dialog is answered).
 */
export async function unlessDialogOpens<T>(
  page: Page,
  action: Promise<T>,
  whenOpened: () => Promise<T>,
): Promise<T> {
  let listener: (() => void) | undefined;
  const opened = new Promise<'opened'>((resolve) => {
    listener = () => resolve('opened');
    page.once('dialog', listener);
  });
  try {
    const first = await Promise.race([action, opened]);
    if (first !== 'opened') return first as T;
    action.catch(() => {});
    return await whenOpened();
  } finally {
    if (listener) page.off('dialog', listener);
  }
}
