import type { ProblemCode } from '../../lib/api/schemas/problem';

/**
 * What the service's domain reports when it cannot do what was asked: one table of kinds, each carrying its whole
 * answer (status, code, the sentence for the person, extensions, field errors, when to retry). `server/http`
 * answers any of them as problem+json, MCP as a tool error, and a node hands one to another as itself
 * (`toWire`/`fromWire`), so a 409 raised on another node is a 409 here.
 */
export interface DomainProblem {
  status: number;
  code: ProblemCode;
  detail: string;
  extensions?: Record<string, unknown>;
  /** Which fields were refused, for a 422. */
  errors?: { path: string; message: string }[];
  retryAfterSeconds?: number;
}

export class DomainError extends Error {
  readonly status: number;
  readonly code: ProblemCode;
  readonly extensions: Record<string, unknown>;
  readonly errors: { path: string; message: string }[] | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(problem: DomainProblem) {
    super(problem.detail);
    this.name = new.target.name;
    this.status = problem.status;
    this.code = problem.code;
    this.extensions = problem.extensions ?? {};
    this.errors = problem.errors;
    this.retryAfterSeconds = problem.retryAfterSeconds;
  }

  get problem(): DomainProblem {
    return {
      status: this.status,
      code: this.code,
      detail: this.message,
      extensions: this.extensions,
      ...(this.errors ? { errors: this.errors } : {}),
      ...(this.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: this.retryAfterSeconds }),
    };
  }
}

const withSession = (sessionId: string | null | undefined) => (sessionId ? { session_id: sessionId } : {});

export class NotFound extends DomainError {
  constructor(what: string) {
    super({ status: 404, code: 'not_found', detail: `There is no ${what} with this id.` });
  }
}

/** The caller's role or scope does not allow the act; the sentence names the role and what it may not do. */
export class Forbidden extends DomainError {
  constructor(message: string) {
    super({ status: 403, code: 'forbidden', detail: message });
  }
}

export type ConflictCode =
  | 'conflict'
  | 'session_exists'
  | 'session_not_running'
  | 'session_busy'
  | 'profile_running'
  | 'download_not_ready'
  | 'help_pending'
  | 'help_answered'
  | 'help_timed_out'
  | 'batch_paused'
  | 'batch_not_paused'
  | 'batch_finished'
  | 'proxy_limit'
  | 'profile_not_held';

/** The thing exists but is in a state that does not allow the request. */
export class Conflict extends DomainError {
  declare readonly code: ConflictCode;
  constructor(code: ConflictCode, message: string, sessionId: string | null = null) {
    super({ status: 409, code, detail: message, extensions: withSession(sessionId) });
  }

  get sessionId(): string | null {
    return (this.extensions.session_id as string | undefined) ?? null;
  }
}

/** Another member holds the profile: `held_by` says who, since when, with which session. */
export class ProfileHeld extends DomainError {
  constructor(
    message: string,
    heldBy: { member: { id: string; name: string }; since: string; session_id: string | null },
  ) {
    super({ status: 409, code: 'profile_held', detail: message, extensions: { held_by: heldBy } });
  }
}

/** The account holds as much as its plan allows. */
export class PlanLimit extends DomainError {
  declare readonly code: 'session_limit' | 'stream_limit' | 'help_limit';
  constructor(code: 'session_limit' | 'stream_limit' | 'help_limit', message: string) {
    super({ status: 429, code, detail: message });
  }
}

/** The service cannot do it now: no browser can be started, or the machine is full. */
export class Unavailable extends DomainError {
  declare readonly code: 'browser_unavailable' | 'at_capacity' | 'proxy_check_off';
  constructor(
    code: 'browser_unavailable' | 'at_capacity' | 'proxy_check_off',
    message: string,
    options: { retryAfterSeconds?: number; sessionId?: string } = {},
  ) {
    super({
      status: 503,
      code,
      detail: message,
      extensions: withSession(options.sessionId),
      ...(options.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: options.retryAfterSeconds }),
    });
  }
}

/** A saved proxy that profiles still point at. */
export class ProxyInUse extends DomainError {
  constructor(profileIds: string[]) {
    const count = profileIds.length;
    const them = count === 1 ? 'it' : 'them';
    super({
      status: 409,
      code: 'proxy_in_use',
      detail: `${count} profile${count === 1 ? ' uses' : 's use'} this proxy; point ${them} elsewhere or delete ${them} first.`,
      extensions: { profile_ids: profileIds },
    });
  }
}

/** A value the caller sent that cannot be used: the field, what is wrong with it, and the sentence. */
export class InvalidInput extends DomainError {
  constructor(field: string, problem: string, message: string) {
    super({
      status: 422,
      code: 'validation_failed',
      detail: message,
      errors: [{ path: field, message: problem }],
    });
  }
}

/** An address a session, a webhook or a proxy check may not reach (loopback, private, metadata ranges). */
export class EgressRefused extends DomainError {
  constructor(message: string) {
    super({ status: 422, code: 'validation_failed', detail: message });
  }
}

/** A page tool's failure worded for the model: a stale ref, an element that never came, a page that failed. */
export class PageProblem extends DomainError {
  constructor(message: string) {
    super({ status: 422, code: 'page_failed', detail: message });
  }
}

/** Every kind, by the name it crosses the wire with. */
const KINDS = {
  NotFound,
  Forbidden,
  Conflict,
  ProfileHeld,
  PlanLimit,
  Unavailable,
  ProxyInUse,
  InvalidInput,
  EgressRefused,
  PageProblem,
} satisfies Record<string, new (...args: never[]) => DomainError>;

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

/** A domain error as one node tells it to another. */
export interface WireError extends DomainProblem {
  kind: string;
}

export function toWire(error: unknown): WireError | null {
  return error instanceof DomainError ? { kind: error.name, ...error.problem } : null;
}

/** The error another node raised, as the same kind here (its own constructor is not run again). */
export function fromWire(wire: WireError): DomainError {
  const { kind, ...problem } = wire;
  const type: new (...args: never[]) => DomainError = Object.hasOwn(KINDS, kind)
    ? KINDS[kind as keyof typeof KINDS]
    : DomainError;
  return Reflect.construct(DomainError, [problem], type) as DomainError;
}
