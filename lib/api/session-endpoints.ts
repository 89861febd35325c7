import { endpoint } from './endpoint';
import { SessionDownloadList } from './schemas/downloads';
import { Session, SessionList, SessionStartAnswer } from './schemas/sessions';

/** The endpoints of sessions: their list, one, a start and a stop, a thumbnail and what they downloaded. */
export const sessionEndpoints = {
  listSessions: endpoint({
    method: 'GET',
    path: '/v1/sessions',
    status: 200,
    response: SessionList,
  }),
  getSession: endpoint({
    method: 'GET',
    path: '/v1/sessions/:id',
    status: 200,
    response: Session,
  }),
  getSessionThumbnail: endpoint({
    method: 'GET',
    path: '/v1/sessions/:id/thumbnail',
    status: 200,
    binary: true,
  }),
  startSession: endpoint({
    method: 'POST',
    idempotent: true,
    path: '/v1/sessions/start',
    status: 201,
    response: Session,
  }),
  /** The same start with `wait`: 201 with the session, or 202 while it waits in line for room. */
  startSessionInLine: endpoint({
    method: 'POST',
    idempotent: true,
    path: '/v1/sessions/start',
    status: 202,
    response: SessionStartAnswer,
  }),
  stopSession: endpoint({
    method: 'DELETE',
    path: '/v1/sessions/stop',
    status: 200,
    response: Session,
  }),
  listSessionDownloads: endpoint({
    method: 'GET',
    path: '/v1/sessions/:id/downloads',
    status: 200,
    response: SessionDownloadList,
  }),
  getSessionDownload: endpoint({
    method: 'GET',
    path: '/v1/sessions/:id/downloads/:fileId',
    status: 200,
    binary: true,
  }),
};
