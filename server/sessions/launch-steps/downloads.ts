import type { LaunchStep } from './step';

/** Downloads stay in the profile's own folder, not in the service user's home. */
export const downloads: LaunchStep = {
  async attach({ pipe, downloadDir }) {
    await pipe.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloadDir });
    return {};
  },
};
