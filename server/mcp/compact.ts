import type { Profile } from '../../lib/api/schemas/profiles';
import type { ProxyConfig } from '../../lib/api/schemas/proxies';
import type { Session } from '../../lib/api/schemas/sessions';
import { z } from '../../lib/api/zod';
import type { ToolAnswer } from './tool-kit';

/*
 * What an agent reads of a list: one short line per item and where the next page starts. The whole objects (a
 * profile's identity alone is a few KB) come from get_profile, or from a list asked for with detail: true.
 */

const when = (timestamp: string) => `${timestamp.slice(0, 16).replace('T', ' ')} UTC`;

export function profileLine(profile: Profile): string {
  const parts = [
    profile.id,
    JSON.stringify(profile.name),
    profile.session_id ? `running in ${profile.session_id}` : 'idle',
  ];
  if (profile.tags.length > 0) parts.push(profile.tags.map((tag) => `#${tag}`).join(' '));
  if (profile.proxy_id) parts.push(`proxy ${profile.proxy_id}`);
  else if (profile.proxy) parts.push(`proxy ${profile.proxy}`);
  parts.push(profile.last_used_at ? `used ${when(profile.last_used_at)}` : 'never used');
  return parts.join(' · ');
}

export function proxyLine(proxy: ProxyConfig): string {
  const check = proxy.last_check;
  const health = check
    ? `${check.ok ? 'works' : 'fails'} (checked ${when(check.checked_at)})`
    : 'never checked';
  return [proxy.id, JSON.stringify(proxy.name), proxy.url, `used by ${proxy.used_by}`, health].join(' · ');
}

export function sessionLine(session: Session): string {
  const parts = [session.id, session.status, `profile ${session.profile_id}`];
  if (session.profile_name) parts.push(JSON.stringify(session.profile_name));
  parts.push(
    session.stopped_at
      ? `stopped ${when(session.stopped_at)} (${session.stop_reason ?? 'unknown'})`
      : `started ${when(session.started_at)}`,
  );
  return parts.join(' · ');
}

/** A page as lines under a heading that counts them, with the cursor of the next page when there is one. */
export function linesAnswer<T>(
  noun: string,
  page: { data: T[]; next_cursor: string | null },
  line: (item: T) => string,
  total?: number,
): ToolAnswer {
  const counted = total === undefined ? `${page.data.length}` : `${page.data.length} of ${total}`;
  const next = page.next_cursor
    ? `More: call again with cursor "${page.next_cursor}".`
    : 'This is the last page.';
  const text = [`${counted} ${noun}. ${next}`, ...page.data.map(line)].join('\n');
  return { content: [{ type: 'text', text }] };
}

/** A list tool's switch to whole objects. */
export const Detail = z.optional(z.boolean());
