import { endpoint } from './endpoint';
import { AutomationRun, Batch, BatchList, RunList } from './schemas/automation';

/** The endpoints of runs, batches and their artifacts (part of `endpoints`, in endpoints.ts). */
export const automationEndpoints = {
  runAutomation: endpoint({
    method: 'POST',
    idempotent: true,
    path: '/v1/automation/run',
    status: 202,
    response: AutomationRun,
  }),
  getRun: endpoint({
    method: 'GET',
    path: '/v1/automation/status',
    status: 200,
    response: AutomationRun,
  }),
  listRuns: endpoint({
    method: 'GET',
    path: '/v1/automation/status',
    status: 200,
    response: RunList,
  }),
  rerunRun: endpoint({
    method: 'POST',
    idempotent: true,
    path: '/v1/automation/runs/:id/rerun',
    status: 202,
    response: AutomationRun,
  }),
  cancelRun: endpoint({
    method: 'POST',
    idempotent: true,
    path: '/v1/automation/runs/:id/cancel',
    status: 200,
    response: AutomationRun,
  }),
  listBatches: endpoint({
    method: 'GET',
    path: '/v1/automation/batches',
    status: 200,
    response: BatchList,
  }),
  pauseBatch: endpoint({
    method: 'POST',
    idempotent: true,
    path: '/v1/automation/batches/:id/pause',
    status: 200,
    response: Batch,
  }),
  resumeBatch: endpoint({
    method: 'POST',
    idempotent: true,
    path: '/v1/automation/batches/:id/resume',
    status: 200,
    response: Batch,
  }),
  cancelBatch: endpoint({
    method: 'POST',
    idempotent: true,
    path: '/v1/automation/batches/:id/cancel',
    status: 200,
    response: Batch,
  }),
  getBatch: endpoint({
    method: 'GET',
    path: '/v1/automation/batches/:id',
    status: 200,
    response: Batch,
  }),
  retryBatch: endpoint({
    method: 'POST',
    idempotent: true,
    path: '/v1/automation/batches/:id/retry',
    status: 202,
    response: Batch,
  }),
  /** The outputs of a batch's runs as a file: `?format=csv` or `json`. */
  exportBatch: endpoint({
    method: 'GET',
    path: '/v1/automation/batches/:id/export',
    status: 200,
    binary: true,
  }),
  getArtifact: endpoint({
    method: 'GET',
    path: '/v1/automation/runs/:id/artifacts/:name',
    status: 200,
    binary: true,
  }),
} as const;
