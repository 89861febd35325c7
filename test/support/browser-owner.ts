// A stand-in for the service process in tests: launches one browser on the profile folder given as the first
// argument, serves its DevTools as the service does, prints `{"pid":…,"url":…}` and waits to be killed.
import { launchBrowser } from '../../server/sessions/launch-browser';
import { CHROMIUM, LOOPBACK_ALLOWED, relayDevtools } from './browser-fixtures';

const browser = await launchBrowser({
  chromePath: process.env.CHROME_PATH || CHROMIUM,
  userDataDir: process.argv[2] as string,
  headless: true,
  proxy: null,
  fingerprint: {},
  egress: LOOPBACK_ALLOWED,
});
const relay = await relayDevtools(browser);
process.stdout.write(`${JSON.stringify({ pid: browser.pid, url: relay.url })}\n`);
setInterval(() => {}, 60_000);
