/**
 * No answer of the API shows a file path of the service's machine (CHROME_PATH, the data dir, a profile's
 * folder): a browser that cannot start is a 503 with a sentence, and the paths go to the service's log.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../lib/api/client';
import { JSON_HEADERS, requester, type TestService } from '../support/harness';
import { startServiceInProcess } from '../support/in-process-service';

const scratch = mkdtempSync(path.join(tmpdir(), 'pp-paths-'));
const MISSING_CHROME = path.join(scratch, 'secret-folder', 'chromium');
/** A Chromium that fails at once, the way `mode` (a file beside it) says. */
const FAKE_CHROME = path.join(scratch, 'fake-chromium');
writeFileSync(
  FAKE_CHROME,
  `#!/bin/sh
for arg in "$@"; do case "$arg" in --user-data-dir=*) dir="\${arg#--user-data-dir=}";; esac; done
if [ "$(cat "$(dirname "$0")/mode")" = "quotes-a-path" ]; then
  echo "[1:1:0101/000000.000000:ERROR:process_singleton_posix.cc:1] Failed to create $dir/SingletonLock: Permission denied (see $(dirname "$0")/notes.txt)" >&2
fi
exit 3
`,
);
chmodSync(FAKE_CHROME, 0o755);
const setMode = (mode: string) => writeFileSync(path.join(scratch, 'mode'), mode);

let missing: TestService;
let failing: TestService;
afterAll(async () => {
  await missing?.close();
  await failing?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Everything the API said, as one text, must not name a folder of the machine. */
function expectNoPaths(text: string, service: TestService) {
  expect(text).not.toContain(scratch);
  expect(text).not.toContain(service.dataDir);
  expect(text).not.toMatch(/\/(tmp|home|root|usr|var|etc|data)\//);
}

describe('CHROME_PATH naming no executable', () => {
  let request: ReturnType<typeof requester>;
  let api: ApiClient;
  beforeAll(async () => {
    missing = await startServiceInProcess({ env: { CHROME_PATH: MISSING_CHROME } });
    const key = await missing.createKey('enterprise');
    request = requester(missing.baseUrl, key);
    api = createClient({ baseUrl: missing.baseUrl, apiKey: key, fetch });
  });

  it('answers 503 with a sentence and no path; the log names the path', async () => {
    const profile = await api.createProfile({ name: 'No browser' });
    const response = await request('POST', '/v1/sessions/start', {
      headers: JSON_HEADERS,
      body: JSON.stringify({ profile_id: profile.id }),
    });
    expect(response.status).toBe(503);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({
      code: 'browser_unavailable',
      detail: expect.stringMatching(/^The service's CHROME_PATH setting does not name an executable file\./),
    });
    expectNoPaths(text, missing);
    expect(missing.logs.join('\n')).toContain(`"chrome_path":"${MISSING_CHROME}"`);
  });
});

describe('a browser that fails at start-up', () => {
  let request: ReturnType<typeof requester>;
  let api: ApiClient;
  beforeAll(async () => {
    failing = await startServiceInProcess({ env: { CHROME_PATH: FAKE_CHROME } });
    const key = await failing.createKey('enterprise');
    request = requester(failing.baseUrl, key);
    api = createClient({ baseUrl: failing.baseUrl, apiKey: key, fetch });
  });

  async function startFails(): Promise<{ text: string; detail: string; sessionText: string }> {
    const profile = await api.createProfile({ name: 'Failing browser' });
    const response = await request('POST', '/v1/sessions/start', {
      headers: JSON_HEADERS,
      body: JSON.stringify({ profile_id: profile.id }),
    });
    expect(response.status).toBe(503);
    const text = await response.text();
    const problem = JSON.parse(text);
    expect(problem.code).toBe('browser_unavailable');
    const session = await request('GET', `/v1/sessions/${problem.session_id}`);
    return { text, detail: problem.detail, sessionText: await session.text() };
  }

  it('quotes Chromium’s error without the paths in it, in the answer and in the session', async () => {
    setMode('quotes-a-path');
    const { text, detail, sessionText } = await startFails();
    expect(detail).toBe(
      'Chromium exited during start-up (code 3): Failed to create [path]/SingletonLock: Permission denied (see [path])',
    );
    expectNoPaths(text, failing);
    expect(JSON.parse(sessionText)).toMatchObject({ status: 'failed', error: detail });
    expectNoPaths(sessionText, failing);
    expect(failing.logs.join('\n')).toContain(`"profile_dir":"${path.join(failing.dataDir, 'profiles')}`);
  });

  it('names Chromium’s log by its file name only when there is nothing to quote', async () => {
    setMode('silent');
    const { text, detail } = await startFails();
    expect(detail).toBe(
      "Chromium exited during start-up (code 3); its log is chromium-stderr.log in the profile's folder on the service's machine.",
    );
    expectNoPaths(text, failing);
  });

  it('says the same in a run that needed the browser', async () => {
    setMode('quotes-a-path');
    const profile = await api.createProfile({ name: 'Failing run' });
    let run = await api.runAutomation({
      profile_id: profile.id,
      script: { steps: [{ action: 'wait_for', ms: 0 }] },
    });
    const deadline = Date.now() + 30_000;
    while (run.status !== 'failed' && Date.now() < deadline) {
      run = await api.getRun(run.id, { wait: 5, after_version: run.version });
    }
    expect(run.error).toMatch(/^The run could not start a session: Chromium exited during start-up/);
    expectNoPaths(JSON.stringify(run), failing);
    expectNoPaths(await (await request('GET', '/v1/sessions')).text(), failing);
  });
});
