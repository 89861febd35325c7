/** What a page or worker learns from script alone, for surfaces Chromium has no override for. */
export interface InjectedValues {
  /** Only where Chromium's own override cannot reach (workers); null leaves the browser's. */
  cpuCores: number | null;
  memoryGb: number;
  /** Null: the host's own GPU shows, as its limits and extensions do. */
  webgl: { vendor: string; renderer: string } | null;
  seed: number;
  /** A word only this start's script knows: it asks a realm's toString whether it was installed there already. */
  nonce: string;
}

/**
 * Source run in every page, frame and worker before their own scripts. It replaces as few read-outs as it can,
 * each with a function no realm can tell from the browser's own: `toString()` answers `[native code]` whichever
 * realm's `Function.prototype.toString` asks (each realm's asks the function's own realm), a wrong receiver gets
 * the browser's own "Illegal invocation" before anything else runs, and an error leaves no frame of this script in
 * its stack. It installs itself once per realm, whoever runs it how often. Read-back of canvas, WebGL and audio is
 * varied by the profile's seed: the same on every start, different between profiles, and the same however often
 * or by which route a page reads it back.
 */
export function injectedScript(values: InjectedValues): string {
  // A TypeScript runner may wrap named functions in a `__name` helper of its own: a local one stands in for it.
  return `(() => { const __name = (f) => f; (${install.toString()})(${JSON.stringify(values)}); })();`;
}

