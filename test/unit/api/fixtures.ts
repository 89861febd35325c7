import type { Account, AutomationRun, Profile, ProxyConfig, Session } from '../../../lib/api';

const at = '2025-01-02T03:04:05.000Z';

export const account: Account = {
  id: 'acc_1',
  name: 'Local',
  plan: 'free',
  hourly_limit: 100,
  session_limit: 2,
  key_prefix: 'pk_live_ab',
  created_at: at,
};

export const profile: Profile = {
  id: 'prf_1',
  name: 'Shop',
  proxy: 'http://user@proxy.example:8080',
  proxy_id: null,
  tags: ['eu'],
  notes: '',
  fingerprint: { language: 'en-US' },
  identity: null,
  status: 'idle',
  session_id: null,
  created_at: at,
  updated_at: at,
  last_used_at: null,
};

export const proxy: ProxyConfig = {
  id: 'prx_1',
  name: 'Office',
  scheme: 'socks5',
  host: '1.2.3.4',
  port: 1080,
  username: 'u',
  has_password: true,
  url: 'socks5://u@1.2.3.4:1080',
  used_by: 0,
  last_check: null,
  created_at: at,
  updated_at: at,
};

export const session: Session = {
  id: 'ses_1',
  profile_id: 'prf_1',
  status: 'running',
  cdp_url: 'ws://127.0.0.1:9222/devtools/browser/abc',
  headless: true,
  started_at: at,
  stopped_at: null,
  stop_reason: null,
  error: null,
};

export const run: AutomationRun = {
  id: 'run_1',
  profile_id: 'prf_1',
  session_id: 'ses_1',
  name: null,
  status: 'running',
  steps: [{ index: 0, action: 'goto', status: 'succeeded', started_at: at, finished_at: at }],
  output: {},
  error: null,
  version: 3,
  created_at: at,
  started_at: at,
  finished_at: null,
};

export const page = <T>(data: T[]) => ({ data, next_cursor: null });
