/**
 * The most browsers of one node an account may hold while another account waits for room: three quarters of
 * the node's MAX_BROWSERS, rounded down, and never less than one. With nobody else waiting, it may hold them all.
 */
export function fairShare(maxBrowsers: number): number {
  return Math.max(1, Math.floor((maxBrowsers * 3) / 4));
}
