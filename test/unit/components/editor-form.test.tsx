// @vitest-environment happy-dom
import { h, render } from 'preact';
import { afterEach, expect, it } from 'vitest';
import { EditorForm } from '../../../components/EditorForm';

const container = document.createElement('div');
document.body.append(container);
afterEach(() => render(null, container));

function openForm() {
  render(
    h(EditorForm, {
      title: 'Edit Office',
      onSubmit: () => {},
      onEscape: () => {},
      children: [h('input', { 'aria-label': 'Paste' }), h('input', { 'aria-label': 'Name' })],
    }),
    container,
  );
  const [paste, name] = container.querySelectorAll('input');
  return { paste: paste as HTMLInputElement, name: name as HTMLInputElement };
}

it('gives its first field the focus as it is put on the page', () => {
  const { paste } = openForm();
  expect(document.activeElement).toBe(paste);
});

it('leaves the focus in a field the person moved to as soon as it showed, once the page has painted', async () => {
  const { name } = openForm();
  name.focus();
  // Effects that run after the paint: the focus moved to the first field here, and the typing went there.
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(document.activeElement).toBe(name);
});
