import { Account } from './schemas/account';
import { AutomationRun, RunCreate, RunList, RunStatusQuery } from './schemas/automation';
import {
  Profile,
  ProfileCreate,
  ProfileDeleteQuery,
  ProfileList,
  ProfileListQuery,
} from './schemas/profiles';
import { ProxyConfig, ProxyInput, ProxyList, ProxyListQuery } from './schemas/proxies';
import { Session, SessionList, SessionListQuery, SessionStart, SessionStop } from './schemas/sessions';
import type { z } from './zod';

type Schema = z.core.$ZodType;
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Endpoint {
  method: Method;
  /** Path with `:param` segments. */
  path: string;
  status: number;
  query?: Schema;
  body?: Schema;
  /** Absent for 204 answers and binary bodies. */
  response?: Schema;
  /** Binary answer (an artifact), not JSON. */
  binary?: true;
}

function endpoint<const E extends Endpoint>(e: E): E {
  return e;
}

/** Every endpoint of the v1 contract. The client's methods and the service's OpenAPI document are built from this table. */
export const endpoints = {
  getAccount: endpoint({
    method: 'GET',
    path: '/v1/account',
    status: 200,
    response: Account,
  }),

  listProfiles: endpoint({
    method: 'GET',
    path: '/v1/profiles',
    status: 200,
    query: ProfileListQuery,
    response: ProfileList,
  }),
  createProfile: endpoint({
    method: 'POST',
    path: '/v1/profiles',
    status: 201,
    body: ProfileCreate,
    response: Profile,
  }),
  getProfile: endpoint({
    method: 'GET',
    path: '/v1/profiles/:id',
    status: 200,
    response: Profile,
  }),
  deleteProfile: endpoint({
    method: 'DELETE',
    path: '/v1/profiles/:id',
    status: 204,
    query: ProfileDeleteQuery,
  }),

  listProxies: endpoint({
    method: 'GET',
    path: '/v1/proxies',
    status: 200,
    query: ProxyListQuery,
    response: ProxyList,
  }),
  createProxy: endpoint({
    method: 'POST',
    path: '/v1/proxies',
    status: 201,
    body: ProxyInput,
    response: ProxyConfig,
  }),
  getProxy: endpoint({
    method: 'GET',
    path: '/v1/proxies/:id',
    status: 200,
    response: ProxyConfig,
  }),
  updateProxy: endpoint({
    method: 'PUT',
    path: '/v1/proxies/:id',
    status: 200,
    body: ProxyInput,
    response: ProxyConfig,
  }),
  deleteProxy: endpoint({
    method: 'DELETE',
    path: '/v1/proxies/:id',
    status: 204,
  }),

  listSessions: endpoint({
    method: 'GET',
    path: '/v1/sessions',
    status: 200,
    query: SessionListQuery,
    response: SessionList,
  }),
  getSession: endpoint({
    method: 'GET',
    path: '/v1/sessions/:id',
    status: 200,
    response: Session,
  }),
  startSession: endpoint({
    method: 'POST',
    path: '/v1/sessions/start',
    status: 201,
    body: SessionStart,
    response: Session,
  }),
  stopSession: endpoint({
    method: 'DELETE',
    path: '/v1/sessions/stop',
    status: 200,
    query: SessionStop,
    response: Session,
  }),

  runAutomation: endpoint({
    method: 'POST',
    path: '/v1/automation/run',
    status: 202,
    body: RunCreate,
    response: AutomationRun,
  }),
  getRun: endpoint({
    method: 'GET',
    path: '/v1/automation/status',
    status: 200,
    query: RunStatusQuery,
    response: AutomationRun,
  }),
  listRuns: endpoint({
    method: 'GET',
    path: '/v1/automation/status',
    status: 200,
    query: RunStatusQuery,
    response: RunList,
  }),
  cancelRun: endpoint({
    method: 'POST',
    path: '/v1/automation/runs/:id/cancel',
    status: 200,
    response: AutomationRun,
  }),
  getArtifact: endpoint({
    method: 'GET',
    path: '/v1/automation/runs/:id/artifacts/:name',
    status: 200,
    binary: true,
  }),
} as const;

export type EndpointName = keyof typeof endpoints;
