/**
 * What a site's own detection scripts read in a page, beyond the values themselves: whether replaced functions
 * give themselves away from a fresh frame, whether read-backs agree with each other, and whether the values agree
 * with what the host shows around them (WebGL limits, heap, window and screen, locale and languages).
 */
export interface DetectorReading {
  /** Functions a fresh frame's own `Function.prototype.toString` shows as not `[native code]`, with what it showed. */
  shown_replaced: string[];
  /** Functions that, called on a wrong receiver, throw anything but the browser's "Illegal invocation". */
  wrong_receiver: string[];
  /** Stack lines that name a function between the page and the browser. */
  injected_frames: string[];
  /** Whether two read-backs of one drawing agree, by each route. */
  read_backs: { canvas: boolean; canvas_round_trip: boolean; webgl: boolean; audio: boolean };
  webgl: { renderer: string; max_texture_size: number; extensions: number } | null;
  heap_limit_gb: number | null;
  memory_gb: number | null;
  form_factors: string[] | null;
  intl_locale: string;
  languages: string[];
  /** How far the window reaches past the screen's work area, in CSS pixels (0 when inside it). */
  window_overflow: { right: number; bottom: number };
}

// Runs in the checked page: plain JavaScript once serialised.
export async function readDetector(): Promise<DetectorReading> {
  const scope = globalThis as unknown as Record<string, { prototype: object } | undefined>;
  const frame = document.createElement('iframe');
  document.body.append(frame);
  const fresh = frame.contentWindow as unknown as { Function: FunctionConstructor };
  const freshToString = fresh.Function.prototype.toString;
  const probes: [string, object | undefined, string, 'get' | 'value'][] = [
    ['Navigator', scope.Navigator?.prototype, 'deviceMemory', 'get'],
    ['Navigator', scope.Navigator?.prototype, 'hardwareConcurrency', 'get'],
    ['WebGLRenderingContext', scope.WebGLRenderingContext?.prototype, 'getParameter', 'value'],
    ['WebGL2RenderingContext', scope.WebGL2RenderingContext?.prototype, 'getParameter', 'value'],
    ['WebGLRenderingContext', scope.WebGLRenderingContext?.prototype, 'readPixels', 'value'],
    ['CanvasRenderingContext2D', scope.CanvasRenderingContext2D?.prototype, 'getImageData', 'value'],
    ['HTMLCanvasElement', scope.HTMLCanvasElement?.prototype, 'toDataURL', 'value'],
    ['HTMLCanvasElement', scope.HTMLCanvasElement?.prototype, 'toBlob', 'value'],
    ['OffscreenCanvas', scope.OffscreenCanvas?.prototype, 'convertToBlob', 'value'],
    ['AudioBuffer', scope.AudioBuffer?.prototype, 'getChannelData', 'value'],
    ['AudioBuffer', scope.AudioBuffer?.prototype, 'copyFromChannel', 'value'],
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
    for (const [realm, asText] of [
      ['fresh frame', freshToString],
      ['page', Function.prototype.toString],
    ] as const) {
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
  frame.remove();

  const canvas = document.createElement('canvas');
  canvas.width = 64;
  canvas.height = 32;
  const context = canvas.getContext('2d') as CanvasRenderingContext2D;
  context.fillStyle = '#6a3';
  context.fillRect(0, 0, 64, 32);
  context.fillStyle = '#c24';
  context.font = '14px sans-serif';
  context.fillText('Identity ✓', 2, 20);
  const first = context.getImageData(0, 0, 64, 32).data.join();
  const second = context.getImageData(0, 0, 64, 32).data.join();
  const shownOnce = canvas.toDataURL();
  context.putImageData(context.getImageData(0, 0, 64, 32), 0, 0);
  const roundTrip = canvas.toDataURL() === shownOnce;

  let webglAgrees = true;
  let webgl: DetectorReading['webgl'] = null;
  const gl = document.createElement('canvas').getContext('webgl', { preserveDrawingBuffer: true });
  if (gl) {
    gl.clearColor(0.3, 0.6, 0.2, 1);
    gl.clear(gl.COLOR_BUFFER_BIT);
    const read = () => {
      const pixels = new Uint8Array(gl.drawingBufferWidth * gl.drawingBufferHeight * 4);
      gl.readPixels(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
      return pixels.join();
    };
    const once = read();
    webglAgrees = read() === once;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    webgl = {
      renderer: info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '',
      max_texture_size: gl.getParameter(gl.MAX_TEXTURE_SIZE) as number,
      extensions: gl.getSupportedExtensions()?.length ?? 0,
    };
  }

  const audio = new OfflineAudioContext(1, 4410, 44100);
  const oscillator = audio.createOscillator();
  oscillator.frequency.value = 1000;
  oscillator.connect(audio.destination);
  oscillator.start();
  const rendered = await audio.startRendering();
  const copied = new Float32Array(rendered.length);
  rendered.copyFromChannel(copied, 0);
  const audioAgrees = copied.join() === rendered.getChannelData(0).join();

  const nav = navigator as Navigator & {
    deviceMemory?: number;
    userAgentData?: { getHighEntropyValues(hints: string[]): Promise<{ formFactors?: string[] }> };
  };
  const memory = (performance as Performance & { memory?: { jsHeapSizeLimit: number } }).memory;
  const high = await nav.userAgentData?.getHighEntropyValues(['formFactors']);
  const screenArea = screen as Screen & { availLeft?: number; availTop?: number };
  return {
    shown_replaced: shown,
    wrong_receiver: wrongReceiver,
    injected_frames: frames,
    read_backs: {
      canvas: first === second,
      canvas_round_trip: roundTrip,
      webgl: webglAgrees,
      audio: audioAgrees,
    },
    webgl,
    heap_limit_gb: memory ? memory.jsHeapSizeLimit / 2 ** 30 : null,
    memory_gb: nav.deviceMemory ?? null,
    form_factors: high?.formFactors ?? null,
    intl_locale: Intl.DateTimeFormat().resolvedOptions().locale,
    languages: [...navigator.languages],
    window_overflow: {
      right: Math.max(0, screenX + outerWidth - ((screenArea.availLeft ?? 0) + screen.availWidth)),
      bottom: Math.max(0, screenY + outerHeight - ((screenArea.availTop ?? 0) + screen.availHeight)),
    },
  };
}
