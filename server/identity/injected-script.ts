import { blendedPixelsParts, type varyPixels } from './blended-pixels';
import { installReadBackNoise, varySamples } from './read-back-noise';

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
  // The parts go in by name, as their source: a test runner rewrites what one module imports from another.
  const noise = [...blendedPixelsParts, varySamples, installReadBackNoise]
    .map((part) => part.toString())
    .join('\n');
  return `(() => { const __name = (f) => f; ${noise}\n(${install.toString()})(${JSON.stringify(values)}, installReadBackNoise, varyPixels); })();`;
}

// Runs in the page: only what every scope has (no DOM assumed), and nothing visible left on the global object.
function install(
  values: InjectedValues,
  noise: typeof installReadBackNoise,
  pixels: typeof varyPixels,
): void {
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

  // Every call made after install goes through what is captured here: a page may replace any method or global.
  const nativeText = new WeakMap<object, string>();
  const [textOf, setText] = [WeakMap.prototype.get, WeakMap.prototype.set];
  const [indexOf, slice, exec] = [String.prototype.indexOf, String.prototype.slice, RegExp.prototype.exec];
  let asking = false;
  const nativeLooking = {
    toString(this: unknown) {
      if (typeof this === 'object' && this !== null && getOwnPropertyDescriptor(this, values.nonce))
        return values.nonce;
      if (typeof this === 'function') {
        const text = apply(textOf, nativeText, [this]) as string | undefined;
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
  apply(setText, nativeText, [nativeLooking, 'function toString() { [native code] }']);
  defineProperty(functionPrototype, 'toString', {
    ...getOwnPropertyDescriptor(functionPrototype, 'toString'),
    value: nativeLooking,
  });

  // A frame of this script: all of them are <anonymous>, and nothing but this script runs between the browser's
  // function and its replacement.
  const ownFrame = /^\s+at (?:\S+ \()?<anonymous>:\d+:\d+\)?$/;
  /**
   * The error as the browser's own function would have thrown it: without the replacement's frame (the line naming
   * `name`) and the frames of this script's helpers above it.
   */
  function withoutOwnFrame(error: unknown, name: string): unknown {
    if (typeof error !== 'object' || error === null || !getOwnPropertyDescriptor(error, 'stack'))
      return error;
    const stack = (error as Error).stack;
    if (typeof stack !== 'string') return error;
    let runStart = -1;
    let start = (apply(indexOf, stack, ['\n']) as number) + 1;
    while (start > 0 && start < stack.length) {
      const newline = apply(indexOf, stack, ['\n', start]) as number;
      const end = newline < 0 ? stack.length : newline;
      const line = apply(slice, stack, [start, end]) as string;
      if (
        (apply(indexOf, line, [name]) as number) >= 0 &&
        (apply(indexOf, line, ['<anonymous>']) as number) >= 0
      ) {
        const from = runStart >= 0 ? runStart : start;
        (error as Error).stack =
          newline < 0
            ? (apply(slice, stack, [0, from - 1]) as string)
            : `${apply(slice, stack, [0, from])}${apply(slice, stack, [end + 1])}`;
        return error;
      }
      if (apply(exec, ownFrame, [line]) === null) runStart = -1;
      else if (runStart < 0) runStart = start;
      start = end + 1;
    }
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
    apply(setText, nativeText, [get, `function get ${name}() { [native code] }`]);
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
    apply(setText, nativeText, [method, `function ${name}() { [native code] }`]);
    defineProperty(owner, name, { ...descriptor, value: method });
  }

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

  noise({ seed: values.seed, scope, replaceMethod, varyPixels: pixels });
}
