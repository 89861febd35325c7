import { useEffect, useState } from 'preact/hooks';
import { Field } from '../components/Field';
import type { AuditRecord } from '../lib/api/schemas/leases';
import type { Member } from '../lib/api/schemas/workspace';
import { call } from './api';
import { ListHead } from './ListHead';
import { Problem } from './Problem';
import { usePages } from './use-loaded';
import { When } from './When';

interface Filter {
  profile_id: string;
  member: string;
  since: string;
}

/** The query of a filter: only what is filled in; `since` as the person's local time made exact. */
function queryOf(filter: Filter, cursor?: string): string {
  const query = new URLSearchParams({ limit: '50' });
  if (filter.profile_id.trim()) query.set('profile_id', filter.profile_id.trim());
  if (filter.member) query.set('member', filter.member);
  if (filter.since) query.set('since', new Date(filter.since).toISOString());
  if (cursor) query.set('cursor', cursor);
  return query.toString();
}

/** What an act was about, in a line: its fields but empty ones. */
const detailOf = (detail: Record<string, unknown>) =>
  Object.entries(detail)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' · ');

/**
 * The workspace's audit log, newest first: who did what to which profile, and when; narrowed to a profile, a
 * member or key, and a time on; 50 at a time, with Older for the next.
 */
export function AuditPage() {
  const [filter, setFilter] = useState<Filter>({ profile_id: '', member: '', since: '' });
  const {
    items: records,
    next,
    problem,
    load,
  } = usePages<AuditRecord>((cursor) => `/audit?${queryOf(filter, cursor)}`);
  const [members, setMembers] = useState<Member[]>([]);
  useEffect(() => {
    call<{ data: Member[] }>('GET', '/members').then(
      ({ data }) => setMembers(data),
      () => {},
    );
  }, []);
  const bind = (name: keyof Filter) => ({
    value: filter[name],
    onInput: (event: Event) =>
      setFilter({ ...filter, [name]: (event.currentTarget as HTMLInputElement).value }),
  });

  return (
    <section class="stack">
      <h1>Audit log</h1>
      <form
        class="bar fields panel"
        onSubmit={(event) => {
          event.preventDefault();
          void load();
        }}
      >
        <Field label="Profile id" placeholder="prf_…" {...bind('profile_id')} />
        <Field label="Member" as="select" {...bind('member')}>
          <option value="">Everyone</option>
          {members.map((member) => (
            <option key={member.id} value={member.id}>
              {member.email ?? member.name}
            </option>
          ))}
        </Field>
        <Field label="Since" type="datetime-local" {...bind('since')} />
        <button type="submit">Show</button>
      </form>
      <Problem text={problem} />
      {records?.length === 0 && !problem && <p>Nothing recorded matches.</p>}
      {records && records.length > 0 && (
        <table>
          <ListHead columns={['When', 'Who', 'Act', 'Profile', 'Details']} />
          <tbody>
            {records.map((record) => (
              <tr key={record.id}>
                <td data-label="When">
                  <When iso={record.created_at} />
                </td>
                <td data-label="Who">{record.actor.name}</td>
                <td data-label="Act">{record.action}</td>
                <td data-label="Profile">{record.profile_id ?? '—'}</td>
                <td data-label="Details">{detailOf(record.detail)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {next && (
        <div class="bar">
          <button type="button" onClick={() => load(next)}>
            Older
          </button>
        </div>
      )}
    </section>
  );
}
