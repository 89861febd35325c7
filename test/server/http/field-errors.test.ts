/**
 * A body with thousands of invalid values, tried as the attack: 3,000 empty cookies (9 KB) gave a 428 KB 422
 * listing 9,000 errors. A problem lists the first MAX_FIELD_ERRORS and says how many more there were.
 */
import { expect, it } from 'vitest';
import { MAX_FIELD_ERRORS } from '../../../lib/api/issues';
import { JSON_HEADERS } from '../../support/harness';
import { serviceSuite } from '../../support/service-suite';

const suite = serviceSuite({ plan: 'enterprise' });

it('a 422 lists the first field errors and counts the rest, in a few KB', { timeout: 60_000 }, async () => {
  const cookies = JSON.stringify(Array.from({ length: 3000 }, () => ({})));
  const response = await suite.request('PUT', '/v1/profiles/prf_unknown/cookies', {
    body: cookies,
    headers: JSON_HEADERS,
  });
  const text = await response.text();
  expect(response.status).toBe(422);
  expect(Buffer.byteLength(text)).toBeLessThan(8 * 1024);
  const problem = JSON.parse(text);
  expect(problem.errors).toHaveLength(MAX_FIELD_ERRORS);
  expect(problem.errors[0].path).toMatch(/^\[0\]\./);
  expect(problem.errors_not_listed).toBeGreaterThanOrEqual(6000 - MAX_FIELD_ERRORS);
  expect(problem.detail).toContain(`(and ${problem.errors_not_listed + MAX_FIELD_ERRORS - 1} more)`);
});
