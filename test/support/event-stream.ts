import type { ServiceEvent } from '../../lib/api/schemas/events';

export interface Frame {
  id?: string;
  event?: string;
  data?: string;
  /** A comment line (`: heartbeat`). */
  comment?: string;
}

export interface EventStream {
  response: Response;
  /** The next frame that passes `wanted` (heartbeats included), in arrival order. */
  next(wanted?: (frame: Frame) => boolean): Promise<Frame>;
  /** The next event (a frame with data), parsed. */
  nextEvent(wanted?: (event: ServiceEvent) => boolean): Promise<ServiceEvent>;
  close(): void;
}

/** Opens `GET /v1/events` and reads its Server-Sent Events frame by frame, as a client would. */
export async function openEventStream(
  baseUrl: string,
  key: string,
  headers: Record<string, string> = {},
): Promise<EventStream> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/v1/events`, {
    headers: { Authorization: `Bearer ${key}`, Accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  const frames: Frame[] = [];

  async function readFrame(): Promise<Frame> {
    for (;;) {
      const end = buffered.indexOf('\n\n');
      if (end >= 0) {
        const text = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        return parseFrame(text);
      }
      if (!reader) throw new Error(`no stream: ${response.status}`);
      const { done, value } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffered += value;
    }
  }

  async function next(wanted: (frame: Frame) => boolean = () => true): Promise<Frame> {
    const queued = frames.findIndex(wanted);
    if (queued >= 0) return frames.splice(queued, 1)[0] as Frame;
    for (;;) {
      const frame = await readFrame();
      if (wanted(frame)) return frame;
      frames.push(frame);
    }
  }

  return {
    response,
    next,
    async nextEvent(wanted = () => true) {
      const frame = await next((f) => f.data !== undefined && wanted(JSON.parse(f.data) as ServiceEvent));
      return JSON.parse(frame.data as string) as ServiceEvent;
    },
    close: () => controller.abort(),
  };
}

function parseFrame(text: string): Frame {
  const frame: Frame = {};
  for (const line of text.split('\n')) {
    if (line.startsWith(':')) frame.comment = line.slice(1).trim();
    const match = /^(id|event|data): ?(.*)$/.exec(line);
    if (match) frame[match[1] as 'id' | 'event' | 'data'] = match[2];
  }
  return frame;
}
