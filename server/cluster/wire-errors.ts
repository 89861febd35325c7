import { Conflict, isDomainError, NotFound, PlanLimit, Unavailable } from '../core/domain-errors';

/** A domain error as one node tells it to another, so that the client gets the very answer the owner gave. */
export type WireError =
  | { kind: 'NotFound'; message: string }
  | { kind: 'Conflict'; code: Conflict['code']; message: string; sessionId: string | null }
  | { kind: 'PlanLimit'; code: PlanLimit['code']; message: string }
  | { kind: 'Unavailable'; code: Unavailable['code']; message: string; options: Unavailable['options'] };

export function toWire(error: unknown): WireError | null {
  if (!isDomainError(error)) return null;
  if (error instanceof NotFound) return { kind: 'NotFound', message: error.message };
  if (error instanceof Conflict)
    return { kind: 'Conflict', code: error.code, message: error.message, sessionId: error.sessionId };
  if (error instanceof PlanLimit) return { kind: 'PlanLimit', code: error.code, message: error.message };
  return { kind: 'Unavailable', code: error.code, message: error.message, options: error.options };
}

export function fromWire(wire: WireError): Error {
  switch (wire.kind) {
    case 'NotFound':
      return Object.assign(new NotFound(''), { message: wire.message });
    case 'Conflict':
      return new Conflict(wire.code, wire.message, wire.sessionId);
    case 'PlanLimit':
      return new PlanLimit(wire.code, wire.message);
    case 'Unavailable':
      return new Unavailable(wire.code, wire.message, wire.options);
  }
}
