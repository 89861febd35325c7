import { checkCdpCommand } from '../../browser/cdp-policy';
import type { LaunchStep } from './step';

/** What an account may ask of its own browser (cdp-policy.ts); a client's downloads land in the profile's folder. */
export const cdpPolicy: LaunchStep = {
  attach: async ({ downloadDir }) => ({ command: (message) => checkCdpCommand(message, downloadDir) }),
};
