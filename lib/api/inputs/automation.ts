import { Id } from '../schemas/common';
import { z } from '../zod';
import { openableUrl } from './common';
import { HelpFields } from './help-requests';

const Selector = z
  .string()
  .check(z.minLength(1, 'must not be empty'), z.maxLength(1000, 'must be at most 1000 characters'));

const OutputName = z
  .string()
  .check(
    z.maxLength(64, { error: 'must be 1–64 letters, digits, dots, dashes or underscores', abort: true }),
    z.regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1–64 letters, digits, dots, dashes or underscores'),
  );

/** Where a page may be sent: a web address, or a blank page. */
export const PageAddress = z.string().check(
  z.maxLength(8192, { error: 'must be at most 8192 characters', abort: true }),
  // A URL's scheme is case-insensitive (RFC 3986 §3.1): HTTP:// is http://. Spelled out, not the `i` flag,
  // so that the pattern in the OpenAPI document says the same.
  z.regex(
    /^([Hh][Tt][Tt][Pp][Ss]?:\/\/\S+|[Aa][Bb][Oo][Uu][Tt]:blank)$/,
    'must be an http:// or https:// address',
  ),
  openableUrl,
);

const GotoStep = z.strictObject({ action: z.literal('goto'), url: PageAddress });

const ClickStep = z.strictObject({ action: z.literal('click'), selector: Selector });

/** What a step or a page tool may type into a field. */
export const TypedText = z.string().check(z.maxLength(10000, 'must be at most 10000 characters'));

const TypeStep = z.strictObject({ action: z.literal('type'), selector: Selector, text: TypedText });

const WaitForStep = z
  .strictObject({
    action: z.literal('wait_for'),
    selector: z.optional(Selector),
    ms: z.optional(
      z.int().check(z.minimum(0, 'must be 0 or more'), z.maximum(60000, 'must be at most 60000')),
    ),
  })
  .check(
    z.refine((step) => (step.selector === undefined) !== (step.ms === undefined), {
      message: 'wait_for takes either selector or ms',
      path: ['selector'],
    }),
  );

const ExtractStep = z.strictObject({
  action: z.literal('extract'),
  selector: Selector,
  name: OutputName,
  attribute: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
});

/** JavaScript a step or a page tool evaluates in the page. */
export const PageExpression = z
  .string()
  .check(z.minLength(1, 'must not be empty'), z.maxLength(10000, 'must be at most 10000 characters'));

const EvaluateStep = z.strictObject({
  action: z.literal('evaluate'),
  expression: PageExpression,
  name: z.optional(OutputName),
});

const ScreenshotStep = z.strictObject({ action: z.literal('screenshot'), name: OutputName });

/** Asks a person to act on the run's tab and waits (within the run's time limit) for done, an answer or a choice. */
const AskHumanStep = z.strictObject({
  action: z.literal('ask_human'),
  ...HelpFields,
  name: z.optional(OutputName),
});

/** The actions a step may name, in the order of the steps below. */
const ACTIONS = ['goto', 'click', 'type', 'wait_for', 'extract', 'evaluate', 'screenshot', 'ask_human'];

/**
 * One declarative step. `extract`, `evaluate` (with name), `screenshot` and `ask_human` (with name: the answer,
 * `{ outcome, text?, choice? }`) write `output[name]`.
 */
export const Step = z.discriminatedUnion(
  'action',
  [GotoStep, ClickStep, TypeStep, WaitForStep, ExtractStep, EvaluateStep, ScreenshotStep, AskHumanStep],
  // A typo such as "clik" is answered with the actions there are.
  { error: (issue) => (issue.code === 'invalid_union' ? `must be one of ${ACTIONS.join(', ')}` : undefined) },
);

/** An automation script: 1–100 steps run in order, the whole run within timeout_ms (default 60000). */
export const Script = z.strictObject({
  steps: z
    .array(Step)
    .check(z.minLength(1, 'needs at least one step'), z.maxLength(100, 'at most 100 steps')),
  timeout_ms: z.optional(
    z.int().check(z.minimum(1000, 'must be at least 1000'), z.maximum(600000, 'must be at most 600000')),
  ),
});

export const RunCreate = z
  .strictObject({
    profile_id: z.optional(Id),
    session_id: z.optional(Id),
    script: Script,
    name: z.optional(
      z.string().check(z.trim(), z.minLength(1), z.maxLength(100, 'must be at most 100 characters')),
    ),
  })
  .check(
    z.refine((body) => Boolean(body.profile_id) !== Boolean(body.session_id), {
      message: 'give exactly one of profile_id or session_id',
      path: ['profile_id'],
    }),
  );

export type Step = z.infer<typeof Step>;

export type Script = z.infer<typeof Script>;

export type RunCreate = z.input<typeof RunCreate>;
