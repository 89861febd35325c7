import type { LaunchStep } from './step';

const COOKIE_COMMANDS = new Set(['Storage.getCookies', 'Storage.setCookies', 'Storage.clearCookies']);

/** A browser started for the profile's cookies takes its cookies' commands only: no page, tab or context. */
export const cookieCommands: LaunchStep = {
  attach: async () => ({
    command: (message) =>
      COOKIE_COMMANDS.has(message.method ?? '')
        ? { allowed: true, message }
        : {
            allowed: false,
            reason: `${message.method} is not available: this browser was started for the profile's cookies only.`,
          },
  }),
};
