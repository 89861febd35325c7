import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../../../lib/api/endpoint';
import { type EndpointName, endpoints } from '../../../lib/api/endpoints';
import { endpointDocs } from '../../../server/http/endpoint-docs';
import { buildOpenApiDocument } from '../../../server/http/openapi';
import { routes } from '../../../server/routes/index';
import { JSON_HEADERS, requester, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

/*
 * Each endpoint is declared once (lib/api/endpoints.ts, its inputs in requests.ts, its text in endpoint-docs.ts,
 * all by one name); what the types cannot check is checked here: that the document and the live routes say
 * what the declaration says.
 */

type Operation = { summary?: string; description?: string; parameters?: unknown[]; operationId: string };
const document = buildOpenApiDocument('test', routes) as { paths: Record<string, Record<string, Operation>> };
const table = Object.entries(endpoints) as [EndpointName, Endpoint][];

function operationOf(endpoint: Endpoint): Operation | undefined {
  return document.paths[endpoint.path.replace(/:(\w+)/g, '{$1}')]?.[endpoint.method.toLowerCase()];
}

describe('the declaration of each endpoint', () => {
  it('gives the document its summary and description', () => {
    for (const [name, endpoint] of table) {
      const operation = operationOf(endpoint);
      expect(operation?.operationId.split('Or'), name).toContain(name);
      const { summary, description } = endpointDocs[name];
      expect(summary.length, name).toBeGreaterThan(0);
      expect(operation?.summary, name).toContain(summary);
      if (description) expect(operation?.description, name).toContain(description);
    }
  });

  it('says in the document which endpoints take an Idempotency-Key, and only those', () => {
    const idempotencyKey = { $ref: '#/components/parameters/IdempotencyKey' };
    for (const [name, endpoint] of table) {
      const parameters = operationOf(endpoint)?.parameters ?? [];
      if (endpoint.idempotent) expect(parameters, name).toContainEqual(idempotencyKey);
      else expect(parameters, name).not.toContainEqual(idempotencyKey);
    }
  });
});

describe('the live routes and the declaration', () => {
  let service: TestService;
  let request: ReturnType<typeof requester>;

  beforeAll(async () => {
    service = await startServiceInProcess();
    request = requester(service.baseUrl, await service.createKey('enterprise'));
  });
  afterAll(() => service?.close());

  it('read the Idempotency-Key exactly at the endpoints declared idempotent', async () => {
    const unusableKey = { ...JSON_HEADERS, 'Idempotency-Key': 'x'.repeat(300) };
    for (const [name, endpoint] of table) {
      if (endpoint.stream) continue;
      const path = endpoint.path.replace(/:\w+/g, 'missing');
      const body = endpoint.method === 'GET' ? undefined : '{}';
      const response = await request(endpoint.method, path, { headers: unusableKey, body });
      const answer = response.headers.get('content-type')?.includes('json') ? await response.json() : {};
      const refusedTheKey = (answer.errors ?? []).some(
        (error: { path: string }) => error.path === 'Idempotency-Key',
      );
      expect(refusedTheKey, `${name}: ${endpoint.method} ${path} answered ${response.status}`).toBe(
        endpoint.idempotent === true,
      );
    }
  });
});
