export {
  type ApiClient,
  type CallOptions,
  type ClientOptions,
  createClient,
  type PostOptions,
  type RunPoll,
} from './client';
export * from './endpoints';
export { ApiError, type ApiErrorCode, type ApiErrorInfo } from './errors';
export * from './inputs/automation';
export * from './inputs/common';
export * from './inputs/profiles';
export * from './inputs/proxies';
export * from './inputs/queries';
export * from './inputs/sessions';
export * from './inputs/webhooks';
export * from './proxy-url';
export { type QuotaSnapshot, readQuota, readRetryAfter } from './rate-limit';
export * from './requests';
export * from './schemas/account';
export * from './schemas/automation';
export * from './schemas/common';
export * from './schemas/events';
export * from './schemas/problem';
export * from './schemas/profiles';
export * from './schemas/proxies';
export * from './schemas/sessions';
