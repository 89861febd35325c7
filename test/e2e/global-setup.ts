import { runWxt } from '../../scripts/wxt';

/** Builds the extension once for every e2e file, into a folder of its own (.output/chrome-mv3-e2e). */
export default function buildExtension(): void {
  runWxt(['build', '--mode', 'e2e']);
}
