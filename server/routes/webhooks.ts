import type { WebhookSettings } from '../core/config';
import { NotFound } from '../core/domain-errors';
import { validationProblem } from '../http/problem';
import { type Route, route } from '../http/route';
import { readCursor } from '../http/validate';
import { resolveAllowed } from '../network/egress-lookup';
import { deleteWebhook, insertWebhook, listDeliveries, listWebhooks } from '../store/webhooks';
import { refusal } from '../webhooks/post';
import { newWebhookSecret } from '../webhooks/signing';

export const webhookRoutes: Route[] = [
  route('createWebhook', async (c, { body, keep }, { db, clock, config }) => {
    await checkAddress(body.url, config.webhooks);
    const secret = newWebhookSecret();
    return db.transaction(async (tx) => {
      const webhook = await insertWebhook(tx, clock, {
        maker: c.get('account'),
        url: body.url,
        eventTypes: [...new Set(body.event_types)],
        secret,
      });
      // The secret is in this answer only: a replay (Idempotency-Key) of it shows it again, no other does.
      return keep(tx, { ...webhook, secret }, { Location: `/v1/webhooks/${webhook.id}` });
    });
  }),

  route('listWebhooks', async (c, { query, status }, { db }) => {
    const page = await listWebhooks(db, c.get('account'), {
      limit: query.limit,
      after: readCursor(query.cursor),
    });
    return c.json(page, status);
  }),

  route('deleteWebhook', async (c, { params, status }, { db }) => {
    if (!(await deleteWebhook(db, c.get('account'), params.id))) throw new NotFound('webhook');
    return c.body(null, status);
  }),

  route('listWebhookDeliveries', async (c, { params, query, status }, { db }) => {
    const page = await listDeliveries(db, c.get('account'), params.id, {
      limit: query.limit,
      after: readCursor(query.cursor),
    });
    if (!page) throw new NotFound('webhook');
    return c.json(page, status);
  }),
];

/** The operator's rules for webhook addresses: https (http where allowed), and no refused address range. */
async function checkAddress(url: string, settings: WebhookSettings): Promise<void> {
  const target = new URL(url);
  const refuse = (message: string) =>
    validationProblem([{ path: 'url', message }], `Invalid body: url: ${message}.`);
  if (target.protocol === 'http:' && !settings.allowHttp)
    throw refuse('must be an https address on this service');
  if (target.username || target.password) throw refuse('must not carry a user name or password');
  try {
    await resolveAllowed(settings.allowed, target.hostname);
  } catch (error) {
    throw refuse(refusal(target.hostname, error).replace(/\.$/, ''));
  }
}
