import { useState } from 'preact/hooks';
import { Field } from '../components/Field';
import { ChangePasswordInput, DeleteAccountInput } from '../lib/dashboard/schemas';
import { call } from './api';
import { NewPasswordField } from './fields';
import { Problem } from './Problem';
import { useForm } from './use-form';

/**
 * Change the password, or for an account made on the command line (signed in by a link) set the email and
 * password it will sign in with; delete the account (asks first, with the password).
 */
export function AccountPage(props: {
  hasPassword: boolean;
  onPasswordSet: () => void;
  onDeleted: () => void;
}) {
  const { hasPassword, onDeleted } = props;
  const passwords = useForm({ current_password: '', email: '', new_password: '' }, ChangePasswordInput);
  const deletion = useForm({ password: '' }, DeleteAccountInput);
  const [changed, setChanged] = useState(false);
  const [confirming, setConfirming] = useState(false);

  async function changePassword(event: Event) {
    event.preventDefault();
    setChanged(false);
    const done = await passwords.submit(
      ({ current_password, email, new_password }) =>
        hasPassword ? { current_password, new_password } : { email, new_password },
      (body) => call('PUT', '/password', body),
    );
    if (done) {
      passwords.reset();
      setChanged(true);
      if (!hasPassword) props.onPasswordSet();
    }
  }

  async function deleteAccount(event: Event) {
    event.preventDefault();
    const done = await deletion.submit(
      (values) => values,
      (body) => call('DELETE', '/account', body),
    );
    if (done) onDeleted();
  }

  return (
    <section class="stack">
      <h1>Account</h1>
      <form class="stack panel" onSubmit={changePassword} noValidate>
        <h2>{hasPassword ? 'Change password' : 'Set a password'}</h2>
        {hasPassword ? (
          <Field
            label="Current password"
            type="password"
            autocomplete="current-password"
            {...passwords.bind('current_password')}
          />
        ) : (
          <>
            <p>This account was made on the command line: choose the email and password to sign in with.</p>
            <Field label="Email" type="email" autocomplete="email" {...passwords.bind('email')} />
          </>
        )}
        <NewPasswordField label="New password" {...passwords.bind('new_password')} />
        <Problem text={passwords.problem} />
        {changed && (
          <p role="status" class="ok">
            Your password was changed; other browsers signed in to this account were signed out.
          </p>
        )}
        <button type="submit" disabled={passwords.busy}>
          {hasPassword ? 'Change password' : 'Set password'}
        </button>
      </form>
      <section class="stack panel">
        <h2>Delete account</h2>
        <p>
          Deletes the account for good, with its keys, profiles (and their browser data), proxies, automation
          runs and their screenshots; its running sessions are stopped.
        </p>
        {confirming ? (
          <form class="stack confirm" onSubmit={deleteAccount} noValidate>
            <p>
              <strong>This cannot be undone.</strong> Enter your password to confirm.
            </p>
            <Field
              label="Password"
              type="password"
              autocomplete="current-password"
              {...deletion.bind('password')}
            />
            <Problem text={deletion.problem} />
            <div class="bar">
              <button type="submit" class="danger" disabled={deletion.busy}>
                Delete my account
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </div>
          </form>
        ) : (
          <div class="bar">
            <button type="button" class="danger" onClick={() => setConfirming(true)}>
              Delete account
            </button>
          </div>
        )}
      </section>
    </section>
  );
}
