/**
 * What a site's own detection scripts read in any scope (page, frame, dedicated or service worker), beyond the
 * values themselves: whether replaced functions give themselves away from a fresh realm, whether read-backs agree
 * with each other, and whether the values agree with what the host shows around them (WebGL limits, heap, window
 * and screen, locale and languages). A route a scope lacks (audio, the heap and the window in workers) is null.
 */
export interface DetectorReading {
  /** Functions a fresh frame's (or the scope's own) `toString` shows as not `[native code]`, with what it showed. */
  shown_replaced: string[];
  /** Functions that, called on a wrong receiver, throw anything but the browser's "Illegal invocation". */
  wrong_receiver: string[];
  /** Stack lines that name a function between the page and the browser. */
  injected_frames: string[];
  /** A fresh frame's read-outs called on this realm's canvas that throw or answer otherwise than this realm's. */
  cross_realm: string[];
  /** Whether two read-backs of one drawing agree, by each route. */
  read_backs: {
    canvas: boolean | null;
    canvas_round_trip: boolean | null;
    webgl: boolean | null;
    audio: boolean | null;
  };
  webgl: { renderer: string; max_texture_size: number; extensions: number } | null;
  heap_limit_gb: number | null;
  memory_gb: number | null;
  form_factors: string[] | null;
  intl_locale: string;
  languages: string[];
  /** The window against the screen's work area (CSS pixels), and how far it reaches past each edge (0 inside). */
  window: {
    screen_x: number;
    screen_y: number;
    outer_width: number;
    outer_height: number;
    work_area: { left: number; top: number; width: number; height: number };
    overflow: { left: number; top: number; right: number; bottom: number };
  } | null;
}

