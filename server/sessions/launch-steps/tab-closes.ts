import type { LaunchStep } from './step';

/**
 * Tells the launch's `onTabClosed` of each tab that closes, by its DevTools target id, whoever closed it: the
 * service's own session discovers the pages (its events reach no client).
 */
export const tabCloses: LaunchStep = {
  async attach({ pipe, launch }) {
    const { onTabClosed } = launch;
    if (!onTabClosed) return {};
    pipe.onMessage((message) => {
      const targetId = message.params?.targetId;
      if (
        message.sessionId === undefined &&
        message.method === 'Target.targetDestroyed' &&
        typeof targetId === 'string'
      )
        onTabClosed(targetId);
    });
    await pipe.send('Target.setDiscoverTargets', { discover: true, filter: [{ type: 'page' }] });
    return {};
  },
};
