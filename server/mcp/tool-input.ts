import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { listedErrors } from '../../lib/api/issues';
import type { z } from '../../lib/api/zod';
import { boundedText } from '../core/bounded-text';
import { ProblemError, type ProblemInit } from '../http/problem';
import { validate } from '../http/validate';

/** The part of the SDK's server that checks a tool call's arguments before the tool runs. */
interface ArgumentCheck {
  validateToolInput(tool: { inputSchema?: z.core.$ZodType }, args: unknown, name: string): Promise<unknown>;
}

/**
 * Has `server` check each tool call's arguments as the HTTP routes check a body (`validate`): U+0000 refused
 * wherever it is, then the tool's schema, answered with the first field errors and how many more there were. The
 * SDK's own check lets U+0000 through to the database and lists every issue (9,000 for 3,000 bad cookies). Its
 * refusal is thrown as an Error, which the SDK answers as a tool error with the sentence.
 */
export function checkToolArguments(server: McpServer): void {
  const sdk = server as unknown as ArgumentCheck;
  sdk.validateToolInput = async (tool, args, name) => {
    if (!tool.inputSchema) return undefined;
    try {
      return validate(tool.inputSchema, args ?? {}, 'arguments');
    } catch (error) {
      if (error instanceof ProblemError) throw new Error(refusal(name, error.problem));
      throw error;
    }
  };
}

function refusal(tool: string, { detail, errors = [] }: ProblemInit): string {
  const { listed, notListed } = listedErrors(errors);
  const lines = listed.map(({ path, message }) => boundedText(`- ${path || '(the arguments)'}: ${message}`));
  if (notListed > 0) lines.push(`- and ${notListed} more`);
  return [boundedText(`${tool}: ${detail}`), ...lines].join('\n');
}
