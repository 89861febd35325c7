import { useState } from 'preact/hooks';
import { check } from '../components/form';
import type { FieldError } from '../lib/api/schemas/problem';
import type { z } from '../lib/api/zod';
import { DashboardError } from './api';

/**
 * A form's values, its errors (found by the shared schema before sending, or by the service after) and whether
 * it is being sent. On a failure the typed values stay, except passwords, which are typed again.
 */
export function useForm<T extends Record<string, string>>(initial: T, schema: z.core.$ZodType) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);

  const bind = (field: keyof T & string) => ({
    value: values[field],
    onInput: (event: Event) =>
      setValues({ ...values, [field]: (event.currentTarget as HTMLInputElement).value }),
    error: errors.find((error) => error.path === field)?.message,
  });

  /** Checks `toSend(values)` with the schema, then sends it; answers whether it was done. */
  async function submit(
    toSend: (values: T) => unknown,
    send: (body: unknown) => Promise<unknown>,
  ): Promise<boolean> {
    const body = toSend(values);
    const found = check(schema, body);
    setErrors(found);
    setProblem(undefined);
    if (found.length > 0) return false;
    setBusy(true);
    try {
      await send(body);
      return true;
    } catch (error) {
      const failure = error instanceof DashboardError ? error : new DashboardError(String(error), 0);
      setErrors(failure.errors);
      // A sentence already shown under its field is not repeated above the button.
      setProblem(failure.errors.length > 0 ? undefined : failure.message);
      setValues(withoutPasswords(values));
      return false;
    } finally {
      setBusy(false);
    }
  }

  const reset = () => {
    setValues(initial);
    setErrors([]);
    setProblem(undefined);
  };
  return { values, bind, submit, busy, problem, reset };
}

function withoutPasswords<T extends Record<string, string>>(values: T): T {
  return Object.fromEntries(
    Object.entries(values).map(([field, value]) => [field, /password/i.test(field) ? '' : value]),
  ) as T;
}
