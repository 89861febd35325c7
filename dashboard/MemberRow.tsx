import { useState } from 'preact/hooks';
import type { Role } from '../lib/api/roles';
import type { Member } from '../lib/api/schemas/workspace';
import { MemberChangeInput } from '../lib/dashboard/workspace-schemas';
import { call } from './api';
import { RoleScopeFields } from './fields';
import { Problem } from './Problem';
import { QuestionRow, RowBelow } from './RowBelow';
import { scopeLabel, scopeOf, scopeText } from './scope';
import { useForm } from './use-form';
import { When } from './When';

export const COLUMNS = ['Name', 'Role', 'Scope', 'Since'];

/**
 * One member: name, role, scope and since when; for an owner or admin, Change (role and scope, in a row of its
 * own) and Remove, which asks first and says what happens.
 */
export function MemberRow(props: { member: Member; myRole: Role; manages: boolean; onChanged: () => void }) {
  const { member, myRole, manages } = props;
  const [open, setOpen] = useState<'change' | 'remove'>();
  const [problem, setProblem] = useState<string>();
  const form = useForm({ role: member.role as string, scope: scopeText(member.scope) }, MemberChangeInput);
  const toggle = (next: 'change' | 'remove') => setOpen(open === next ? undefined : next);

  async function change(event: Event) {
    event.preventDefault();
    const done = await form.submit(
      ({ role: newRole, scope }) => ({ role: newRole, scope: scopeOf(scope) }),
      (body) => call('PATCH', `/members/${encodeURIComponent(member.id)}`, body),
    );
    if (done) {
      setOpen(undefined);
      props.onChanged();
    }
  }

  const remove = () =>
    call('DELETE', `/members/${encodeURIComponent(member.id)}`).then(props.onChanged, (error: Error) =>
      setProblem(error.message),
    );

  return (
    <>
      <tr>
        <td data-label="Name">
          {member.email ?? member.name}
          {member.email === null && <span class="muted"> (agent)</span>}
        </td>
        <td data-label="Role">{member.role}</td>
        <td data-label="Scope">{scopeLabel(member.scope)}</td>
        <td data-label="Since">
          <When iso={member.created_at} />
        </td>
        <td>
          {manages && (
            <div class="bar">
              <button type="button" aria-expanded={open === 'change'} onClick={() => toggle('change')}>
                Change
              </button>
              <button
                type="button"
                class="danger"
                aria-expanded={open === 'remove'}
                onClick={() => toggle('remove')}
              >
                Remove
              </button>
            </div>
          )}
        </td>
      </tr>
      {open === 'change' && (
        <RowBelow columns={COLUMNS.length + 1}>
          <form class="stack confirm" onSubmit={change} noValidate>
            <div class="bar fields">
              <RoleScopeFields myRole={myRole} bind={form.bind} changing />
            </div>
            <Problem text={form.problem} />
            <div class="bar">
              <button type="submit" disabled={form.busy}>
                Save
              </button>
              <button type="button" onClick={() => setOpen(undefined)}>
                Cancel
              </button>
            </div>
          </form>
        </RowBelow>
      )}
      {open === 'remove' && (
        <QuestionRow
          columns={COLUMNS.length + 1}
          question={
            <>
              Remove “{member.email ?? member.name}”? Their keys stop working at once and they are signed out
              of the dashboard. Profiles they have open are released: each session stops and its browser data
              is saved.
            </>
          }
          yes="Remove member"
          problem={problem}
          onYes={remove}
          onCancel={() => setOpen(undefined)}
        />
      )}
    </>
  );
}
