/** What a page or worker learns from script alone, for surfaces Chromium has no override for. */
export interface InjectedValues {
  /** Only where Chromium's own override cannot reach (workers); null leaves the browser's. */
  cpuCores: number | null;
  memoryGb: number;
  webglVendor: string;
  webglRenderer: string;
  seed: number;
}

/**
 * Source run in every page, frame and worker before their own scripts. It replaces a few read-outs on the
 * prototypes (where the browser keeps them), with functions that present themselves as the browser's own:
 * same name, length and `toString()`, no `prototype`, not constructible, and the same in window and worker.
 * Read-back of canvas, WebGL and audio is varied by the profile's seed: the same on every start, different
 * between profiles, and never varying within one page (a check that renders twice sees the same answer).
 */
export function injectedScript(values: InjectedValues): string {
  // A TypeScript runner may wrap named functions in a `__name` helper of its own: a local one stands in for it.
  return `(() => { const __name = (f) => f; (${install.toString()})(${JSON.stringify(values)}); })();`;
}

// Runs in the page: only what every scope has (no DOM assumed), and nothing left on the global object.
function install(values: InjectedValues): void {
  const scope = globalThis as unknown as Record<string, { prototype: object } | undefined>;
  const nativeText = new WeakMap<object, string>();
  const originalToString = Function.prototype.toString;
  const nativeLooking = {
    toString(this: unknown) {
      const text = typeof this === 'function' ? nativeText.get(this) : undefined;
      return text ?? Reflect.apply(originalToString, this, []);
    },
  }.toString;
  nativeText.set(nativeLooking, 'function toString() { [native code] }');
  Object.defineProperty(Function.prototype, 'toString', {
    ...Object.getOwnPropertyDescriptor(Function.prototype, 'toString'),
    value: nativeLooking,
  });

  function replaceGetter(
    owner: object | undefined,
    name: string,
    value: (original: () => unknown) => unknown,
  ) {
    const descriptor = owner && Object.getOwnPropertyDescriptor(owner, name);
    const original = descriptor?.get;
    if (!owner || !descriptor || !original) return;
    const { get } = Object.getOwnPropertyDescriptor(
      {
        get [name]() {
          // On a wrong receiver the browser's own getter throws its own TypeError.
          const own = Reflect.apply(original, this, []);
          return value(() => own);
        },
      },
      name,
    ) as PropertyDescriptor;
    nativeText.set(get as object, `function get ${name}() { [native code] }`);
    Object.defineProperty(owner, name, { ...descriptor, get });
  }

  function replaceMethod(
    owner: object | undefined,
    name: string,
    wrap: (original: (...args: unknown[]) => unknown) => (this: unknown, ...args: unknown[]) => unknown,
  ) {
    const descriptor = owner && Object.getOwnPropertyDescriptor(owner, name);
    const original = descriptor?.value as ((...args: unknown[]) => unknown) | undefined;
    if (!owner || !descriptor || typeof original !== 'function') return;
    const body = wrap(original);
    // A method of an object literal: named, not constructible, no prototype, like the browser's.
    const method = {
      [name](this: unknown, ...args: unknown[]) {
        return Reflect.apply(body, this, args);
      },
    }[name] as (...args: unknown[]) => unknown;
    Object.defineProperty(method, 'length', { value: original.length });
    nativeText.set(method, `function ${name}() { [native code] }`);
    Object.defineProperty(owner, name, { ...descriptor, value: method });
  }

  const navigatorPrototype = (scope.Navigator ?? scope.WorkerNavigator)?.prototype;
  replaceGetter(navigatorPrototype, 'deviceMemory', () => values.memoryGb);
  if (values.cpuCores !== null)
    replaceGetter(navigatorPrototype, 'hardwareConcurrency', () => values.cpuCores);

  // WebGL: the unmasked vendor and renderer name the profile's GPU, not the host's software renderer.
  const UNMASKED_VENDOR = 0x9245;
  const UNMASKED_RENDERER = 0x9246;
  for (const context of [scope.WebGLRenderingContext, scope.WebGL2RenderingContext])
    replaceMethod(
      context?.prototype,
      'getParameter',
      (original) =>
        function (this: unknown, ...args: unknown[]) {
          const answer = Reflect.apply(original, this, args);
          if (args[0] === UNMASKED_VENDOR && typeof answer === 'string') return values.webglVendor;
          if (args[0] === UNMASKED_RENDERER && typeof answer === 'string') return values.webglRenderer;
          return answer;
        },
    );

  /** A few low bits of the pixels the seed picks, changed the same way every time. */
  function vary(data: Uint8ClampedArray | Uint8Array): void {
    let state = values.seed >>> 0;
    for (let offset = 0; offset < data.length; offset += 4) {
      state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + offset) >>> 0;
      if ((state & 31) !== 0 || data[offset + 3] === 0) continue;
      const channel = offset + ((state >>> 5) % 3);
      data[channel] = (data[channel] as number) ^ 1;
    }
  }

  // The browser's own getImageData of each 2D context, kept before it is replaced.
  const ownGetImageData = new Map<object, unknown>();
  for (const context of [scope.CanvasRenderingContext2D, scope.OffscreenCanvasRenderingContext2D]) {
    const prototype = context?.prototype as { getImageData?: unknown } | undefined;
    if (!prototype?.getImageData) continue;
    ownGetImageData.set(prototype, prototype.getImageData);
    replaceMethod(
      prototype,
      'getImageData',
      (original) =>
        function (this: unknown, ...args: unknown[]) {
          const image = Reflect.apply(original, this, args) as ImageData;
          vary(image.data);
          return image;
        },
    );
  }

  /** A copy of the canvas whose pixels were varied (the canvas itself stays as drawn); null if none can be made. */
  function variedCopy<T extends HTMLCanvasElement | OffscreenCanvas>(source: T): T | null {
    if (source.width === 0 || source.height === 0) return null;
    const copy = (
      typeof HTMLCanvasElement === 'function' && source instanceof HTMLCanvasElement
        ? Object.assign(document.createElement('canvas'), { width: source.width, height: source.height })
        : new OffscreenCanvas(source.width, source.height)
    ) as T;
    const context = copy.getContext('2d') as CanvasRenderingContext2D | null;
    const getImageData = context && ownGetImageData.get(Object.getPrototypeOf(context));
    if (!context || typeof getImageData !== 'function') return null;
    context.drawImage(source, 0, 0);
    const image = Reflect.apply(getImageData, context, [0, 0, source.width, source.height]) as ImageData;
    vary(image.data);
    context.putImageData(image, 0, 0);
    return copy;
  }

  for (const name of ['toDataURL', 'toBlob'])
    replaceMethod(
      scope.HTMLCanvasElement?.prototype,
      name,
      (original) =>
        function (this: unknown, ...args: unknown[]) {
          return Reflect.apply(original, variedCopy(this as HTMLCanvasElement) ?? this, args);
        },
    );
  replaceMethod(
    scope.OffscreenCanvas?.prototype,
    'convertToBlob',
    (original) =>
      function (this: unknown, ...args: unknown[]) {
        return Reflect.apply(original, variedCopy(this as OffscreenCanvas) ?? this, args);
      },
  );
  for (const context of [scope.WebGLRenderingContext, scope.WebGL2RenderingContext])
    replaceMethod(
      context?.prototype,
      'readPixels',
      (original) =>
        function (this: unknown, ...args: unknown[]) {
          const answer = Reflect.apply(original, this, args);
          const pixels = args[6];
          if (pixels instanceof Uint8Array) vary(pixels);
          return answer;
        },
    );

  // Audio: each rendered buffer's samples moved by less than a rounding step, once per buffer.
  const variedBuffers = new WeakSet<object>();
  replaceMethod(
    scope.AudioBuffer?.prototype,
    'getChannelData',
    (original) =>
      function (this: unknown, ...args: unknown[]) {
        const samples = Reflect.apply(original, this, args) as Float32Array;
        if (!variedBuffers.has(samples)) {
          variedBuffers.add(samples);
          const step = 1e-7 * (1 + (values.seed % 97));
          for (let index = 0; index < samples.length; index += 100)
            samples[index] = (samples[index] as number) + step;
        }
        return samples;
      },
  );
}
