import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { Field } from '../components/Field';
import { mayCall } from '../lib/api/permissions';
import type { Role } from '../lib/api/roles';
import {
  type CreatedDashboardKey,
  CreateKeyInput,
  type DashboardKey,
  MAX_KEY_LIFETIME_DAYS,
} from '../lib/dashboard/schemas';
import { call } from './api';
import { ListHead } from './ListHead';
import { Problem } from './Problem';
import { QuestionRow } from './RowBelow';
import { Secret } from './Secret';
import { grantable, SCOPE_HINT, scopeLabel, scopeOf } from './scope';
import { useForm } from './use-form';
import { useLoaded } from './use-loaded';
import { When } from './When';

const COLUMNS = ['Name', 'Role', 'Scope', 'Prefix', 'Created', 'Last used', 'Expires', 'State'];

/**
 * The workspace's keys (a member who is not an owner or admin: their own), each with the role and scope it acts
 * with; a form to create one, the member's own or an agent's with a role and a scope (shown once); and Revoke,
 * which asks first and warns when the extension uses the key.
 */
export function KeysPage({ myRole }: { myRole: Role }) {
  const { data, problem, setProblem, load } = useLoaded<{ data: DashboardKey[] }>('/keys');
  const keys = data?.data;
  const [created, setCreated] = useState<CreatedDashboardKey>();
  const [confirming, setConfirming] = useState<string>();
  const form = useForm({ name: '', role: '', scope: '', expires_in_days: '' }, CreateKeyInput);
  const makesAgents = mayCall(myRole, 'createKey');

  async function create(event: Event) {
    event.preventDefault();
    const done = await form.submit(
      ({ name, role: agentRole, scope, expires_in_days: days }) => ({
        name,
        ...(agentRole ? { role: agentRole, scope: scopeOf(scope) } : {}),
        expires_in_days: days.trim() === '' ? null : Number(days),
      }),
      async (body) => setCreated(await call<CreatedDashboardKey>('POST', '/keys', body)),
    );
    if (done) {
      form.reset();
      void load();
    }
  }

  async function revoke(key: DashboardKey) {
    setConfirming(undefined);
    await call('DELETE', `/keys/${encodeURIComponent(key.id)}`).then(load, (error: Error) =>
      setProblem(error.message),
    );
  }

  return (
    <section class="stack">
      <h1>API keys</h1>
      <p>
        Programs and the Profile Pilot extension use a key to act for your account: send it as{' '}
        <code>Authorization: Bearer &lt;key&gt;</code>.
      </p>
      {created && (
        <Secret
          title={`Your new key “${created.name}”`}
          secret={created.key}
          note="Copy it now: it will not be shown again. Only its prefix stays in the list."
          onDone={() => setCreated(undefined)}
        />
      )}
      <form class="stack panel" onSubmit={create} noValidate>
        <h2>Create key</h2>
        <div class="bar fields">
          <Field label="Name" hint="Say where it will be used." {...form.bind('name')} />
          {makesAgents && (
            <Field
              label="Acts as"
              as="select"
              hint="You, or an agent of its own with a role."
              {...form.bind('role')}
            >
              <option value="">You ({myRole})</option>
              {grantable(myRole).map((each) => (
                <option key={each} value={each}>
                  An agent: {each}
                </option>
              ))}
            </Field>
          )}
          {form.values.role && <Field label="Scope" hint={SCOPE_HINT} {...form.bind('scope')} />}
          <Field
            label="Expires after (days)"
            type="number"
            min={1}
            max={MAX_KEY_LIFETIME_DAYS}
            hint="Leave empty for a key that does not expire."
            {...form.bind('expires_in_days')}
          />
        </div>
        <Problem text={form.problem} />
        <button type="submit" disabled={form.busy}>
          Create key
        </button>
      </form>
      <Problem text={problem} />
      {keys?.length === 0 && <p>No keys yet: create one above.</p>}
      {keys && keys.length > 0 && (
        <table>
          <ListHead columns={COLUMNS} actions />
          <tbody>
            {keys.map((key) => (
              <Fragment key={key.id}>
                <tr>
                  <td data-label="Name">{key.name}</td>
                  <td data-label="Role">
                    {key.role}
                    {key.mine && <span class="muted"> (you)</span>}
                  </td>
                  <td data-label="Scope">{scopeLabel(key.scope)}</td>
                  <td data-label="Prefix">
                    <code>{key.prefix}…</code>
                  </td>
                  <td data-label="Created">
                    <When iso={key.created_at} />
                  </td>
                  <td data-label="Last used">
                    {key.last_used_at ? <When iso={key.last_used_at} /> : 'Never'}
                  </td>
                  <td data-label="Expires">{key.expires_at ? <When iso={key.expires_at} /> : 'Never'}</td>
                  <td data-label="State">
                    {key.revoked_at ? (
                      <>
                        Revoked <When iso={key.revoked_at} />
                      </>
                    ) : (
                      stateOf(key)
                    )}
                  </td>
                  <td>
                    {!key.revoked_at && (
                      <button
                        type="button"
                        class="danger"
                        aria-expanded={confirming === key.id}
                        onClick={() => setConfirming(confirming === key.id ? undefined : key.id)}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
                {confirming === key.id && (
                  <QuestionRow
                    columns={COLUMNS.length + 1}
                    question={
                      <>
                        Revoke “{key.name}”? Programs using it are refused at once.
                        {key.extension_used_at && (
                          <>
                            {' '}
                            <strong>
                              The Profile Pilot extension used this key <When iso={key.extension_used_at} />:
                              it is disconnected until it is given another key.
                            </strong>
                          </>
                        )}
                      </>
                    }
                    yes="Revoke key"
                    onYes={() => revoke(key)}
                    onCancel={() => setConfirming(undefined)}
                  />
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function stateOf(key: DashboardKey): string {
  if (key.expires_at && Date.parse(key.expires_at) <= Date.now()) return 'Expired';
  return 'Active';
}
