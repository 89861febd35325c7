/**
 * What the service's domain (sessions, runs) reports when it cannot do what was asked. Each message is the
 * sentence for the person; `server/http/errors.ts` alone decides how it is answered over HTTP.
 */
export class NotFound extends Error {
  override name = 'NotFound';
  constructor(what: string) {
    super(`There is no ${what} with this id.`);
  }
}

/** The thing exists but is in a state that does not allow the request. */
export class Conflict extends Error {
  override name = 'Conflict';
  constructor(
    readonly code:
      | 'session_exists'
      | 'session_not_running'
      | 'session_busy'
      | 'profile_running'
      | 'download_not_ready'
      | 'help_pending'
      | 'help_answered'
      | 'help_timed_out',
    message: string,
    readonly sessionId: string | null = null,
  ) {
    super(message);
  }
}

/** The account holds as much as its plan allows. */
export class PlanLimit extends Error {
  override name = 'PlanLimit';
  constructor(
    readonly code: 'session_limit' | 'stream_limit',
    message: string,
  ) {
    super(message);
  }
}

/** The service cannot do it now: no browser can be started, or the machine is full. */
export class Unavailable extends Error {
  override name = 'Unavailable';
  constructor(
    readonly code: 'browser_unavailable' | 'at_capacity' | 'proxy_check_off',
    message: string,
    readonly options: { retryAfterSeconds?: number; sessionId?: string } = {},
  ) {
    super(message);
  }
}

/** A saved proxy that profiles still point at. */
export class ProxyInUse extends Error {
  override name = 'ProxyInUse';
  constructor(readonly profileIds: string[]) {
    const count = profileIds.length;
    const them = count === 1 ? 'it' : 'them';
    super(
      `${count} profile${count === 1 ? ' uses' : 's use'} this proxy; point ${them} elsewhere or delete ${them} first.`,
    );
  }
}

/** A value the caller sent that cannot be used: the field, what is wrong with it, and the sentence. */
export class InvalidInput extends Error {
  override name = 'InvalidInput';
  constructor(
    readonly field: string,
    readonly problem: string,
    message: string,
  ) {
    super(message);
  }
}

export function isDomainError(error: unknown): error is NotFound | Conflict | PlanLimit | Unavailable {
  return (
    error instanceof NotFound ||
    error instanceof Conflict ||
    error instanceof PlanLimit ||
    error instanceof Unavailable
  );
}
