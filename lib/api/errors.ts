import type { EndpointName } from './endpoints';
import { summarizeIssues } from './issues';
import { type FieldError, Problem, type ProblemCode } from './schemas/problem';
import { z } from './zod';

/** A problem code from the service, or what went wrong when no usable answer arrived. */
export type ApiErrorCode =
  | ProblemCode
  | 'network_error'
  | 'timeout'
  | 'aborted'
  | 'invalid_response'
  | 'http_error'
  | (string & {});

export interface ApiErrorInfo {
  /** `METHOD /path` of the endpoint as the table names it, e.g. `GET /v1/profiles/:id`. */
  endpoint: string;
  /** HTTP status; 0 when no answer arrived (network error, timeout, cancelled). */
  status: number;
  code: ApiErrorCode;
  detail: string | null;
  fieldErrors: FieldError[];
  /** Seconds the service asked to wait (`Retry-After`), or null. */
  retryAfter: number | null;
  /** A sentence fit to show a person. */
  userMessage: string;
}

export class ApiError extends Error {
  declare readonly endpoint: string;
  declare readonly status: number;
  declare readonly code: ApiErrorCode;
  declare readonly detail: string | null;
  declare readonly fieldErrors: FieldError[];
  declare readonly retryAfter: number | null;
  declare readonly userMessage: string;

  constructor(info: ApiErrorInfo, message: string, cause?: unknown) {
    super(`${info.endpoint} ${message}`, { cause });
    this.name = 'ApiError';
    Object.assign(this, info);
  }
}

const SAYS = {
  unreachable: (baseUrl: string) => `The service at ${baseUrl} cannot be reached. Is it running?`,
  timeout: 'The service took too long to answer.',
  aborted: 'The request was cancelled.',
  notTheService: 'This address does not look like a profile-automation service.',
  badKey: 'The service refused the API key. Check it, or create a new one.',
  quotaUsed: 'The hourly request limit is used up.',
  gone: (thing: string) => `That ${thing} no longer exists.`,
  failed: (status: number) => `The service ran into a problem (HTTP ${status}). Try again later.`,
  refused: (status: number) => `The service did not accept the request (HTTP ${status}).`,
};

/** Where no answer arrived: the connection failed, the time ran out, or the caller cancelled. */
export function noAnswerError(
  endpoint: string,
  code: 'network_error' | 'timeout' | 'aborted',
  baseUrl: string,
  cause: unknown,
): ApiError {
  const userMessage =
    code === 'network_error' ? SAYS.unreachable(baseUrl) : code === 'timeout' ? SAYS.timeout : SAYS.aborted;
  const detail = cause instanceof Error ? cause.message : String(cause);
  const info = { endpoint, status: 0, code, detail, fieldErrors: [], retryAfter: null, userMessage };
  return new ApiError(info, `got no answer (${code}): ${detail}`, cause);
}

/** A successful status whose body is not what the endpoint promises. */
export function invalidResponseError(endpoint: string, status: number, explanation: string): ApiError {
  const info = {
    endpoint,
    status,
    code: 'invalid_response',
    detail: explanation,
    fieldErrors: [],
    retryAfter: null,
    userMessage: SAYS.notTheService,
  };
  return new ApiError(info, explanation);
}

export function unexpectedShape(issues: readonly z.core.$ZodIssue[]): string {
  return `answered with an unexpected shape: ${summarizeIssues(issues)}`;
}

/** An error status. The body is a problem document from the service, or anything else from whatever answered. */
export function httpError(
  name: EndpointName,
  endpoint: string,
  status: number,
  body: string,
  retryAfter: number | null,
): ApiError {
  const problem = parseProblem(body);
  const code = problem?.code ?? 'http_error';
  const detail = problem?.detail ?? null;
  const fieldErrors = problem?.errors ?? [];
  const userMessage = describeFailure(name, status, problem, retryAfter);
  const info = { endpoint, status, code, detail, fieldErrors, retryAfter, userMessage };
  return new ApiError(info, `answered ${status} ${code}${detail ? `: ${detail}` : ''}`);
}

function parseProblem(body: string): Problem | null {
  try {
    const parsed = z.safeParse(Problem, JSON.parse(body));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function describeFailure(
  name: EndpointName,
  status: number,
  problem: Problem | null,
  retryAfter: number | null,
): string {
  // The service says why it refused the key (not valid, revoked, expired): that, else the general sentence.
  if (status === 401) return problem?.detail ? sentence(problem.detail) : SAYS.badKey;
  // Only the hourly limit is a used-up quota; any other 429 (sessions or streams at the plan's cap, too many
  // wrong keys) is the service's own sentence.
  if (status === 429 && problem?.detail && problem.code !== 'rate_limited') return sentence(problem.detail);
  if (status === 429)
    return `${SAYS.quotaUsed} Try again ${retryAfter === null ? 'later' : `in ${duration(retryAfter)}`}.`;
  // The service answers every error with a problem document; a bare 404 comes from something else.
  if (status === 404 && !problem) return SAYS.notTheService;
  const thing = /^(?:get|update|delete|stop|cancel)(Profile|Proxy|Session|Run|Artifact)$/.exec(name)?.[1];
  if (status === 404 && thing) return SAYS.gone(thing.toLowerCase());
  const field = problem?.errors?.[0];
  const said = problem?.detail
    ? sentence(problem.detail)
    : status >= 500
      ? SAYS.failed(status)
      : SAYS.refused(status);
  // A detail that already says what is wrong with the field is said once.
  if (!field || problem?.detail?.includes(field.message)) return said;
  return `${said} ${field.path ? `${field.path}: ` : ''}${field.message}.`;
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function duration(seconds: number): string {
  const [count, unit] = seconds < 60 ? [seconds, 'second'] : [Math.ceil(seconds / 60), 'minute'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}
