import type { varyPixels } from './blended-pixels';

/**
 * The profile's read-back noise (canvas, WebGL, audio), run in every realm by the injected script. Noise is a pure
 * function of the seed and the value read: it sets the lowest bit of a blended pixel's channel, or of an audio
 * sample, from a hash of the seed and the value's other bits. A pixel is blended where real rendering differs
 * between machines (anti-aliased edges, text, gradients): see `varyPixels`. Solid areas, sharp edges and pixels of
 * unrelated colours (what a page that checks its own `fillRect`s draws) read back exactly as drawn. The noise is
 * the same on every start, through every route and for any rectangle read (a rectangle is read with its
 * neighbours); a value read, written back and read again stays as first read; transparent pixels and silence
 * (zeros) stay as the browser made them.
 */

/** Pixels of a rectangle at (x, y) of a read, in the read's coordinates, as words; null where they cannot be read. */
type Around = (x: number, y: number, width: number, height: number) => Uint32Array | null;

/** What the injected script hands over: its captured intrinsics and its way of replacing a method. */
export interface NoiseKit {
  seed: number;
  /** Handed over, not imported: a test runner rewrites what one module imports from another. */
  varyPixels: typeof varyPixels;
  scope: Record<string, { prototype: object } | undefined>;
  replaceMethod(
    owner: object | undefined,
    name: string,
    after: (answer: unknown, self: unknown, args: unknown[]) => unknown,
    call?: (original: (...args: unknown[]) => unknown, self: unknown, args: unknown[]) => unknown,
  ): void;
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
  const { seed, scope, replaceMethod, varyPixels } = kit;
  const { apply, construct, getOwnPropertyDescriptor, getPrototypeOf } = Reflect;
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
  const [imageDataOf, imageWidthOf, imageHeightOf] = [
    member('ImageData', 'data', 'get'),
    member('ImageData', 'width', 'get'),
    member('ImageData', 'height', 'get'),
  ];
  /** An image's pixels as words, with its size; null for any but 8-bit RGBA. */
  function pixelsOf(image: unknown): { words: Uint32Array; width: number; height: number } | null {
    const data = imageDataOf && apply(imageDataOf, image, []);
    if (!imageWidthOf || !imageHeightOf || apply(kindOf, data, []) !== 'Uint8ClampedArray') return null;
    const width = apply(imageWidthOf, image, []) as number;
    const height = apply(imageHeightOf, image, []) as number;
    const words = wordsOf(data, 0, width * height);
    return words && { words, width, height };
  }
  /**
   * Varies a rectangle read as the whole canvas varies it: its inside from its own pixels, each edge from a strip
   * three pixels wide read anew with the canvas's pixels around it (`around`, in the read's coordinates).
   */
  function varyRead(words: Uint32Array, width: number, height: number, around: Around): void {
    if (width < 3 || height < 3) {
      const padded = around(-1, -1, width + 2, height + 2);
      if (padded && varyPixels(padded, width + 2, height + 2, 1, seed))
        for (let y = 0; y < height; y += 1)
          for (let x = 0; x < width; x += 1)
            words[y * width + x] = padded[(y + 1) * (width + 2) + x + 1] as number;
      return;
    }
    varyPixels(words, width, height, 1, seed);
    const row = (y: number) => {
      const strip = around(-1, y - 1, width + 2, 3);
      if (strip && varyPixels(strip, width + 2, 3, 1, seed))
        for (let x = 0; x < width; x += 1) words[y * width + x] = strip[width + 3 + x] as number;
    };
    const column = (x: number) => {
      const strip = around(x - 1, -1, 3, height + 2);
      if (strip && varyPixels(strip, 3, height + 2, 1, seed))
        for (let y = 0; y < height; y += 1) words[y * width + x] = strip[(y + 1) * 3 + 1] as number;
    };
    row(0);
    row(height - 1);
    column(0);
    column(width - 1);
  }
  /** A page's own rectangle argument, converted as the browser converts a `long`, or null where that runs its code. */
  const long = (value: unknown) =>
    (typeof value === 'object' && value !== null) || typeof value === 'function' || typeof value === 'symbol'
      ? null
      : (value as number) | 0;
  /** Where a rectangle read starts: a negative size reads back from its corner. */
  const start = (corner: number | null, size: number | null) =>
    corner === null || size === null ? null : size < 0 ? corner + size : corner;

