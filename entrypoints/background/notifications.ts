import { browser } from 'wxt/browser';
import type { AutomationRun } from '../../lib/api/schemas/automation';
import type { HelpRequest } from '../../lib/api/schemas/help-requests';
import type { Session } from '../../lib/api/schemas/sessions';
import { type MessageName, t } from '../../lib/i18n';
import { routes } from '../../lib/messaging/protocol';
import { outputsInStepOrder, runDuration } from '../../lib/run-reading';
import { preferences, type WatchedRun } from '../../lib/storage';
import { profileName } from './profiles';
import { openSettings, openView } from './views';

const SHOWN_OUTPUTS = 3;
const OUTPUT_CHARS = 40;

/**
 * Each notification's id is the popup route it opens, so that one about the same thing replaces the last
 * instead of piling up (a run's "started" by its "succeeded"), and a click knows where to go.
 */
async function show(route: string, title: string, message: string): Promise<void> {
  await browser.notifications.create(route, {
    type: 'basic',
    // Chrome requires an icon on every notification.
    iconUrl: browser.runtime.getURL('/icon/128.png'),
    title,
    message,
  });
}

/** A run ended (or was dropped): its name, how long it took, and its first outputs or its error. */
export async function announceRun({ run, phase, message }: WatchedRun): Promise<void> {
  if (!(await preferences.getValue()).notifyRuns) return;
  const name = run.name ?? t('runOnProfile', await profileName(run));
  if (phase === 'dropped') return show(routes.run(run.id), t('runDroppedTitle', name), message ?? '');
  const titles: Record<string, MessageName> = {
    succeeded: 'runSucceededTitle',
    failed: 'runFailedTitle',
    cancelled: 'runCancelledTitle',
  };
  const took = runDuration(run);
  const detail = run.status === 'succeeded' ? outputsOf(run) : (run.error ?? failedStepError(run));
  const lines = [took === null ? '' : t('runTook', took), detail].filter(Boolean);
  await show(routes.run(run.id), t(titles[run.status] ?? 'runFailedTitle', name), lines.join('\n'));
}

/** A session's browser exited without being asked to. */
export async function announceSessionExit(session: Session): Promise<void> {
  if (!(await preferences.getValue()).notifySessionExits) return;
  const name = await profileName(session);
  await show(
    routes.profile(session.profile_id),
    t('sessionExitedTitle', name),
    t('sessionExitedMessage', name),
  );
}

/** A request's notification id: a click on it opens Take over. */
const REQUEST_NOTICE = 'help:';

/** "Shop 12 needs you: enter the 2FA code", and the question. */
export function announceRequest(request: HelpRequest): Promise<void> {
  const name = request.profile_name || request.profile_id;
  return show(
    `${REQUEST_NOTICE}${request.id}`,
    t('requestTitle', name, request.reason),
    request.question ?? t('requestClickToTakeOver'),
  );
}

export async function withdrawRequest(requestId: string): Promise<void> {
  await browser.notifications.clear(`${REQUEST_NOTICE}${requestId}`);
}

/** The outcome of a keyboard shortcut, which has no other place to show it. */
export function showFeedback(route: string, message: string): Promise<void> {
  return show(route, t('extName'), message);
}

/** Opens what a clicked notification was about: a request's live view, or its view (a run's counts as seen). */
export async function openFromNotification(
  id: string,
  markSeen: (runId: string) => Promise<void>,
  takeOver: (requestId: string) => Promise<boolean>,
): Promise<void> {
  await browser.notifications.clear(id);
  if (id.startsWith(REQUEST_NOTICE)) {
    if (!(await takeOver(id.slice(REQUEST_NOTICE.length)))) await openView(routes.requests);
    return;
  }
  if (id === routes.settings) return openSettings();
  const runId = /^#\/runs\/(.+)$/.exec(id)?.[1];
  if (runId) await markSeen(decodeURIComponent(runId));
  await openView(id);
}

function outputsOf(run: AutomationRun): string {
  const shown = outputsInStepOrder(run)
    .slice(0, SHOWN_OUTPUTS)
    .map(([key, value]) => `${key}: ${clip(typeof value === 'string' ? value : JSON.stringify(value))}`);
  return shown.length > 0 ? shown.join(' · ') : t('runNoOutput');
}

function failedStepError(run: AutomationRun): string {
  return run.steps.find((step) => step.status === 'failed')?.error ?? '';
}

function clip(text: string): string {
  return text.length > OUTPUT_CHARS ? `${text.slice(0, OUTPUT_CHARS - 1)}…` : text;
}
