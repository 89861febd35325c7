import { Field } from '../components/Field';
import type { Role } from '../lib/api/roles';
import { MIN_PASSWORD_LENGTH } from '../lib/dashboard/schemas';
import { grantable, SCOPE_HINT } from './scope';

/** What `useForm`'s bind gives a field: its value, its input handler and its error. */
type Bound = { value: string; onInput: (event: Event) => void; error: string | undefined };

/** A password being chosen, with the least length it needs. */
export function NewPasswordField({ label, ...bound }: { label: string } & Bound) {
  return (
    <Field
      label={label}
      type="password"
      autocomplete="new-password"
      hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
      {...bound}
    />
  );
}

/** A member's role (one the person may grant) and scope; `New role` and `New scope` when `changing`. */
export function RoleScopeFields(props: {
  myRole: Role;
  bind: (field: 'role' | 'scope') => Bound;
  changing?: boolean;
}) {
  const [role, scope] = props.changing ? ['New role', 'New scope'] : ['Role', 'Scope'];
  return (
    <>
      <Field label={role} as="select" {...props.bind('role')}>
        {grantable(props.myRole).map((each) => (
          <option key={each}>{each}</option>
        ))}
      </Field>
      <Field label={scope} hint={SCOPE_HINT} {...props.bind('scope')} />
    </>
  );
}
