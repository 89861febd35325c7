import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../support/free-port';
import { nginxForTests, startNginx } from '../../support/nginx';

const nginxBin = nginxForTests();

describe.skipIf(!nginxBin)('nginx for a test', () => {
  it('starts on a free port, and fails on a port another server holds instead of taking that server for it', async () => {
    const nginx = await startNginx(nginxBin as string, ['127.0.0.1:9'], await freePort());
    expect((await fetch(`${nginx.url}/healthz`)).status).toBe(502);
    await nginx.stop();

    // Any server on the port answers /healthz: that must not count as nginx listening there.
    const other = createServer((_request, response) => response.end('not nginx')).listen(0, '127.0.0.1');
    await once(other, 'listening');
    try {
      const { port } = other.address() as AddressInfo;
      await expect(startNginx(nginxBin as string, ['127.0.0.1:9'], port)).rejects.toThrow(
        /Address already in use/,
      );
    } finally {
      other.close();
    }
  });
});
