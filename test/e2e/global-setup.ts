import { runWxt } from '../../scripts/wxt';

/**
 * Builds the extension once for every e2e file, into folders of their own: .output/chrome-mv3-e2e and
 * .output/firefox-mv3-e2e.
 */
export default function buildExtension(): void {
  runWxt(['build', '--mode', 'e2e']);
  runWxt(['build', '-b', 'firefox', '--mv3', '--mode', 'e2e']);
}
