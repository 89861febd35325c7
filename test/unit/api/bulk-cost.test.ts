import { expect, it } from 'vitest';
import { bulkCost } from '../../../lib/api/bulk-limits';

/* What a bulk request costs of the hourly limit, as the popup tells it and the service counts it. */

it('is one request per 100 profiles a bulk request selects, at least one', () => {
  expect([0, 1, 100, 101, 250, 10_000].map(bulkCost)).toEqual([1, 1, 1, 2, 3, 100]);
});
