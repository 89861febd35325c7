import { useState } from 'preact/hooks';
import { Field } from '../components/Field';
import { MIN_PASSWORD_LENGTH, SignInInput, SignUpInput } from '../lib/dashboard/schemas';
import { call } from './api';
import { Problem } from './Problem';
import { useForm } from './use-form';

/** Sign up (an account on the Free plan) or sign in, with the same two fields. */
export function SignIn({ signup, onSignedIn }: { signup: 'open' | 'closed'; onSignedIn: () => void }) {
  const [mode, setMode] = useState<'sign-up' | 'sign-in'>(signup === 'open' ? 'sign-up' : 'sign-in');
  const signingUp = mode === 'sign-up';
  const form = useForm({ email: '', password: '' }, signingUp ? SignUpInput : SignInInput);
  const action = signingUp ? 'Sign up' : 'Sign in';

  async function send(event: Event) {
    event.preventDefault();
    const done = await form.submit(
      (values) => values,
      (body) => call('POST', `/${mode}`, body),
    );
    if (done) onSignedIn();
  }

  return (
    <section class="stack">
      <h2>{action}</h2>
      {signingUp && signup === 'closed' ? (
        <p role="status">
          Sign-up is closed on this service: ask its operator for an account and an API key.
        </p>
      ) : (
        <form class="stack" onSubmit={send} noValidate>
          {signingUp && (
            <p>Sign up for an account on the Free plan (100 requests an hour), then create an API key.</p>
          )}
          <Field label="Email" type="email" autocomplete="email" {...form.bind('email')} />
          <Field
            label="Password"
            type="password"
            autocomplete={signingUp ? 'new-password' : 'current-password'}
            hint={signingUp ? `At least ${MIN_PASSWORD_LENGTH} characters.` : undefined}
            {...form.bind('password')}
          />
          <Problem text={form.problem} />
          <button type="submit" disabled={form.busy}>
            {action}
          </button>
        </form>
      )}
      <p>
        {signingUp ? 'Already have an account? ' : 'New here? '}
        <button type="button" class="link" onClick={() => setMode(signingUp ? 'sign-in' : 'sign-up')}>
          {signingUp ? 'Sign in instead' : 'Sign up instead'}
        </button>
      </p>
    </section>
  );
}
