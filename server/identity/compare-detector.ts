import { SERVICE_WORKER_BOUND_MS } from './check-page';
import type { DetectorReading } from './detector-page';
import type { ProbeReading } from './detector-probes';
import type { PresentedIdentity } from './presented';
import type { ScopeReading } from './scope-reading';
import { PAGE_ONLY, type Scope, type SurfaceRule } from './surface-rule';

/** The least texture size of a desktop GPU a site would believe (SwiftShader, the host's software GPU, has 8192). */
const DESKTOP_GPU_TEXTURE_SIZE = 16_384;
/** V8 sizes the heap at a quarter of the memory, up to 4 GB: a claim whose heap is off by more is contradicted. */
const HEAP_SLACK = 0.3;

const ROUNDING_PX = 1;

const detector = (reading: ScopeReading) => reading.detector ?? null;
const probes = (reading: ScopeReading) => reading.probes ?? null;
/**
 * A busy host gives a page less than its cores: a claim passes up to twice the throughput measured, and two more
 * (2 cores on a busy 2-core host measured 0.8 to 1.3; 24 claimed there, 1.4 to 3.7).
 */
const throughputCarries = (cores: number, measured: number) => cores <= measured * 2 + 2;
/** The page and its frame: the scopes with a window. */
const WINDOWS: readonly Scope[] = ['page', 'frame'];

/** A way replaced functions give themselves away: the functions the detector found (`found`); a profile claims none. */
const givesAway = (
  surface: string,
  found: 'shown_replaced' | 'wrong_receiver' | 'injected_frames' | 'cross_realm',
): SurfaceRule => ({ surface, claimed: [], read: (reading) => detector(reading)?.[found] ?? null });

/**
 * What a site's detection scripts check in every scope (page, frame, dedicated and service worker) beyond the values: replaced functions giving themselves away,
 * read-backs disagreeing, and values contradicted by what the host shows around them. Each is a surface: a
 * contradiction fails it, with what was seen.
 */
export function detectorRules(presented: PresentedIdentity): SurfaceRule[] {
  const { identity } = presented;
  const memory = identity.hardware.memory_gb;
  return [
    givesAway('script_hidden.to_string', 'shown_replaced'),
    givesAway('script_hidden.receiver_errors', 'wrong_receiver'),
    givesAway('script_hidden.stack_frames', 'injected_frames'),
    { ...givesAway('script_hidden.cross_realm', 'cross_realm'), scopes: WINDOWS },
    {
      surface: 'read_backs',
      claimed: { canvas: true, canvas_round_trip: true, webgl: true, audio: true },
      read: (reading) => detector(reading)?.read_backs ?? null,
      // A route a scope lacks (audio in workers) is null there.
      agrees: (seen) =>
        seen !== null && Object.values(seen as DetectorReading['read_backs']).every((same) => same !== false),
    },
    {
      // A read-out that calls what a page can replace shows itself to a spy on it.
      surface: 'script_hidden.intrinsics',
      claimed: [],
      read: (reading) => probes(reading)?.hooked ?? null,
    },
    {
      surface: 'read_backs.round_trip',
      claimed: true,
      read: (reading) => probes(reading)?.round_trip ?? null,
    },
    // Audio exists in windows only.
    { surface: 'read_backs.silence', claimed: true, read: (reading) => probes(reading)?.silence ?? null },
    {
      surface: 'realms.sandboxed_frame',
      claimed: { cpu_cores: identity.hardware.cpu_cores, same_canvas: true },
      read: (reading) => probes(reading)?.sandboxed_frame ?? null,
      scopes: WINDOWS,
    },
    {
      surface: 'cpu_cores.throughput',
      claimed: identity.hardware.cpu_cores,
      read: (reading) => probes(reading)?.throughput ?? null,
      agrees: (seen) => {
        const throughput = seen as ProbeReading['throughput'];
        return throughput !== null && throughputCarries(identity.hardware.cpu_cores, throughput.measured);
      },
      scopes: PAGE_ONLY,
    },
    {
      surface: 'webgl.parameters',
      // A GPU named by the identity must have the limits of one; null claims the host's, which has its own.
      claimed: identity.webgl && {
        renderer: identity.webgl.renderer,
        max_texture_size: DESKTOP_GPU_TEXTURE_SIZE,
      },
      read: (reading) => detector(reading)?.webgl ?? null,
      agrees: (seen) => {
        const webgl = seen as DetectorReading['webgl'];
        return webgl !== null && webgl.max_texture_size >= DESKTOP_GPU_TEXTURE_SIZE;
      },
    },
    {
      surface: 'memory_gb.heap',
      claimed: { memory_gb: memory, heap_limit_gb: Math.min(memory / 4, 4) },
      read: (reading) => {
        const seen = detector(reading);
        // Workers show no heap limit.
        return seen?.heap_limit_gb == null
          ? null
          : { memory_gb: seen.memory_gb, heap_limit_gb: seen.heap_limit_gb };
      },
      agrees: (seen) => {
        const heap = (seen as { heap_limit_gb: number | null } | null)?.heap_limit_gb;
        const expected = Math.min(memory / 4, 4);
        return typeof heap === 'number' && Math.abs(heap - expected) <= expected * HEAP_SLACK;
      },
    },
    {
      surface: 'client_hints.form_factors',
      claimed: [identity.client_hints.mobile ? 'Mobile' : 'Desktop'],
      read: (reading) => detector(reading)?.form_factors ?? null,
    },
    {
      surface: 'locale.languages',
      claimed: true,
      read: (reading) => {
        const seen = detector(reading);
        return seen && { intl_locale: seen.intl_locale, first_language: seen.languages[0] ?? null };
      },
      agrees: (seen) => {
        const { intl_locale, first_language } = seen as {
          intl_locale: string;
          first_language: string | null;
        };
        return intl_locale === first_language;
      },
    },
    {
      surface: 'window',
      claimed: { overflow: { left: 0, top: 0, right: 0, bottom: 0 } },
      read: (reading) => detector(reading)?.window ?? null,
      // At a fractional pixel ratio Chromium rounds the window's CSS size up by a pixel, as on any such screen.
      agrees: (seen) => {
        const window = seen as DetectorReading['window'];
        return window !== null && Object.values(window.overflow).every((past) => past <= ROUNDING_PX);
      },
      scopes: WINDOWS,
    },
    {
      // Registered, in control and answering its `fetch` within the bound; what it read is each surface's.
      surface: 'service_worker',
      claimed: { registered: true, answered: true, within_ms: SERVICE_WORKER_BOUND_MS },
      read: (reading) => reading.service_worker ?? null,
      agrees: (seen) => {
        const worker = seen as ScopeReading['service_worker'];
        return worker?.registered === true && worker.answered && worker.ms <= SERVICE_WORKER_BOUND_MS;
      },
      scopes: PAGE_ONLY,
    },
  ];
}
