import type { Locator } from 'playwright-core';

/** How many of a select's options a refusal names. */
const OPTIONS_NAMED = 20;

/**
 * Chooses options of a `<select>` by value or label, as Playwright's `selectOption`, and answers the values chosen.
 * An option the select does not have is refused at once, naming the options it has: Playwright would wait its whole
 * timeout for the option to appear.
 */
export async function chooseOptions(target: Locator, wanted: string[], timeout: number): Promise<string[]> {
  const options = await target.evaluate(
    (element) =>
      element instanceof HTMLSelectElement
        ? [...element.options].map((option) => ({ value: option.value, label: option.label }))
        : null,
    undefined,
    { timeout },
  );
  // Not a select: Playwright's own refusal says what it is.
  if (options === null) return target.selectOption(wanted, { timeout });
  const missing = wanted.filter(
    (name) => !options.some(({ value, label }) => name === value || name === label),
  );
  if (missing.length > 0) {
    const labels = options.slice(0, OPTIONS_NAMED).map(({ label }) => `“${label}”`);
    const more = options.length > OPTIONS_NAMED ? ` and ${options.length - OPTIONS_NAMED} more` : '';
    const has = options.length ? `it has ${labels.join(', ')}${more}` : 'it has none';
    throw new Error(`the select has no option ${missing.map((name) => `“${name}”`).join(', ')} (${has})`);
  }
  return target.selectOption(wanted, { timeout });
}
