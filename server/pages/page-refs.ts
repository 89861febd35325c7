import type { Locator, Page } from 'playwright-core';
import { PageProblem } from '../core/domain-errors';

/** How long a snapshot may take on a heavy page before the tool says so. */
const SNAPSHOT_TIMEOUT_MS = 10_000;

/** `[ref=e12]`, or `[ref=f1e3]` inside an iframe, as Playwright's "ai" snapshot writes them. */
const REF_IN_SNAPSHOT = /\[ref=([a-z0-9]+)\]/g;

/**
 * The refs of a tab's latest snapshot. They stay valid until the tab's page changes (a navigation of its main
 * frame) or the next snapshot; a ref of an older one, or of an element the page removed, is refused with a
 * sentence that says to take a new snapshot, never silently applied to another element.
 */
export class PageRefs {
  private known = new Set<string>();
  private navigations = 0;
  private navigationsAtSnapshot = -1;

  constructor(private readonly page: Page) {
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) this.navigations += 1;
    });
  }

  /**
   * The page's accessibility tree as YAML-like text, each element a tool can act on marked `[ref=…]`: the whole
   * page, or the subtree under the element of a ref, `depth` levels deep at most. Its refs are the ones that work
   * from now on.
   */
  async read({ ref, depth }: { ref?: string; depth?: number } = {}): Promise<string> {
    const options = {
      mode: 'ai',
      timeout: SNAPSHOT_TIMEOUT_MS,
      ...(depth === undefined ? {} : { depth }),
    } as const;
    const root = ref === undefined ? this.page : await this.locate(ref, undefined);
    const text = await root.ariaSnapshot(options);
    this.known = new Set(Array.from(text.matchAll(REF_IN_SNAPSHOT), (match) => match[1] as string));
    this.navigationsAtSnapshot = this.navigations;
    return text;
  }

  /** The element behind a ref of the latest snapshot, if it is still on the page. */
  async locate(ref: string, element: string | undefined): Promise<Locator> {
    const what = element ? `${JSON.stringify(element)} (ref ${ref})` : `ref ${ref}`;
    if (this.navigationsAtSnapshot === -1)
      throw new PageProblem(
        `There is no snapshot of this tab yet; take one with browser_snapshot to get refs.`,
      );
    if (this.navigationsAtSnapshot !== this.navigations)
      throw new PageProblem(
        `The page changed since the last snapshot, so ${what} is stale; take a new snapshot.`,
      );
    if (!this.known.has(ref))
      throw new PageProblem(`${what} is not in the latest snapshot; take a new snapshot and use its refs.`);
    const locator = this.page.locator(`aria-ref=${ref}`);
    if ((await locator.count()) === 0)
      throw new PageProblem(`${what} is no longer on the page; take a new snapshot.`);
    return locator;
  }
}

const refsOfPage = new WeakMap<Page, PageRefs>();

/** The refs of a tab, kept beside it from the first time it is asked. */
export function refsOf(page: Page): PageRefs {
  let known = refsOfPage.get(page);
  if (!known) {
    known = new PageRefs(page);
    refsOfPage.set(page, known);
  }
  return known;
}
