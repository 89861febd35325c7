import type { CdpMessage } from '../browser/cdp-pipe';
import type { PresentedIdentity } from './presented';

/**
 * A relayed client's command, changed so that it cannot undo the profile's identity by default: Puppeteer sets an
 * 800×600 viewport on every page it sees, which would also make the screen 800×600 with a pixel ratio of 1, and
 * turns touch emulation off. The client keeps its viewport; the screen, pixel ratio and touch points stay the
 * profile's.
 */
export function keepIdentity(message: CdpMessage, presented: PresentedIdentity): CdpMessage {
  const params = message.params ?? {};
  if (message.method === 'Emulation.setDeviceMetricsOverride') {
    const { screen } = presented;
    return {
      ...message,
      params: {
        ...params,
        deviceScaleFactor: screen.pixel_ratio,
        screenWidth: screen.width,
        screenHeight: screen.height,
      },
    };
  }
  const touchPoints = presented.identity.hardware.touch_points;
  if (message.method === 'Emulation.setTouchEmulationEnabled' && touchPoints > 0)
    return { ...message, params: { enabled: true, maxTouchPoints: touchPoints } };
  return message;
}
