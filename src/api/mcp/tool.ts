import type { CallToolResult, Tool as ListedTool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { describeIssues } from '../validate';
import type { ApiClient, ApiReply } from './api-client';
import { ToolError } from './output';

/**
 * One MCP tool. `input` is what tools/list shows an agent: the API's own schema (or fields of it) and the tool's own
 * arguments. It is not enforced here: a tool sends the API what it was given, so that the API's validation, defaults
 * and error messages are the ones an agent sees.
 */
export interface Tool {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  /** Reads only edgecrawl's own store (no request to the web, nothing started). */
  readOnly: boolean;
  run(args: Record<string, unknown>, api: ApiClient): Promise<CallToolResult>;
}

/** The tool as tools/list shows it, its input as JSON Schema (the schema's input side: before defaults apply). */
export function listing(tool: Tool): ListedTool {
  const schema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' });
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, property]) => [
      name,
      typeof property === 'object' ? property : {},
    ]),
  );
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: {
      type: 'object',
      properties,
      required: schema.required ?? [],
      additionalProperties: schema.additionalProperties ?? true,
      ...(schema.$defs ? { $defs: schema.$defs } : {}),
    },
    annotations: { readOnlyHint: tool.readOnly, openWorldHint: !tool.readOnly, idempotentHint: tool.readOnly },
  };
}

/** The tool's own arguments (those the API does not take), read with `schema`; wrong ones are a tool error. */
export function ownArgs<S extends z.ZodType>(schema: S, args: Record<string, unknown>): z.output<S> {
  const parsed = schema.safeParse(args);
  if (!parsed.success) throw new ToolError(`invalid arguments: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/** `args` without the tool's own keys: what the API is sent. */
export function apiArgs(args: Record<string, unknown>, own: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([key]) => !own.includes(key)));
}

/** The body of a 2xx answer, or the API's error as the tool's error. */
export function expectOk(reply: ApiReply): string {
  if (!reply.ok) throw new ToolError(reply.message);
  return reply.text;
}

/** The `offset` argument of tools whose text is read in parts. */
export const offsetArg = z
  .number()
  .int()
  .min(0)
  .default(0)
  .describe('Character offset to read on from, as a cut result says (0: the start)');

export const crawlIdArg = z.string().describe('The crawl id, as the crawl tool answered it');
