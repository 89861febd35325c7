import { useState } from 'preact/hooks';
import { Field } from '../components/Field';
import { mayCall } from '../lib/api/permissions';
import type { Role } from '../lib/api/roles';
import type { Member } from '../lib/api/schemas/workspace';
import { type Invitation, InviteInput } from '../lib/dashboard/workspace-schemas';
import { call } from './api';
import { RoleScopeFields } from './fields';
import { ListHead } from './ListHead';
import { COLUMNS, MemberRow } from './MemberRow';
import { Problem } from './Problem';
import { Secret } from './Secret';
import { scopeOf } from './scope';
import { useForm } from './use-form';
import { useLoaded } from './use-loaded';

/**
 * The workspace's people and agents, with their role and scope. Owners and admins invite people (the one-time
 * link is shown once), change a member's role or scope, and remove a member after a question saying what happens.
 */
export function MembersPage({ myRole }: { myRole: Role }) {
  const { data, problem, load } = useLoaded<{ data: Member[] }>('/members');
  const [invitation, setInvitation] = useState<Invitation>();
  const form = useForm({ email: '', role: 'runner', scope: '' }, InviteInput);
  const manages = mayCall(myRole, 'inviteMember');

  async function invite(event: Event) {
    event.preventDefault();
    const done = await form.submit(
      ({ scope, ...rest }) => ({ ...rest, scope: scopeOf(scope) }),
      async (body) => setInvitation(await call<Invitation>('POST', '/members/invitations', body)),
    );
    if (done) form.reset();
  }

  return (
    <section class="stack">
      <h1>Members</h1>
      <p>
        People sign in here; agents are their keys. Each has a role and sees every profile or only those with
        some tags.
      </p>
      {invitation && (
        <Secret
          title={`Invitation for ${invitation.email}`}
          secret={invitation.url}
          note="Send this link to them: it works once, for 7 days. It will not be shown again."
          onDone={() => setInvitation(undefined)}
        />
      )}
      {manages && (
        <form class="stack panel" onSubmit={invite} noValidate>
          <h2>Invite a person</h2>
          <div class="bar fields">
            <Field label="Email" type="email" {...form.bind('email')} />
            <RoleScopeFields myRole={myRole} bind={form.bind} />
          </div>
          <Problem text={form.problem} />
          <button type="submit" disabled={form.busy}>
            Invite
          </button>
        </form>
      )}
      <Problem text={problem} />
      {data && (
        <table>
          <ListHead columns={COLUMNS} actions />
          <tbody>
            {data.data.map((member) => (
              <MemberRow key={member.id} member={member} myRole={myRole} manages={manages} onChanged={load} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
