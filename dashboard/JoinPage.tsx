import { useEffect, useState } from 'preact/hooks';
import { type InvitationOffer, JoinInput } from '../lib/dashboard/workspace-schemas';
import { call } from './api';
import { NewPasswordField } from './fields';
import { Problem } from './Problem';
import { useForm } from './use-form';

/**
 * An invitation's link: which workspace, as whom and with which role; the person chooses a password and is a
 * member, signed in. A used, expired or unknown link is a sentence saying so, and Sign in instead.
 */
export function JoinPage({ token, onDone }: { token: string; onDone: () => void }) {
  const [offer, setOffer] = useState<InvitationOffer>();
  const [refused, setRefused] = useState<string>();
  const form = useForm({ password: '' }, JoinInput);
  useEffect(() => {
    call<InvitationOffer>('POST', '/invitation', { token }).then(setOffer, (error: Error) =>
      setRefused(error.message),
    );
  }, [token]);

  async function join(event: Event) {
    event.preventDefault();
    const done = await form.submit(
      ({ password }) => ({ token, password }),
      (body) => call('POST', '/join', body),
    );
    if (done) onDone();
  }

  return (
    <section class="stack">
      <h2>Join a workspace</h2>
      <Problem text={refused} />
      {refused && (
        <button type="button" class="link" onClick={onDone}>
          Sign in instead
        </button>
      )}
      {offer && (
        <form class="stack" onSubmit={join} noValidate>
          <p>
            You are invited to <strong>{offer.workspace}</strong> as {offer.role}. You will sign in as{' '}
            <strong>{offer.email}</strong>.
          </p>
          <NewPasswordField label="Choose a password" {...form.bind('password')} />
          <Problem text={form.problem} />
          <button type="submit" class="primary" disabled={form.busy}>
            Join
          </button>
        </form>
      )}
    </section>
  );
}
