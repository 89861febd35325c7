/**
 * A page's value nested 100,000 levels deep, tried as the attack: it is 200 KB, well within the output limit,
 * and every walk of it in the service (storing it as JSON) ran out of stack. The step fails with a sentence
 * instead, before the service parses it.
 */
import { expect, it } from 'vitest';
import type { AutomationRun } from '../../../lib/api/schemas/automation';
import { MAX_JSON_DEPTH } from '../../../server/core/json-depth';
import { serviceSuite } from '../../support/service-suite';

const suite = serviceSuite({ plan: 'enterprise' });

it('fails the evaluate step whose value nests too deep, and the service goes on', {
  timeout: 120_000,
}, async () => {
  const profile = await suite.api.createProfile({ name: 'Deep output' });
  let run: AutomationRun = await suite.api.runAutomation({
    profile_id: profile.id,
    script: {
      steps: [
        { action: 'goto', url: 'about:blank' },
        {
          action: 'evaluate',
          expression:
            '(() => { let value = 0; for (let i = 0; i < 100000; i++) value = [value]; return value; })()',
          name: 'deep',
        },
      ],
    },
  });
  const deadline = Date.now() + 90_000;
  while (!['succeeded', 'failed', 'cancelled'].includes(run.status) && Date.now() < deadline)
    run = await suite.api.getRun(run.id, { wait: 10, after_version: run.version });
  expect({ status: run.status, error: run.error }).toEqual({
    status: 'failed',
    error: expect.stringContaining(`more than ${MAX_JSON_DEPTH} levels deep`),
  });
  expect((await fetch(`${suite.service.baseUrl}/healthz`)).status).toBe(200);
});
