import { expect } from 'vitest';
import { JSON_HEADERS, requester } from '../../support/harness';

/** Reads the service with the test's key, to check what the popup did really happened there. */
export function serviceReader(baseUrl: string, key: string) {
  const send = requester(baseUrl, key);
  return {
    send,
    async get<T>(path: string): Promise<T> {
      const answer = await send('GET', path);
      expect(answer.status, `GET ${path}`).toBe(200);
      return (await answer.json()) as T;
    },
    /** Posts `body` as JSON; a status other than `status` fails the test, with the service's answer. */
    async post<T>(path: string, body: object, status = 200): Promise<T> {
      const answer = await send('POST', path, { headers: JSON_HEADERS, body: JSON.stringify(body) });
      expect(answer.status, `POST ${path}: ${await answer.clone().text()}`).toBe(status);
      return (await answer.json()) as T;
    },
  };
}
