import { Script } from '../api/inputs/automation';
import { toFieldErrors } from '../api/issues';
import type { FieldError } from '../api/schemas/problem';
import { z } from '../api/zod';

/** Something wrong with a script, at the step it concerns (0-based), or null for the script as a whole. */
export interface ScriptProblem {
  step: number | null;
  message: string;
}

export interface ScriptCheck {
  /** The script, when it is valid. */
  script: Script | null;
  problems: ScriptProblem[];
  /** Why the text is not JSON at all. */
  notJson?: string;
}

/** Reads a script typed as JSON and checks it against the contract's schema. */
export function checkScript(text: string): ScriptCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { script: null, problems: [], notJson: (error as Error).message };
  }
  const result = z.safeParse(Script, value);
  if (result.success) return { script: result.data, problems: [] };
  return { script: null, problems: toFieldErrors(result.error.issues).map(toScriptProblem) };
}

/** A field error about a script (`steps[2].url`, or the service's `script.steps[2].url`) as a step's problem. */
export function toScriptProblem({ path, message }: FieldError): ScriptProblem {
  const match = /^(?:script\.?)?(?:steps\[(\d+)\]\.?)?(.*)$/.exec(path);
  const [, step, field = ''] = match ?? [];
  return {
    step: step === undefined ? null : Number(step),
    message: field ? `The field “${field}” ${message}.` : message,
  };
}
