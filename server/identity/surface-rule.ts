import type { ScopeReading } from './scope-reading';

/** What a surface rule is: what the profile claims there, how each scope shows it, and where it may show. */
export interface SurfaceRule {
  surface: string;
  /** Null: the profile claims nothing here, the host's own shows. */
  claimed: unknown;
  /** What a scope shows; null where the scope has no such thing (a worker's window), which counts for nothing. */
  read(reading: ScopeReading): unknown;
  /** The scopes that show it, where not all (only the page has a screen, touch points and a position). */
  scopes?: readonly Scope[];
  /** The header that carries the surface, and the claim as that header says it. */
  header?: { path: string; name: string; claimed: unknown };
  /** Whether what a scope showed agrees with the claim, where it need not equal it. */
  agrees?: (seen: unknown) => boolean;
}

export const SCOPES = ['page', 'frame', 'worker', 'service_worker'] as const;
export type Scope = (typeof SCOPES)[number];
export const PAGE_ONLY: readonly Scope[] = ['page'];
