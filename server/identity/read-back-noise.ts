/**
 * The profile's read-back noise (canvas, WebGL, audio), run in every realm by the injected script. Noise is a pure
 * function of the seed and the value read: it sets the lowest bit of an opaque pixel's channel, or of an audio
 * sample, from a hash of the seed and the value's other bits. So it is the same on every start, through every
 * route and for any rectangle read; a value read, written back and read again stays as first read; transparent
 * pixels and silence (zeros) stay as the browser made them.
 */

/** What the injected script hands over: its captured intrinsics and its way of replacing a method. */
export interface NoiseKit {
  seed: number;
  scope: Record<string, { prototype: object } | undefined>;
  replaceMethod(
    owner: object | undefined,
    name: string,
    after: (answer: unknown, self: unknown, args: unknown[]) => unknown,
    call?: (original: (...args: unknown[]) => unknown, self: unknown, args: unknown[]) => unknown,
  ): void;
}

/** Varies the opaque pixels of `words` (RGBA bytes read as little-endian words) from `from` to `to`. */
export function varyPixels(words: Uint32Array, from: number, to: number, seed: number): boolean {
  let lastIn = -1;
  let lastOut = 0;
  let changed = false;
  for (let index = from; index < to; index += 1) {
    const word = words[index] as number;
    if (word >>> 24 !== 0xff) continue;
    if (word !== lastIn) {
      let hash = ((word & 0xfefefe) ^ seed) >>> 0;
      hash = ((hash * 0x9e3b5) ^ (hash >>> 15) ^ seed) >>> 0;
      hash = ((hash * 0x5bd1f) ^ (hash >>> 13)) >>> 0;
      const shift = ((hash >>> 8) % 3) * 8;
      lastIn = word;
      lastOut = ((word & ~(1 << shift)) | (((hash >>> 4) & 1) << shift)) >>> 0;
    }
    if (lastOut !== word) {
      words[index] = lastOut;
      changed = true;
    }
  }
  return changed;
}

/** Varies the non-zero, finite samples of `bits` (float32 samples read as words). */
export function varySamples(bits: Uint32Array, count: number, seed: number): void {
  for (let index = 0; index < count; index += 1) {
    const word = bits[index] as number;
    if ((word & 0x7fffffff) === 0 || (word & 0x7f800000) === 0x7f800000) continue;
    let hash = ((word >>> 1) ^ seed) >>> 0;
    hash = ((hash * 0x9e3b5) ^ (hash >>> 15) ^ seed) >>> 0;
    hash = ((hash * 0x5bd1f) ^ (hash >>> 13)) >>> 0;
    bits[index] = ((word & ~1) | ((hash >>> 4) & 1)) >>> 0;
  }
}

