import { Id } from '../schemas/common';
import { z } from '../zod';
import { PageAddress, PageExpression, TypedText } from './automation';

/* The inputs of the page tools, from the contract's pieces (the run steps' address, text and expression rules).
   One module for the MCP tools and for the node that acts on a session another node was asked about. */

const Ref = z
  .string()
  .check(
    z.maxLength(20, { error: 'must be a ref from the latest snapshot, such as e12', abort: true }),
    z.regex(/^[a-z0-9]{1,20}$/, 'must be a ref from the latest snapshot, such as e12'),
  );
/** What the element is ("Email field"), for the sentence of an error. */
const Element = z.optional(z.string().check(z.maxLength(500)));

/** The most one uploaded file may hold, and all of one call's files: a call's body is at most 1 MiB of JSON. */
export const MAX_UPLOAD_FILE_BYTES = 512 * 1024;
export const MAX_UPLOAD_TOTAL_BYTES = 700 * 1024;

const UploadedFile = z.strictObject({
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  base64: z.string().check(z.maxLength(Math.ceil(MAX_UPLOAD_TOTAL_BYTES / 3) * 4 + 4)),
  type: z.optional(z.string().check(z.maxLength(100))),
});

const Newest = z.optional(z.int().check(z.minimum(1), z.maximum(200)));

export const pageInputs = {
  browser_navigate: { session_id: Id, url: PageAddress },
  browser_snapshot: { session_id: Id },
  browser_click: {
    session_id: Id,
    ref: Ref,
    element: Element,
    double: z.optional(z.boolean()),
    button: z.optional(z.enum(['left', 'right', 'middle'])),
    modifiers: z.optional(
      z.array(z.enum(['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift'])).check(z.maxLength(5)),
    ),
  },
  browser_hover: { session_id: Id, ref: Ref },
  browser_drag: { session_id: Id, ref: Ref, to_ref: Ref },
  browser_history: { session_id: Id, go: z.enum(['back', 'forward']) },
  browser_handle_dialog: {
    session_id: Id,
    accept: z.boolean(),
    prompt_text: z.optional(TypedText),
  },
  browser_file_upload: {
    session_id: Id,
    ref: Ref,
    files: z.array(UploadedFile).check(z.minLength(1), z.maxLength(10)),
  },
  browser_console_messages: { session_id: Id, limit: Newest },
  browser_network_requests: {
    session_id: Id,
    limit: Newest,
    headers: z.optional(z.boolean()),
  },
  browser_type: {
    session_id: Id,
    ref: Ref,
    element: Element,
    text: TypedText,
    submit: z.optional(z.boolean().check(z.describe('Press Enter after.'))),
  },
  browser_fill_form: {
    session_id: Id,
    fields: z
      .array(
        z.strictObject({
          ref: Ref,
          name: z.optional(z.string().check(z.maxLength(500))),
          type: z.enum(['textbox', 'checkbox', 'radio', 'combobox', 'slider']),
          value: TypedText.check(
            z.describe('Text; "true"/"false" for a checkbox or radio; an option for a combobox.'),
          ),
        }),
      )
      .check(z.minLength(1), z.maxLength(100)),
  },
  browser_select_option: {
    session_id: Id,
    ref: Ref,
    element: Element,
    values: z.array(z.string().check(z.maxLength(1000))).check(z.minLength(1), z.maxLength(100)),
  },
  browser_press_key: {
    session_id: Id,
    key: z.string().check(z.minLength(1), z.maxLength(50)).check(z.describe('Enter, ArrowDown, Escape, a…')),
  },
  browser_wait_for: {
    session_id: Id,
    text: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))),
    text_gone: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))),
    time: z.optional(z.number().check(z.minimum(0), z.maximum(20)).check(z.describe('Seconds to wait.'))),
    download: z.optional(z.boolean()),
  },
  browser_take_screenshot: {
    session_id: Id,
    full_page: z.optional(z.boolean()),
  },
  browser_evaluate: { session_id: Id, expression: PageExpression },
  browser_tabs: {
    session_id: Id,
    action: z.enum(['list', 'new', 'select', 'close']),
    index: z.optional(z.int().check(z.minimum(0), z.maximum(1000))),
    url: z.optional(PageAddress),
  },
};

export type PageToolName = keyof typeof pageInputs;

type Args<S> = { [K in keyof S]: S[K] extends z.core.$ZodType ? z.output<S[K]> : never };

/** Not a tool of its own: which tab the agent acts in (its DevTools target id), for request_human on any node. */
const calls = { ...pageInputs, agent_tab: { session_id: Id } };
type CallName = keyof typeof calls;

/** One call of a page tool, as it crosses to the node that runs the session. */
export type PageCall = {
  [N in CallName]: { tool: N; args: Args<(typeof calls)[N]> };
}[CallName];

/** Validates a call another node forwarded (its tool's own schema, as the MCP tool checked it). */
export const PageCallInput = z.pipe(
  z.object({ tool: z.enum(Object.keys(calls) as [CallName, ...CallName[]]), args: z.unknown() }),
  z.transform((call, ctx) => {
    const parsed = z.object(calls[call.tool]).safeParse(call.args);
    if (!parsed.success) {
      ctx.issues.push({ code: 'custom', message: 'invalid page call', input: call.args });
      return z.NEVER;
    }
    return { tool: call.tool, args: parsed.data } as PageCall;
  }),
);

/** What a page tool answers, as it crosses back: text and a JSON object, an image, or the sentence of a failure. */
export type PageAnswer =
  | { text: string; structured: Record<string, unknown> }
  | { text: string; image: { data: string; mimeType: 'image/png' } }
  | { error: string };
