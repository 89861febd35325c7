import type { FieldError } from '../lib/api/schemas/problem';

/** What went wrong, as the service said it: a sentence, and one per field when it was about a field. */
export class DashboardError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
  }

  /** The sentence about a field, if the problem was about it. */
  about(field: string): string | undefined {
    return this.errors.find((error) => error.path === field)?.message;
  }
}

/**
 * Calls one of the dashboard's endpoints on this same origin: the browser sends the sign-in cookie and the
 * Origin header the service checks. Resolves with the JSON answer (undefined for 204).
 */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/dashboard/api${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new DashboardError('The service cannot be reached; check your connection and try again.', 0);
  }
  if (response.status === 204) return undefined as T;
  const answer = (await response.json().catch(() => ({}))) as { detail?: string; errors?: FieldError[] };
  if (!response.ok) {
    throw new DashboardError(
      answer.detail ?? `The service answered ${response.status}; try again.`,
      response.status,
      answer.errors,
    );
  }
  return answer as T;
}