// Runs in the page: every call below goes through an intrinsic captured here, before any page script ran, so
// that no page can see it run (a spy on drawImage, createElement or a width getter never fires).
export function installReadBackNoise(kit: NoiseKit): void {
  const { seed, scope, replaceMethod } = kit;
  const { apply, construct, getOwnPropertyDescriptor, getPrototypeOf } = Reflect;
  const least = Math.min;
  const member = (owner: string, name: string, kind: 'value' | 'get' | 'set' = 'value') => {
    const prototype = scope[owner]?.prototype;
    const descriptor = prototype && getOwnPropertyDescriptor(prototype, name);
    return descriptor?.[kind] as ((...args: unknown[]) => unknown) | undefined;
  };
  const typedArray = getPrototypeOf(Uint8Array.prototype) as object;
  const typed = (name: string) => getOwnPropertyDescriptor(typedArray, name)?.get as () => unknown;
  const [bufferOf, byteOffsetOf, lengthOf, kindOf] = [
    typed('buffer'),
    typed('byteOffset'),
    typed('length'),
    getOwnPropertyDescriptor(typedArray, Symbol.toStringTag)?.get as () => unknown,
  ];
  const Words = Uint32Array;
  const wordsOf = (array: unknown, from: number, count: number): Uint32Array | null => {
    const offset = (apply(byteOffsetOf, array, []) as number) + from;
    if (offset % 4 !== 0) return null;
    return construct(Words, [apply(bufferOf, array, []), offset, count]);
  };
  const imageDataOf = member('ImageData', 'data', 'get');
  function varyImage(image: unknown): boolean {
    const data = imageDataOf && apply(imageDataOf, image, []);
    if (apply(kindOf, data, []) !== 'Uint8ClampedArray') return false;
    const count = (apply(lengthOf, data, []) as number) / 4;
    const words = wordsOf(data, 0, count);
    return words !== null && varyPixels(words, 0, count, seed);
  }

  type Call = (...args: unknown[]) => unknown;
  /** A kind of canvas a copy is drawn on, with its own and its context's methods as the browser made them. */
  const kindOf2d = (canvas: string, context: string, make: () => unknown) => ({
    width: member(canvas, 'width', 'get'),
    height: member(canvas, 'height', 'get'),
    setWidth: member(canvas, 'width', 'set'),
    setHeight: member(canvas, 'height', 'set'),
    getContext: member(canvas, 'getContext'),
    drawImage: member(context, 'drawImage'),
    getImageData: member(context, 'getImageData'),
    putImageData: member(context, 'putImageData'),
    make,
    made: null as { copy: unknown; context: unknown } | null,
  });
  const createElement = member('Document', 'createElement');
  const Offscreen = scope.OffscreenCanvas as unknown as
    | (new (
        width: number,
        height: number,
      ) => object)
    | undefined;
  const kinds = {
    element: kindOf2d('HTMLCanvasElement', 'CanvasRenderingContext2D', () =>
      createElement && typeof document === 'object' ? apply(createElement, document, ['canvas']) : null,
    ),
    offscreen: kindOf2d('OffscreenCanvas', 'OffscreenCanvasRenderingContext2D', () =>
      Offscreen ? construct(Offscreen, [1, 1]) : null,
    ),
  };
  type Kind = (typeof kinds)['element'];
  /** The realm's one copy of each kind, made on first use. */
  const copyOf = (kind: Kind) => {
    if (kind.made) return kind.made;
    const copy = kind.make();
    const options = { __proto__: null, willReadFrequently: true };
    const context = copy && kind.getContext && apply(kind.getContext, copy, ['2d', options]);
    if (context) kind.made = { copy, context };
    return kind.made;
  };

  /** A copy of `source` with the noise in its pixels, or null where it has none (nothing opaque, or no copy). */
  function variedCopy(kind: Kind, source: unknown, width: number, height: number): unknown {
    const { setWidth, setHeight, drawImage, getImageData, putImageData } = kind;
    const made = width > 0 && height > 0 ? copyOf(kind) : null;
    if (!made || !setWidth || !setHeight || !drawImage || !getImageData || !putImageData) return null;
    const { copy, context } = made;
    apply(setWidth, copy, [width]);
    apply(setHeight, copy, [height]);
    apply(drawImage, context, [source, 0, 0]);
    const image = apply(getImageData, context, [0, 0, width, height]);
    if (!varyImage(image)) return null;
    apply(putImageData, context, [image, 0, 0]);
    return copy;
  }
  const exportVaried = (kind: Kind) => (original: Call, self: unknown, args: unknown[]) => {
    // The browser's own getters: its own "Illegal invocation" for anything but a canvas, before anything else.
    const width = kind.width ? (apply(kind.width, self, []) as number) : 0;
    const height = kind.height ? (apply(kind.height, self, []) as number) : 0;
    const copy = variedCopy(kind, self, width, height);
    if (copy === null) return apply(original, self, args);
    try {
      return apply(original, copy, args);
    } finally {
      // The copy's pixels go; an export that finishes later took its own copy of them.
      apply(kind.setWidth as Call, copy, [0]);
    }
  };
  const same = (answer: unknown) => answer;
  // After the copies took the browser's own getImageData.
  for (const owner of ['CanvasRenderingContext2D', 'OffscreenCanvasRenderingContext2D'])
    replaceMethod(scope[owner]?.prototype, 'getImageData', (image) => {
      varyImage(image);
      return image;
    });
  for (const name of ['toDataURL', 'toBlob'])
    replaceMethod(scope.HTMLCanvasElement?.prototype, name, same, exportVaried(kinds.element));
  replaceMethod(scope.OffscreenCanvas?.prototype, 'convertToBlob', same, exportVaried(kinds.offscreen));

  const RGBA = 0x1908;
  const UNSIGNED_BYTE = 0x1401;
  for (const owner of ['WebGLRenderingContext', 'WebGL2RenderingContext'])
    replaceMethod(scope[owner]?.prototype, 'readPixels', (answer, _self, args) => {
      const pixels = args[6];
      if (args[4] !== RGBA || args[5] !== UNSIGNED_BYTE || apply(kindOf, pixels, []) !== 'Uint8Array')
        return answer;
      const offset = (args[7] as number) | 0;
      const room = (((apply(lengthOf, pixels, []) as number) - offset) / 4) | 0;
      const asked = ((args[2] as number) * (args[3] as number)) | 0;
      const count = least(asked, room);
      const words = count > 0 ? wordsOf(pixels, offset, count) : null;
      if (words) varyPixels(words, 0, count, seed);
      return answer;
    });

  // Audio: each buffer's samples varied once, before its first read (what a page writes after stays as written).
  const varied = new WeakSet<object>();
  const [seen, see] = [WeakSet.prototype.has, WeakSet.prototype.add];
  const ownGetChannelData = member('AudioBuffer', 'getChannelData');
  const ownChannels = member('AudioBuffer', 'numberOfChannels', 'get');
  function varyBuffer(buffer: object): void {
    if (!ownGetChannelData || !ownChannels || apply(seen, varied, [buffer])) return;
    apply(see, varied, [buffer]);
    const channels = apply(ownChannels, buffer, []) as number;
    for (let channel = 0; channel < channels; channel += 1) {
      const samples = apply(ownGetChannelData, buffer, [channel]);
      const count = apply(lengthOf, samples, []) as number;
      const words = wordsOf(samples, 0, count);
      if (words) varySamples(words, count, seed);
    }
  }
  const bufferFirst = (original: (...args: unknown[]) => unknown, self: unknown, args: unknown[]) => {
    if (ownChannels) apply(ownChannels, self, []);
    varyBuffer(self as object);
    return apply(original, self, args);
  };
  for (const name of ['getChannelData', 'copyFromChannel'])
    replaceMethod(scope.AudioBuffer?.prototype, name, same, bufferFirst);
}
