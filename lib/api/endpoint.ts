/** One endpoint of the v1 contract: its method, path, status and the schema of its answer. */
import type { z } from './zod';

type Schema = z.core.$ZodType;
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Endpoint {
  method: Method;
  /** Takes an Idempotency-Key: a retry with the same key and body gets the first answer again (contract.md). */
  idempotent?: boolean;
  /** Path with `:param` segments. */
  path: string;
  status: number;
  /** Absent for 204 answers and binary bodies. */
  response?: Schema;
  /** Binary answer (an artifact), not JSON. */
  binary?: true;
  /** A stream of Server-Sent Events (`text/event-stream`), not one JSON answer. */
  stream?: true;
}

/** A POST says whether it takes an Idempotency-Key; no other method may. */
export function endpoint<const E extends Endpoint>(
  e: E & (E['method'] extends 'POST' ? { idempotent: boolean } : { idempotent?: never }),
): E {
  return e;
}
