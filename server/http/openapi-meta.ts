import { RunCreate, Script, Step } from '../../lib/api/inputs/automation';
import { Fingerprint, ProfileClone, ProfileCreate, ProfileUpdate } from '../../lib/api/inputs/profiles';
import { ProxyInput } from '../../lib/api/inputs/proxies';
import { SessionStart, SessionStop } from '../../lib/api/inputs/sessions';
import { WebhookCreate } from '../../lib/api/inputs/webhooks';
import { Account } from '../../lib/api/schemas/account';
import { AutomationRun, RunList } from '../../lib/api/schemas/automation';
import {
  CreatedWebhook,
  ServiceEvent,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookList,
} from '../../lib/api/schemas/events';
import { Problem } from '../../lib/api/schemas/problem';
import { Profile, ProfileList, ProfileUpdated } from '../../lib/api/schemas/profiles';
import { ProxyConfig, ProxyList } from '../../lib/api/schemas/proxies';
import { Session, SessionList } from '../../lib/api/schemas/sessions';
import { z } from '../../lib/api/zod';

/**
 * What the OpenAPI document says beyond the shapes: component names and descriptions of the shared schemas,
 * the rules between fields that zod checks with `refine` (as JSON Schema `oneOf`/`not`, merged into the
 * schema's own). Kept here, not in lib/api, so the extension's bundles do not carry the text (each endpoint's
 * own text is in endpoint-docs.ts). An entry without `id` stays inline where it is used.
 */
export const componentSchemas = z.registry<{
  id?: string;
  description?: string;
  oneOf?: Record<string, unknown>[];
  not?: Record<string, unknown>;
}>();

/** Exactly one of these fields: the JSON Schema of a `refine` that gives one or the other, not both. */
const exactlyOneOf = (...fields: string[]) => fields.map((field) => ({ required: [field] }));

componentSchemas.add(Account, {
  id: 'Account',
  description:
    'The account the key belongs to; hourly_limit is null for an unlimited plan; session_limit is how many sessions it may hold at once.',
});
componentSchemas.add(Step, {
  id: 'Step',
  description:
    'One declarative step. `extract`, `evaluate` (with name) and `screenshot` write `output[name]`.',
});
componentSchemas.add(Script, {
  id: 'Script',
  description:
    'An automation script: 1–100 steps run in order, the whole run within timeout_ms (default 60000).',
});
componentSchemas.add(AutomationRun, {
  id: 'AutomationRun',
  description:
    'One run of a script. `version` grows with every change, for long-polling with after_version. Text from a page that holds U+0000 is stored with U+FFFD in its place.',
});
componentSchemas.add(RunCreate, {
  id: 'RunCreate',
  description:
    'Body of POST /v1/automation/run: exactly one of `profile_id` (the run starts a session for itself unless the profile has one running) or `session_id`.',
  oneOf: exactlyOneOf('profile_id', 'session_id'),
});
const WaitForStep = Step._zod.def.options.find((option) => option._zod.propValues?.action?.has('wait_for'));
if (WaitForStep) componentSchemas.add(WaitForStep, { oneOf: exactlyOneOf('selector', 'ms') });
componentSchemas.add(RunList, { id: 'RunList' });
componentSchemas.add(Problem, {
  id: 'Problem',
  description: 'RFC 9457 problem details; `code` is stable and machine-readable.',
});
componentSchemas.add(Fingerprint, {
  id: 'Fingerprint',
  description:
    'Browser settings applied when the profile starts: user agent, language, time zone, window size.',
});
componentSchemas.add(Profile, {
  id: 'Profile',
  description:
    'A browser profile: its own cookies and storage, proxy and fingerprint. `proxy` never carries a password.',
});
componentSchemas.add(ProfileCreate, {
  id: 'ProfileCreate',
  description:
    'Body of POST /v1/profiles. `proxy` is scheme://[user:pass@]host:port; `proxy_id` names a saved proxy instead (not both).',
  not: {
    required: ['proxy', 'proxy_id'],
    properties: { proxy: { type: 'string' }, proxy_id: { type: 'string' } },
  },
});
componentSchemas.add(ProfileList, { id: 'ProfileList' });
componentSchemas.add(ProfileUpdate, {
  id: 'ProfileUpdate',
  description:
    'The fields to change; the others stay. A running profile’s changes apply at its next start (`applies_at_next_start`).',
});
componentSchemas.add(ProfileUpdated, { id: 'ProfileUpdated' });
componentSchemas.add(ProfileClone, {
  id: 'ProfileClone',
  description: 'A copy of the profile’s settings (proxy, tags, notes, fingerprint) without its browser data.',
});
componentSchemas.add(ProxyConfig, {
  id: 'Proxy',
  description: 'A saved proxy. `url` is scheme://[user@]host:port and never carries the password.',
});
componentSchemas.add(ProxyInput, { id: 'ProxyInput' });
componentSchemas.add(ProxyList, { id: 'ProxyList' });
componentSchemas.add(Session, {
  id: 'Session',
  description:
    'A running (or finished) browser for one profile. `cdp_url` is the ws:// DevTools address for connectOverCDP; `live_view_url` a page that shows it live and takes over its mouse and keyboard, `live_view_readonly_url` the same page without control.',
});
componentSchemas.add(SessionStart, { id: 'SessionStart' });
componentSchemas.add(SessionStop, { id: 'SessionStop', oneOf: exactlyOneOf('session_id', 'profile_id') });
componentSchemas.add(SessionList, { id: 'SessionList' });
componentSchemas.add(ServiceEvent, {
  id: 'Event',
  description:
    'One event of the account: each SSE message has `id:` (the event id), `event:` (its type) and `data:` (this object). `data.data` is the resource as the API answers it (`{ id }` once deleted); run events leave out an output over 16 KiB (`output_omitted: true`). A comment line `: heartbeat` comes every 15 s.',
});
componentSchemas.add(Webhook, {
  id: 'Webhook',
  description:
    'Where the service sends the events named in `event_types`, signed as Standard Webhooks describes (headers webhook-id, webhook-timestamp, webhook-signature). A delivery is retried with backoff for a day; then the webhook is disabled with a reason.',
});
componentSchemas.add(CreatedWebhook, {
  id: 'CreatedWebhook',
  description: 'The webhook just created, with its signing secret (`whsec_…`), shown this once.',
});
componentSchemas.add(WebhookCreate, { id: 'WebhookCreate' });
componentSchemas.add(WebhookList, { id: 'WebhookList' });
componentSchemas.add(WebhookDelivery, { id: 'WebhookDelivery' });
componentSchemas.add(WebhookDeliveryList, { id: 'WebhookDeliveryList' });
