import { HelpAnswer } from '../../lib/api/inputs/help-answer';
import { z } from '../../lib/api/zod';
import { MAX_ADDRESS_LENGTH } from './viewer-controls';

const Coordinate = z.number().check(z.gte(-100_000), z.lte(100_000));
/** Alt 1, Ctrl 2, Meta 4, Shift 8: the DevTools protocol's bits. */
const Modifiers = z.int().check(z.gte(0), z.lte(15));

/** The viewer's confirmation that it shows the last frame: the next one may come (natural backpressure). */
const Ack = z.object({ type: z.literal('ack') });
/** The viewer's drawing area in device pixels: frames are made no larger (the page's own size is untouched). */
const Size = z.object({
  type: z.literal('size'),
  width: z.int().check(z.gte(1), z.lte(8192)),
  height: z.int().check(z.gte(1), z.lte(8192)),
});
const Watch = z.object({ type: z.literal('watch'), tab: z.string().check(z.maxLength(64)) });
const Mouse = z.object({
  type: z.literal('mouse'),
  event: z.enum(['move', 'down', 'up', 'wheel']),
  x: Coordinate,
  y: Coordinate,
  button: z.enum(['none', 'left', 'middle', 'right']),
  clicks: z.int().check(z.gte(0), z.lte(3)),
  deltaX: Coordinate,
  deltaY: Coordinate,
  modifiers: Modifiers,
});
const Key = z.object({
  type: z.literal('key'),
  event: z.enum(['down', 'up']),
  key: z.string().check(z.maxLength(32)),
  code: z.string().check(z.maxLength(32)),
  keyCode: z.int().check(z.gte(0), z.lte(255)),
  /** What the key types ('' for keys that type nothing, and under Ctrl or Meta). */
  text: z.string().check(z.maxLength(4)),
  modifiers: Modifiers,
});
/** Pasted text, typed into the focused field as it is. */
const Text = z.object({ type: z.literal('text'), text: z.string().check(z.maxLength(100_000)) });

/** IME composition: the text being composed, shown in the page's focused field until it is committed. */
const Compose = z.object({ type: z.literal('compose'), text: z.string().check(z.maxLength(256)) });
/** The bar's controls: open an address, back or forward, reload, stop the session. */
const Navigate = z.object({
  type: z.literal('navigate'),
  url: z.string().check(z.maxLength(MAX_ADDRESS_LENGTH)),
});
const Go = z.object({ type: z.literal('go'), step: z.union([z.literal(-1), z.literal(1)]) });
const Reload = z.object({ type: z.literal('reload') });
const Stop = z.object({ type: z.literal('stop') });
/** The person's answer to the session's open request for help, shown in the bar. */
const HelpReply = z.object({
  type: z.literal('help-reply'),
  request: z.string().check(z.maxLength(64)),
  answer: HelpAnswer,
});

export const ViewerMessage = z.discriminatedUnion('type', [
  Ack,
  Size,
  Watch,
  Mouse,
  Key,
  Text,
  Compose,
  Navigate,
  Go,
  Reload,
  Stop,
  HelpReply,
]);
export type ViewerMessage = z.infer<typeof ViewerMessage>;
export type MouseInput = z.infer<typeof Mouse>;
export type KeyInput = z.infer<typeof Key>;

/** Messages that act on the session (its page, its tabs' addresses, its life): never taken from a view-only address. */
export const CONTROL_TYPES: ReadonlySet<ViewerMessage['type']> = new Set([
  'mouse',
  'key',
  'text',
  'compose',
  'navigate',
  'go',
  'reload',
  'stop',
  'help-reply',
]);

/** The viewer's message, or null when it is not one. */
export function parseViewerMessage(text: string): ViewerMessage | null {
  try {
    const parsed = ViewerMessage.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
