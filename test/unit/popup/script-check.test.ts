import { describe, expect, it } from 'vitest';
import { Script } from '../../../lib/api/inputs/automation';
import { z } from '../../../lib/api/zod';
import { checkScript, toScriptProblem } from '../../../lib/automation/check-script';
import messages from '../../../public/_locales/en/messages.json';
import examples from '../../../public/scripts/examples.json';

describe('checkScript', () => {
  it('gives the script when it is valid', () => {
    const text = '{"steps":[{"action":"wait_for","ms":500}],"timeout_ms":5000}';
    expect(checkScript(text)).toEqual({
      script: { steps: [{ action: 'wait_for', ms: 500 }], timeout_ms: 5000 },
      problems: [],
    });
  });

  it('says why text is not JSON', () => {
    const checked = checkScript('{"steps": [');
    expect(checked.script).toBeNull();
    expect(checked.notJson).toMatch(/JSON/);
  });

  it('places each problem at its step, and script-wide ones at none', () => {
    const checked = checkScript(
      JSON.stringify({
        steps: [
          { action: 'goto', url: 'https://a.b/' },
          { action: 'type', selector: '#q' },
        ],
        timeout_ms: 5,
      }),
    );
    expect(checked.problems).toEqual([
      { step: 1, message: 'The field “text” is required.' },
      { step: null, message: 'The field “timeout_ms” must be at least 1000.' },
    ]);
    expect(checkScript('{"steps":[]}').problems).toEqual([
      { step: null, message: 'The field “steps” needs at least one step.' },
    ]);
  });

  it('reads the service’s field errors about a run’s script the same way', () => {
    expect(toScriptProblem({ path: 'script.steps[3].selector', message: 'must not be empty' })).toEqual({
      step: 3,
      message: 'The field “selector” must not be empty.',
    });
    expect(toScriptProblem({ path: 'profile_id', message: 'is required' })).toEqual({
      step: null,
      message: 'The field “profile_id” is required.',
    });
  });
});

describe('the ready examples', () => {
  it('are valid scripts, each with a title', () => {
    for (const [key, script] of Object.entries(examples)) {
      expect(z.safeParse(Script, script).success, key).toBe(true);
      expect(messages, key).toHaveProperty(key);
    }
    expect(Object.keys(examples).length).toBeGreaterThanOrEqual(3);
  });
});
