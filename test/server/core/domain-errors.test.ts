import { describe, expect, it } from 'vitest';
import {
  Conflict,
  type DomainError,
  EgressRefused,
  Forbidden,
  fromWire,
  InvalidInput,
  NotFound,
  PageProblem,
  PlanLimit,
  ProxyInUse,
  toWire,
  Unavailable,
} from '../../../server/core/domain-errors';
import { domainProblem } from '../../../server/http/errors';
import { problemResponse } from '../../../server/http/problem';

/* Every kind of the table, as another node raises it: after the trip over the wire it is the same error here. */

const raised: DomainError[] = [
  new NotFound('session'),
  new Forbidden('A runner may not delete profiles; ask an editor, an admin or the owner.'),
  new Conflict('session_exists', 'This profile already runs in session ses_1.', 'ses_1'),
  new PlanLimit('session_limit', 'Your plan runs 2 sessions at once.'),
  new Unavailable('at_capacity', 'Every machine is full.', { retryAfterSeconds: 60, sessionId: 'ses_2' }),
  new ProxyInUse(['prf_1', 'prf_2']),
  new InvalidInput('choice', 'must be one of “Yes”', 'Invalid body: choice: must be one of “Yes”.'),
  new EgressRefused('127.0.0.1 is in loopback, which sessions may not reach on this service.'),
  new PageProblem('There is no tab 3; list the tabs to see their numbers.'),
];

function present<T>(value: T | null): T {
  if (value === null) throw new Error('expected a value, got null');
  return value;
}

describe('a domain error crossing from one node to another', () => {
  it.each(raised.map((error) => [error.name, error] as const))(
    '%s keeps its kind and its answer',
    async (_, error) => {
      const wire = toWire(error);
      expect(wire).not.toBeNull();
      const arrived = fromWire(JSON.parse(JSON.stringify(wire)));

      expect(arrived).toBeInstanceOf(error.constructor);
      expect(arrived.name).toBe(error.name);
      expect(arrived.message).toBe(error.message);
      expect(domainProblem(arrived)).toEqual(domainProblem(error));
      const [here, there] = [
        problemResponse(present(domainProblem(error))),
        problemResponse(present(domainProblem(arrived))),
      ];
      expect(there.status).toBe(here.status);
      expect(there.headers.get('retry-after')).toBe(here.headers.get('retry-after'));
      expect(await there.json()).toEqual(await here.json());
    },
  );

  it('keeps what callers read of a conflict and of a refusal to start', () => {
    const conflict = fromWire(present(toWire(raised[2]))) as Conflict;
    expect([conflict.code, conflict.sessionId]).toEqual(['session_exists', 'ses_1']);
    const full = fromWire(present(toWire(raised[4]))) as Unavailable;
    expect(full).toBeInstanceOf(Unavailable);
    expect([full.code, full.retryAfterSeconds]).toEqual(['at_capacity', 60]);
  });

  it('answers each kind with its status, and a kind this node does not know still with its own answer', () => {
    expect(raised.map((error) => domainProblem(error)?.status)).toEqual([
      404, 403, 409, 429, 503, 409, 422, 422, 422,
    ]);
    const newer = fromWire({ kind: 'ProfileHeldSomewhere', status: 409, code: 'conflict', detail: 'Held.' });
    expect(domainProblem(newer)).toMatchObject({ status: 409, code: 'conflict', detail: 'Held.' });
  });

  it('is not a wire error when it is no domain error', () => {
    expect(toWire(new Error('boom'))).toBeNull();
    expect(domainProblem(new Error('boom'))).toBeNull();
  });
});
