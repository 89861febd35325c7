import { expect } from 'vitest';
import { requester } from '../../support/harness';

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
  };
}
