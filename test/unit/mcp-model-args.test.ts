/** The MCP tools' model arguments (jsonSchema, prompt, summaryPrompt) folded into the API body's extract. */
import { describe, expect, it } from 'vitest';
import { withModelArgs } from '../../src/api/mcp/model-args';
import { ToolError } from '../../src/api/mcp/output';

const SCHEMA = { type: 'object', properties: { price: { type: 'number' } } };

describe('withModelArgs', () => {
  it('leaves the body as it is without model arguments', () => {
    const body = { url: 'https://example.com/', formats: ['summary'] };
    expect(withModelArgs(body, {})).toBe(body);
  });

  it("adds json to the API's default formats, with the schema and the prompt", () => {
    expect(withModelArgs({ url: 'u' }, { jsonSchema: SCHEMA, prompt: 'the price' })).toEqual({
      url: 'u',
      extract: { formats: ['markdown', 'metadata', 'json'], json: { schema: SCHEMA, prompt: 'the price' } },
    });
  });

  it('turns the formats shorthand into extract (the API takes one or the other)', () => {
    expect(withModelArgs({ url: 'u', formats: ['markdown'] }, { summaryPrompt: 'one line' })).toEqual({
      url: 'u',
      extract: { formats: ['markdown', 'summary'], summary: { prompt: 'one line' } },
    });
  });

  it("keeps the rest of a given extract, the arguments over its json's keys", () => {
    const extract = { formats: ['text', 'json'], mainContent: false, json: { prompt: 'old', learnSelectors: true } };
    expect(withModelArgs({ seeds: ['s'], extract }, { jsonSchema: SCHEMA })).toEqual({
      seeds: ['s'],
      extract: {
        formats: ['text', 'json'],
        mainContent: false,
        json: { prompt: 'old', learnSelectors: true, schema: SCHEMA },
      },
    });
  });

  it('refuses them on a plain crawl', () => {
    expect(() => withModelArgs({ seeds: ['s'], extract: null }, { prompt: 'x' })).toThrow(ToolError);
  });
});
