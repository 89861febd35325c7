import { TypedText } from '../../../lib/api/inputs/automation';
import { Ref } from '../../../lib/api/inputs/page-tools';
import { z } from '../../../lib/api/zod';
import { refsOf } from '../page-refs';
import { chooseOptions } from '../page-select';
import { where } from '../page-where';
import { definePageTool, ELEMENT_TIMEOUT } from './page-tool';

const Field = z.strictObject({
  ref: Ref,
  name: z.optional(z.string().check(z.maxLength(500))),
  type: z.enum(['textbox', 'checkbox', 'radio', 'combobox', 'slider']),
  value: TypedText.check(z.describe('Text, true/false, or an option.')),
});

export const fillForm = definePageTool({
  name: 'browser_fill_form',
  title: 'Fill several fields',
  description: 'Fills several fields by ref in one call.',
  input: { fields: z.array(Field).check(z.minLength(1), z.maxLength(100)) },
  advertised: {
    fields: z.array(
      z
        .object({})
        .check(
          z.describe(
            'ref, name?, type (textbox, checkbox, radio, combobox or slider), value (text, true/false or an option)',
          ),
        ),
    ),
  },
  async run(tab, { fields }) {
    const timeout = ELEMENT_TIMEOUT;
    for (const field of fields) {
      const target = await refsOf(tab.current).locate(field.ref, field.name);
      if (field.type === 'checkbox' || field.type === 'radio')
        await target.setChecked(field.value === 'true', { timeout });
      else if (field.type === 'combobox') await chooseOptions(target, [field.value], timeout);
      else await target.fill(field.value, { timeout });
    }
    return where(tab.current, `Filled ${fields.length} field${fields.length === 1 ? '' : 's'}.`);
  },
});
