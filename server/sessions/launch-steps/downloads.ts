import { setUpDownloads } from '../../downloads/download-setup';
import type { LaunchStep } from './step';

/** Downloads stay in the profile's own folder, not in the service user's home, within the plan's bound. */
export const downloads: LaunchStep = {
  async attach({ pipe, downloadDir, launch }) {
    await setUpDownloads(
      pipe,
      downloadDir,
      launch.downloads ?? { sessionId: '', maxBytes: Number.POSITIVE_INFINITY },
    );
    return {};
  },
};
