import type { HttpBindings } from '@hono/node-server';
import type { AccountOfKey } from '../store/accounts';
import type { DashboardAccount } from '../store/dashboard-accounts';

/** Hono's environment for this app: what middleware puts on the context for the routes. */
export type AppEnv = {
  /** Absent when the app is called in-process (`app.request`), present behind the Node server. */
  Bindings: Partial<HttpBindings>;
  Variables: {
    requestId: string;
    /** The client's address, through the trusted proxies (client-address.ts). */
    clientAddress: string;
    /** Set by the auth middleware on every /v1 route that needs a key. */
    account: AccountOfKey;
    /** Set on the dashboard's endpoints for the person signed in with its cookie. */
    dashboardAccount: DashboardAccount;
    /** The request body, read once (size-limited) and shared by idempotency and validation. */
    rawBody: Uint8Array;
    /** The most bytes this request's body may hold, where its route allows more than MAX_BODY_BYTES. */
    bodyLimit: number | undefined;
    idempotency: IdempotencyScope | undefined;
    /** Gives back the event-stream slot `GET /v1/events` holds (see stream-slot.ts). */
    releaseStream: () => void;
  };
};

/** The claim of the current request on its Idempotency-Key, for routes that store their answer themselves. */
export interface IdempotencyScope {
  accountId: string;
  key: string;
  recorded: boolean;
}
