/** A page tool's failure worded for the model: a stale ref, an element that never came, a page that failed. */
export class PageProblem extends Error {
  override name = 'PageProblem';
}
