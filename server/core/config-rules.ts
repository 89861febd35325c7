import { isWellFormedKey } from '../../lib/api/key-shape';
import { z } from '../../lib/api/zod';
import { EgressPolicy, EgressSettingError } from './egress-policy';
import { TrustedProxies, TrustProxySettingError } from './trusted-proxies';

/*
 * The rules one environment variable's text is read by. A rule that refuses the text raises an issue whose message
 * is the rest of a sentence: the configuration puts the variable's name before it ("PORT must be …").
 */

/** Thrown by a rule's reader; the message follows the variable's name. */
class Refused extends Error {}

function refuse(sentence: string): never {
  throw new Refused(sentence);
}

/** A rule from a reader of the text, which throws `Refused` (by `refuse`) for text it cannot read. */
function rule<T>(read: (text: string) => T) {
  return z.transform((text: string, context) => {
    try {
      return read(text);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      context.issues.push({ code: 'custom', input: text, message: error.message });
      return z.NEVER;
    }
  });
}

/** The variable is unset when its text passes `unset` too (empty, or blank), so the default applies. */
export function unsetWhen<T extends z.core.$ZodType<unknown, string | undefined>>(
  unset: (text: string) => boolean,
  schema: T,
) {
  return z.pipe(
    z.transform((text: string | undefined) => (text !== undefined && unset(text) ? undefined : text)),
    schema,
  );
}
export const empty = (text: string) => text === '';
export const blank = (text: string) => text.trim() === '';

export const anyText = rule((text) => text);

/** A key of this service; what was given is a secret, so the refusal does not repeat it. */
export const apiKey = rule((text) => {
  if (!isWellFormedKey(text)) refuse('must be a key of this service: pp_live_ and 32 letters or digits');
  return text;
});

export const port = rule((text) => {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > 65535) refuse(`must be 0 to 65535, not "${text}"`);
  return value;
});

/** A whole number of at least `minimum` (and at most `maximum`, where given), as the text writes it. */
export const count = (minimum: number, maximum = Number.POSITIVE_INFINITY) =>
  rule((text) => {
    const value = Number(text);
    if (!/^\d+$/.test(text.trim()) || value < minimum)
      refuse(`must be a whole number of at least ${minimum}, not "${text}"`);
    if (value > maximum) refuse(`must be at most ${maximum}, not "${text}"`);
    return value;
  });

/** A count of seconds, as milliseconds. */
export const seconds = (minimum: number) =>
  z.pipe(
    count(minimum),
    z.transform((value) => value * 1000),
  );

export const boolean = rule((text) => {
  const value = text.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  return refuse(`must be true or false, not "${text}"`);
});

/** One of `words`, written exactly or, where `loose`, in any case with spaces around. */
export const oneOf = <const W extends string>(words: readonly W[], loose: boolean) =>
  rule((text) => {
    const value = loose ? text.trim().toLowerCase() : text;
    if (words.includes(value as W)) return value as W;
    const listed = `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
    return refuse(`must be ${listed}, not "${text}"`);
  });

const webAddress = (text: string) => {
  const url = URL.canParse(text) ? new URL(text) : null;
  return url && (url.protocol === 'http:' || url.protocol === 'https:') ? url : null;
};

/** An http(s) address, or null for blank text. */
export const webAddressOrOff = rule((text) => {
  if (blank(text)) return null;
  return webAddress(text)?.href ?? refuse(`must be an http:// or https:// address, not "${text}"`);
});

/** An http(s) address with no path, as its origin; null for blank text. */
export const nodeOrigin = rule((text) => {
  if (blank(text)) return null;
  const url = webAddress(text);
  if (url?.pathname !== '/')
    refuse(`must be an http:// address with no path, such as http://10.0.0.5:8787, not "${text}"`);
  return url.origin;
});

/** http(s) addresses with no path and no user, separated by commas, as their origins. */
export const publicOrigins = rule((text) =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const url = webAddress(part);
      if (url?.pathname !== '/' || url.username)
        refuse(
          `must be http:// or https:// addresses with no path, separated by commas (such as https://pilot.example.com), not "${part}"`,
        );
      return url.origin;
    }),
);

/** Seconds separated by commas. */
export const schedule = rule((text) => {
  const delays = text.split(',').map((part) => part.trim());
  if (delays.some((delay) => !/^\d+$/.test(delay)))
    refuse(`must be seconds separated by commas, not "${text}"`);
  return delays.map(Number);
});

/** A setting read by its own parser, whose errors are sentences that begin with `variable`, the name it is read from. */
function ownSetting<T>(parse: (text: string) => T, Unreadable: new () => Error, variable: string) {
  return rule((text) => {
    try {
      return parse(text);
    } catch (error) {
      if (error instanceof Unreadable) refuse(error.message.replace(`${variable} `, ''));
      throw error;
    }
  });
}

export const egress = ownSetting((text) => EgressPolicy.parse(text), EgressSettingError, 'EGRESS_ALLOW');
export const trustedProxies = ownSetting(
  (text) => TrustedProxies.parse(text),
  TrustProxySettingError,
  'TRUST_PROXY',
);