// Runs in the checked scope: plain JavaScript once serialised, in window and worker scopes alike.
export async function readDetector(): Promise<DetectorReading> {
  const scope = globalThis as unknown as Record<string, { prototype: object } | undefined>;
  const hasDocument = typeof document === 'object';
  const frame = hasDocument ? document.createElement('iframe') : null;
  if (frame) document.body.append(frame);
  const fresh = frame?.contentWindow as unknown as { Function: FunctionConstructor } | undefined;
  const realms: [string, (this: unknown) => string][] = [['own realm', Function.prototype.toString]];
  if (fresh) realms.unshift(['fresh frame', fresh.Function.prototype.toString]);
  const proto = (name: string) => scope[name]?.prototype;
  const probes: [string, object | undefined, string, 'get' | 'value'][] = [
    ['Navigator', proto('Navigator') ?? proto('WorkerNavigator'), 'deviceMemory', 'get'],
    ['Navigator', proto('Navigator') ?? proto('WorkerNavigator'), 'hardwareConcurrency', 'get'],
    ['WebGLRenderingContext', proto('WebGLRenderingContext'), 'getParameter', 'value'],
    ['WebGL2RenderingContext', proto('WebGL2RenderingContext'), 'getParameter', 'value'],
    ['WebGLRenderingContext', proto('WebGLRenderingContext'), 'readPixels', 'value'],
    ['CanvasRenderingContext2D', proto('CanvasRenderingContext2D'), 'getImageData', 'value'],
    [
      'OffscreenCanvasRenderingContext2D',
      proto('OffscreenCanvasRenderingContext2D'),
      'getImageData',
      'value',
    ],
    ['HTMLCanvasElement', proto('HTMLCanvasElement'), 'toDataURL', 'value'],
    ['HTMLCanvasElement', proto('HTMLCanvasElement'), 'toBlob', 'value'],
    ['OffscreenCanvas', proto('OffscreenCanvas'), 'convertToBlob', 'value'],
    ['AudioBuffer', proto('AudioBuffer'), 'getChannelData', 'value'],
    ['AudioBuffer', proto('AudioBuffer'), 'copyFromChannel', 'value'],
    ['Function', Function.prototype, 'toString', 'value'],
  ];
  const shown: string[] = [];
  const wrongReceiver: string[] = [];
  const frames: string[] = [];
  for (const [owner, prototype, name, kind] of probes) {
    const descriptor = prototype && Object.getOwnPropertyDescriptor(prototype, name);
    const probed = descriptor?.[kind] as ((...args: unknown[]) => unknown) | undefined;
    if (typeof probed !== 'function') continue;
    const expected = `function ${kind === 'get' ? 'get ' : ''}${name}() { [native code] }`;
    for (const [realm, asText] of realms) {
      const text = Reflect.apply(asText, probed, []);
      if (text !== expected) shown.push(`${owner}.${name} from the ${realm}: ${text.slice(0, 80)}`);
    }
    if (name === 'toString') continue;
    try {
      Reflect.apply(probed, {}, []);
      wrongReceiver.push(`${owner}.${name}: no error`);
    } catch (error) {
      const message = `${(error as Error).name}: ${(error as Error).message}`;
      if (message !== 'TypeError: Illegal invocation') wrongReceiver.push(`${owner}.${name}: ${message}`);
      const lines = String((error as Error).stack ?? '').split('\n');
      const first = lines.findIndex((line) => /^\s+at /.test(line));
      // The browser's own function leaves no frame: the top one is this probe's.
      if (first > 0 && !/readDetector/.test(lines[first] as string))
        frames.push(`${owner}.${name}: ${(lines[first] as string).trim()}`);
    }
  }
  const crossRealm: string[] = [];
  const freshScope = fresh as unknown as Record<string, { prototype: Record<string, unknown> } | undefined>;
  if (fresh && hasDocument) {
    const drawn = Object.assign(document.createElement('canvas'), { width: 16, height: 8 });
    const drawing = drawn.getContext('2d') as CanvasRenderingContext2D;
    drawing.fillStyle = '#36c';
    drawing.fillRect(0, 0, 16, 8);
    const crossCalls: [string, () => unknown, unknown, unknown[]][] = [
      [
        'HTMLCanvasElement.toDataURL',
        () => drawn.toDataURL(),
        freshScope.HTMLCanvasElement?.prototype.toDataURL,
        [],
      ],
      [
        'CanvasRenderingContext2D.getImageData',
        () => drawing.getImageData(0, 0, 16, 8).data.join(),
        freshScope.CanvasRenderingContext2D?.prototype.getImageData,
        [0, 0, 16, 8],
      ],
    ];
    for (const [name, own, theirs, args] of crossCalls) {
      if (typeof theirs !== 'function') continue;
      const receiver = name.startsWith('HTML') ? drawn : drawing;
      try {
        const answer = Reflect.apply(theirs, receiver, args) as { data?: Uint8ClampedArray };
        const shownThere = answer?.data ? answer.data.join() : answer;
        if (shownThere !== own()) crossRealm.push(`${name} from the fresh frame: another answer`);
      } catch (error) {
        crossRealm.push(`${name} from the fresh frame: ${String(error).slice(0, 80)}`);
      }
    }
  }
  frame?.remove();

  const newCanvas = (width: number, height: number) =>
    hasDocument
      ? Object.assign(document.createElement('canvas'), { width, height })
      : new OffscreenCanvas(width, height);
  /** The canvas as a page exports it: a data URL, or (offscreen) the bytes of its blob. */
  const exported = async (canvas: HTMLCanvasElement | OffscreenCanvas) =>
    'toDataURL' in canvas
      ? canvas.toDataURL()
      : new Uint8Array(await (await canvas.convertToBlob()).arrayBuffer()).join();
  const readBacks: DetectorReading['read_backs'] = {
    canvas: null,
    canvas_round_trip: null,
    webgl: null,
    audio: null,
  };
  const canvas = newCanvas(64, 32);
  const context = canvas.getContext('2d') as CanvasRenderingContext2D | null;
  if (context) {
    context.fillStyle = '#6a3';
    context.fillRect(0, 0, 64, 32);
    context.fillStyle = '#c24';
    context.font = '14px sans-serif';
    context.fillText('Identity ✓', 2, 20);
    const first = context.getImageData(0, 0, 64, 32).data.join();
    readBacks.canvas = context.getImageData(0, 0, 64, 32).data.join() === first;
    const shownOnce = await exported(canvas);
    context.putImageData(context.getImageData(0, 0, 64, 32), 0, 0);
    readBacks.canvas_round_trip = (await exported(canvas)) === shownOnce;
  }

  let webgl: DetectorReading['webgl'] = null;
  const gl = newCanvas(300, 150).getContext('webgl', {
    preserveDrawingBuffer: true,
  }) as WebGLRenderingContext | null;
  if (gl) {
    gl.clearColor(0.3, 0.6, 0.2, 1);
    gl.clear(gl.COLOR_BUFFER_BIT);
    const read = () => {
      const pixels = new Uint8Array(gl.drawingBufferWidth * gl.drawingBufferHeight * 4);
      gl.readPixels(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
      return pixels.join();
    };
    const once = read();
    readBacks.webgl = read() === once;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    webgl = {
      renderer: info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '',
      max_texture_size: gl.getParameter(gl.MAX_TEXTURE_SIZE) as number,
      extensions: gl.getSupportedExtensions()?.length ?? 0,
    };
  }

  if (typeof OfflineAudioContext === 'function') {
    const audio = new OfflineAudioContext(1, 4410, 44100);
    const oscillator = audio.createOscillator();
    oscillator.frequency.value = 1000;
    oscillator.connect(audio.destination);
    oscillator.start();
    const rendered = await audio.startRendering();
    const copied = new Float32Array(rendered.length);
    rendered.copyFromChannel(copied, 0);
    readBacks.audio = copied.join() === rendered.getChannelData(0).join();
  }

  const nav = navigator as Navigator & {
    deviceMemory?: number;
    userAgentData?: { getHighEntropyValues(hints: string[]): Promise<{ formFactors?: string[] }> };
  };
  const memory = (performance as Performance & { memory?: { jsHeapSizeLimit: number } }).memory;
  const high = await nav.userAgentData?.getHighEntropyValues(['formFactors']);
  let placement: DetectorReading['window'] = null;
  if (hasDocument) {
    const area = screen as Screen & { availLeft?: number; availTop?: number };
    const work = {
      left: area.availLeft ?? 0,
      top: area.availTop ?? 0,
      width: screen.availWidth,
      height: screen.availHeight,
    };
    placement = {
      screen_x: screenX,
      screen_y: screenY,
      outer_width: outerWidth,
      outer_height: outerHeight,
      work_area: work,
      overflow: {
        left: Math.max(0, work.left - screenX),
        top: Math.max(0, work.top - screenY),
        right: Math.max(0, screenX + outerWidth - (work.left + work.width)),
        bottom: Math.max(0, screenY + outerHeight - (work.top + work.height)),
      },
    };
  }
  return {
    shown_replaced: shown,
    wrong_receiver: wrongReceiver,
    injected_frames: frames,
    cross_realm: crossRealm,
    read_backs: readBacks,
    webgl,
    heap_limit_gb: memory ? memory.jsHeapSizeLimit / 2 ** 30 : null,
    memory_gb: nav.deviceMemory ?? null,
    form_factors: high?.formFactors ?? null,
    intl_locale: Intl.DateTimeFormat().resolvedOptions().locale,
    languages: [...navigator.languages],
    window: placement,
  };
}