// Runs in the page: only what every scope has (no DOM assumed), and nothing visible left on the global object.
function install(values: InjectedValues): void {
  const scope = globalThis as unknown as Record<string, { prototype: object } | undefined>;
  const functionPrototype = Function.prototype;
  const originalToString = functionPrototype.toString;
  const { apply, getPrototypeOf, getOwnPropertyDescriptor, defineProperty } = Reflect;
  // Installed already in this realm (a second path ran it again): its toString answers the nonce for it.
  const question = { [values.nonce]: true };
  try {
    if (apply(originalToString, question, []) === values.nonce) return;
  } catch {
    // The browser's own toString: nothing installed yet.
  }

  const nativeText = new WeakMap<object, string>();
  let asking = false;
  const nativeLooking = {
    toString(this: unknown) {
      if (typeof this === 'object' && this !== null && getOwnPropertyDescriptor(this, values.nonce))
        return values.nonce;
      if (typeof this === 'function') {
        const text = nativeText.get(this);
        if (text !== undefined) return text;
        // A function of another realm: that realm's own toString knows whether it replaced it.
        const home = getPrototypeOf(this) as { toString?: unknown } | null;
        if (!asking && home !== null && home !== functionPrototype) {
          const theirs = getOwnPropertyDescriptor(home, 'toString')?.value;
          if (typeof theirs === 'function' && theirs !== nativeLooking)
            try {
              asking = true;
              return apply(theirs as () => string, this, []);
            } finally {
              asking = false;
            }
        }
      }
      return apply(originalToString, this, []);
    },
  }.toString;
  nativeText.set(nativeLooking, 'function toString() { [native code] }');
  defineProperty(functionPrototype, 'toString', {
    ...getOwnPropertyDescriptor(functionPrototype, 'toString'),
    value: nativeLooking,
  });

  /** The error as the browser's own function would have thrown it: without this script's frame on top. */
  function withoutOwnFrame(error: unknown, name: string): unknown {
    const stack = error instanceof Error ? getOwnPropertyDescriptor(error, 'stack') : undefined;
    if (!stack || typeof (error as Error).stack !== 'string') return error;
    const lines = ((error as Error).stack as string).split('\n');
    const own = lines.findIndex((line) => line.includes(name) && line.includes('<anonymous>'));
    if (own <= 0) return error;
    // The replacement's frame, and the helpers it called above it (named or not: all of this script's frames
    // are <anonymous>, and nothing but this script runs between the browser's function and its replacement).
    let first = own;
    const ownFrame = /^\s+at (?:\S+ \()?<anonymous>:\d+:\d+\)?$/;
    while (first > 1 && ownFrame.test(lines[first - 1] as string)) first -= 1;
    lines.splice(first, own - first + 1);
    (error as Error).stack = lines.join('\n');
    return error;
  }

  function replaceGetter(owner: object | undefined, name: string, value: () => unknown) {
    const descriptor = owner && getOwnPropertyDescriptor(owner, name);
    const original = descriptor?.get;
    if (!owner || !descriptor || !original) return;
    const { get } = getOwnPropertyDescriptor(
      {
        get [name]() {
          // On a wrong receiver the browser's own getter throws its own TypeError.
          try {
            apply(original, this, []);
          } catch (error) {
            throw withoutOwnFrame(error, name);
          }
          return value();
        },
      },
      name,
    ) as PropertyDescriptor;
    nativeText.set(get as object, `function get ${name}() { [native code] }`);
    defineProperty(owner, name, { ...descriptor, get });
  }

  /**
   * `receiver` is a native call that throws the browser's own error for a wrong `this` (the original itself, or a
   * cheap read-out of the same interface), run before `after` touches anything.
   */
  function replaceMethod(
    owner: object | undefined,
    name: string,
    after: (answer: unknown, self: unknown, args: unknown[]) => unknown,
    call?: (original: (...args: unknown[]) => unknown, self: unknown, args: unknown[]) => unknown,
  ) {
    const descriptor = owner && getOwnPropertyDescriptor(owner, name);
    const original = descriptor?.value as ((...args: unknown[]) => unknown) | undefined;
    if (!owner || !descriptor || typeof original !== 'function') return;
    // A method of an object literal: named, not constructible, no prototype, like the browser's.
    const method = {
      [name](this: unknown, ...args: unknown[]) {
        let answer: unknown;
        try {
          answer = call ? call(original, this, args) : apply(original, this, args);
        } catch (error) {
          throw withoutOwnFrame(error, name);
        }
        return after(answer, this, args);
      },
    }[name] as (...args: unknown[]) => unknown;
    defineProperty(method, 'length', { value: original.length });
    nativeText.set(method, `function ${name}() { [native code] }`);
    defineProperty(owner, name, { ...descriptor, value: method });
  }

  const same = (answer: unknown) => answer;
  const navigatorPrototype = (scope.Navigator ?? scope.WorkerNavigator)?.prototype;
  const ownMemory = navigatorPrototype && getOwnPropertyDescriptor(navigatorPrototype, 'deviceMemory')?.get;
  // The host's own memory is shown as it is: nothing to replace.
  if (ownMemory && apply(ownMemory, navigator, []) !== values.memoryGb)
    replaceGetter(navigatorPrototype, 'deviceMemory', () => values.memoryGb);
  if (values.cpuCores !== null && navigator.hardwareConcurrency !== values.cpuCores)
    replaceGetter(navigatorPrototype, 'hardwareConcurrency', () => values.cpuCores);

  // WebGL: a GPU named by the identity (older ones did) replaces the unmasked vendor and renderer.
  const UNMASKED_VENDOR = 0x9245;
  const UNMASKED_RENDERER = 0x9246;
  const { webgl } = values;
  if (webgl)
    for (const context of [scope.WebGLRenderingContext, scope.WebGL2RenderingContext])
      replaceMethod(context?.prototype, 'getParameter', (answer, _self, args) => {
        if (args[0] === UNMASKED_VENDOR && typeof answer === 'string') return webgl.vendor;
        if (args[0] === UNMASKED_RENDERER && typeof answer === 'string') return webgl.renderer;
        return answer;
      });

  /**
   * A few low bits of the pixels the seed picks, set the same way every time (not flipped: a pixel read back,
   * written and read again stays as the first read-back showed it).
   */
  function vary(data: Uint8ClampedArray | Uint8Array): void {
    let state = values.seed >>> 0;
    for (let offset = 0; offset < data.length; offset += 4) {
      state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + offset) >>> 0;
      if ((state & 31) !== 0 || data[offset + 3] === 0) continue;
      const channel = offset + ((state >>> 5) % 3);
      data[channel] = ((data[channel] as number) & 0xfe) | ((state >>> 7) & 1);
    }
  }

  // The browser's own getImageData of each 2D context, kept before it is replaced.
  const ownGetImageData = new Map<object, unknown>();
  for (const context of [scope.CanvasRenderingContext2D, scope.OffscreenCanvasRenderingContext2D]) {
    const prototype = context?.prototype as { getImageData?: unknown } | undefined;
    if (!prototype?.getImageData) continue;
    ownGetImageData.set(prototype, prototype.getImageData);
    replaceMethod(prototype, 'getImageData', (image) => {
      vary((image as ImageData).data);
      return image;
    });
  }

  /**
   * A copy of the canvas whose pixels were varied (the canvas itself stays as drawn); null if none can be made.
   * `element`: the source is a canvas element, of this realm or another (a frame's `toDataURL` called on the
   * page's canvas works as the browser's does), which `instanceof` would not tell.
   */
  function variedCopy<T extends HTMLCanvasElement | OffscreenCanvas>(source: T, element: boolean): T | null {
    if (source.width === 0 || source.height === 0) return null;
    const copy = (
      element
        ? Object.assign(document.createElement('canvas'), { width: source.width, height: source.height })
        : new OffscreenCanvas(source.width, source.height)
    ) as T;
    const context = copy.getContext('2d') as CanvasRenderingContext2D | null;
    const getImageData = context && ownGetImageData.get(getPrototypeOf(context) as object);
    if (!context || typeof getImageData !== 'function') return null;
    context.drawImage(source, 0, 0);
    const image = apply(getImageData, context, [0, 0, source.width, source.height]) as ImageData;
    vary(image.data);
    context.putImageData(image, 0, 0);
    return copy;
  }

  /** The browser's own `width` of the canvas: its own "Illegal invocation" for anything but a canvas. */
  const widthOf = (owner: { prototype: object } | undefined) => {
    const get = owner && getOwnPropertyDescriptor(owner.prototype, 'width')?.get;
    return (self: unknown) => get && apply(get, self, []);
  };
  const canvasWidth = widthOf(scope.HTMLCanvasElement);
  for (const name of ['toDataURL', 'toBlob'])
    replaceMethod(scope.HTMLCanvasElement?.prototype, name, same, (original, self, args) => {
      canvasWidth(self);
      return apply(original, variedCopy(self as HTMLCanvasElement, true) ?? self, args);
    });
  const offscreenWidth = widthOf(scope.OffscreenCanvas);
  replaceMethod(scope.OffscreenCanvas?.prototype, 'convertToBlob', same, (original, self, args) => {
    offscreenWidth(self);
    return apply(original, variedCopy(self as OffscreenCanvas, false) ?? self, args);
  });
  for (const context of [scope.WebGLRenderingContext, scope.WebGL2RenderingContext])
    replaceMethod(context?.prototype, 'readPixels', (answer, _self, args) => {
      if (args[6] instanceof Uint8Array) vary(args[6]);
      return answer;
    });

  // Audio: each rendered buffer's samples moved by less than a rounding step, once per buffer, before any read.
  const variedBuffers = new WeakSet<object>();
  const bufferPrototype = scope.AudioBuffer?.prototype as AudioBuffer | undefined;
  const ownGetChannelData = bufferPrototype?.getChannelData;
  const ownChannels = bufferPrototype && getOwnPropertyDescriptor(bufferPrototype, 'numberOfChannels')?.get;
  function varyBuffer(buffer: AudioBuffer): void {
    if (!ownGetChannelData || !ownChannels || variedBuffers.has(buffer)) return;
    variedBuffers.add(buffer);
    const step = 1e-7 * (1 + (values.seed % 97));
    const channels = apply(ownChannels, buffer, []) as number;
    for (let channel = 0; channel < channels; channel += 1) {
      const samples = apply(ownGetChannelData, buffer, [channel]) as Float32Array;
      for (let index = 0; index < samples.length; index += 100)
        samples[index] = (samples[index] as number) + step;
    }
  }
  const bufferFirst = (original: (...args: unknown[]) => unknown, self: unknown, args: unknown[]) => {
    if (ownChannels) apply(ownChannels, self, []);
    varyBuffer(self as AudioBuffer);
    return apply(original, self, args);
  };
  for (const name of ['getChannelData', 'copyFromChannel'])
    replaceMethod(bufferPrototype, name, same, bufferFirst);
}