  type Call = (...args: unknown[]) => unknown;
  /** A kind of canvas a copy is drawn on, with its own and its context's methods as the browser made them. */
  const kindOf2d = (canvas: string, context: string, make: () => unknown) => ({
    width: member(canvas, 'width', 'get'),
    height: member(canvas, 'height', 'get'),
    setWidth: member(canvas, 'width', 'set'),
    setHeight: member(canvas, 'height', 'set'),
    getContext: member(canvas, 'getContext'),
    canvasOf: member(context, 'canvas', 'get'),
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
    const pixels = pixelsOf(image);
    if (!pixels || !varyPixels(pixels.words, width, height, 0, seed)) return null;
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
  /** A read of the whole canvas has nothing around it: it varies as an export does, with no strips read again. */
  const wholeCanvas = (kind: Kind, context: unknown, width: number, height: number) => {
    const canvas = kind.canvasOf && apply(kind.canvasOf, context, []);
    return (
      !!canvas &&
      !!kind.width &&
      !!kind.height &&
      apply(kind.width, canvas, []) === width &&
      apply(kind.height, canvas, []) === height
    );
  };
  // After the copies took the browser's own getImageData.
  // A rectangle is read again with its neighbours: its pixels vary as they do in the whole canvas.
  const readVaried = (kind: Kind) => (image: unknown, self: unknown, args: unknown[]) => {
    const { getImageData } = kind;
    const pixels = pixelsOf(image);
    if (!pixels || !getImageData) return image;
    const { words, width, height } = pixels;
    const left = start(long(args[0]), long(args[2]));
    const top = start(long(args[1]), long(args[3]));
    if (left === null || top === null || (left === 0 && top === 0 && wholeCanvas(kind, self, width, height)))
      varyPixels(words, width, height, 0, seed);
    else
      varyRead(words, width, height, (x, y, stripWidth, stripHeight) => {
        const strip = apply(getImageData, self, [left + x, top + y, stripWidth, stripHeight, args[4]]);
        return pixelsOf(strip)?.words ?? null;
      });
    return image;
  };
  replaceMethod(scope.CanvasRenderingContext2D?.prototype, 'getImageData', readVaried(kinds.element));
  replaceMethod(
    scope.OffscreenCanvasRenderingContext2D?.prototype,
    'getImageData',
    readVaried(kinds.offscreen),
  );
  for (const name of ['toDataURL', 'toBlob'])
    replaceMethod(scope.HTMLCanvasElement?.prototype, name, same, exportVaried(kinds.element));
  replaceMethod(scope.OffscreenCanvas?.prototype, 'convertToBlob', same, exportVaried(kinds.offscreen));

  const [RGBA, UNSIGNED_BYTE, PACK_ALIGNMENT] = [0x1908, 0x1401, 0x0d05];
  // WebGL 2's row length, skipped rows and pixels, and pack buffer: all unset, or the rows are not packed tight.
  const PACKING_2 = [0x0d02, 0x0d03, 0x0d04, 0x88ed];
  const Bytes = Uint8Array;
  for (const owner of ['WebGLRenderingContext', 'WebGL2RenderingContext']) {
    const getParameter = member(owner, 'getParameter');
    const packing = owner === 'WebGL2RenderingContext' ? PACKING_2 : [];
    const packedTight = (self: unknown) => {
      if (!getParameter || (apply(getParameter, self, [PACK_ALIGNMENT]) as number) > 4) return false;
      for (let index = 0; index < packing.length; index += 1)
        if (apply(getParameter, self, [packing[index]])) return false;
      return true;
    };
    replaceMethod(scope[owner]?.prototype, 'readPixels', same, (original: Call, self, args) => {
      const answer = apply(original, self, args);
      const pixels = args[6];
      const x = long(args[0]);
      const y = long(args[1]);
      const width = long(args[2]);
      const height = long(args[3]);
      if (args[4] !== RGBA || args[5] !== UNSIGNED_BYTE || apply(kindOf, pixels, []) !== 'Uint8Array')
        return answer;
      if (x === null || y === null || width === null || height === null || width <= 0 || height <= 0)
        return answer;
      const offset = args[7] === undefined ? 0 : long(args[7]);
      const count = width * height;
      if (
        offset === null ||
        (apply(lengthOf, pixels, []) as number) - offset < count * 4 ||
        !packedTight(self)
      )
        return answer;
      const words = wordsOf(pixels, offset, count);
      if (words)
        varyRead(words, width, height, (left, bottom, stripWidth, stripHeight) => {
          const strip = construct(Bytes, [stripWidth * stripHeight * 4]);
          apply(original, self, [x + left, y + bottom, stripWidth, stripHeight, RGBA, UNSIGNED_BYTE, strip]);
          return wordsOf(strip, 0, stripWidth * stripHeight);
        });
      return answer;
    });
  }

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
