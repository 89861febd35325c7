import type { Plugin } from 'vite';

/** Preact's one HTML sink, in its minified builds: `dom.innerHTML = props.dangerouslySetInnerHTML.__html`. */
const SINK = /(\w+)\.innerHTML=(\w+)\.__html/g;

/**
 * Takes `dangerouslySetInnerHTML` out of Preact: the extension never renders HTML from a string (Biome's
 * recommended rules forbid the prop), so the one place a string could become markup goes, and with it
 * `web-ext lint`'s UNSAFE_VAR_ASSIGNMENT warning. Using the prop throws instead of rendering nothing. Fails the
 * build if a Preact upgrade moves the sink, so the check cannot quietly stop applying.
 */
export function preactWithoutInnerHtml(): Plugin {
  return {
    name: 'preact-without-inner-html',
    enforce: 'pre',
    transform(code, id) {
      if (!/\/preact\/dist\/preact\.(module\.js|mjs)$/.test(id)) return;
      const sinks = code.match(SINK)?.length ?? 0;
      if (sinks !== 1) this.error(`expected Preact's one innerHTML sink in ${id}, found ${sinks}`);
      return code.replace(SINK, '(()=>{throw Error("dangerouslySetInnerHTML is not supported")})()');
    },
  };
}
