import { describe, expect, it } from 'vitest';
import { answerSchema, unwrapAnswer } from '../../../src/domain/model/answer-schema';
import { cutToFit, estimateTokens } from '../../../src/domain/model/budget';
import { DEFAULT_WORKERS_AI_MODEL } from '../../../src/domain/model/limits';
import {
  DEFAULT_MODEL_BUDGET,
  modelRequest,
  pageRequest,
  SYSTEM_PROMPT,
  schemaInPrompt,
} from '../../../src/domain/model/prompt';
import type { ModelAsk } from '../../../src/domain/model/types';

const schema = { type: 'object', properties: { price: { type: 'number' } } };
const page = { url: 'https://shop.test/lamp', title: 'Lamp', markdown: '# Lamp\n\nPrice: $12.50\n\nA good lamp.' };
const budget = { inputTokens: 6000, outputTokens: 512 };

describe('modelRequest', () => {
  it('says what it extracts and how to answer, then the page, then the prompts', () => {
    const ask: ModelAsk = { json: { schema, prompt: 'Prices in dollars.' }, summary: null };
    const request = modelRequest(ask, page, budget);
    expect(request.messages[0]).toEqual({ role: 'system', content: SYSTEM_PROMPT });
    expect(SYSTEM_PROMPT).toMatch(/web page/);
    expect(SYSTEM_PROMPT).toMatch(/one JSON object only/);
    expect(SYSTEM_PROMPT).toMatch(/never invent.*null/);
    const user = request.messages[1]?.content ?? '';
    expect(user).toContain('Page URL: https://shop.test/lamp\nPage title: Lamp\n');
    expect(user).toContain('<<<\n# Lamp\n\nPrice: $12.50\n\nA good lamp.\n>>>');
    expect(user.indexOf('Prices in dollars.')).toBeGreaterThan(user.indexOf('>>>'));
    expect(request).toMatchObject({ schema, maxTokens: 512 });
  });

  it('asks JSON and a summary in one call, through a wrapper schema', () => {
    const both: ModelAsk = { json: { schema, prompt: null }, summary: { prompt: null } };
    expect(modelRequest(both, page, budget).schema).toEqual({
      type: 'object',
      properties: { json: schema, summary: { type: 'string' } },
      required: ['json', 'summary'],
      additionalProperties: false,
    });
    expect(modelRequest(both, page, budget).messages[1]?.content).toContain('Summarize the page in 2-3 sentences.');
    const promptOnly: ModelAsk = { json: { schema: null, prompt: 'The authors.' }, summary: { prompt: 'One line.' } };
    expect(answerSchema(promptOnly)).toMatchObject({ properties: { json: { type: 'object' } } });
    expect(answerSchema({ json: { schema: null, prompt: 'x' }, summary: null })).toBeNull();
    expect(answerSchema({ json: null, summary: { prompt: null } })).toMatchObject({ required: ['summary'] });
  });

  it('unwraps an answer as it was asked', () => {
    const both: ModelAsk = { json: { schema, prompt: null }, summary: { prompt: null } };
    expect(unwrapAnswer(both, { json: { price: 1 }, summary: 'S.' })).toEqual({ json: { price: 1 }, summary: 'S.' });
    expect(unwrapAnswer({ json: { schema, prompt: null }, summary: null }, { price: 1 })).toEqual({
      json: { price: 1 },
    });
    expect(unwrapAnswer({ json: null, summary: { prompt: null } }, { summary: 'S.' })).toEqual({ summary: 'S.' });
  });

  it('cuts the Markdown to the budget, keeping its head, at a paragraph, with a marker', () => {
    const paragraphs = Array.from({ length: 400 }, (_, i) => `Paragraph ${i} says something about the lamp.`);
    const long = { ...page, markdown: `# Lamp\n\nPrice: $12.50\n\n${paragraphs.join('\n\n')}` };
    const { request, cut } = pageRequest({ json: { schema, prompt: null }, summary: null }, long, {
      ...budget,
      inputTokens: 1000,
    });
    const user = request.messages[1]?.content ?? '';
    expect(cut).not.toBeNull();
    expect(cut?.totalChars).toBe(long.markdown.length);
    expect(user).toContain('# Lamp\n\nPrice: $12.50\n\nParagraph 0 says');
    expect(user).toMatch(/says something about the lamp\.\n\n\[… cut: \d+ of \d+ characters kept\]\n>>>/);
    expect(user).toContain(`[… cut: ${cut?.keptChars} of ${long.markdown.length} characters kept]`);
    const tokens =
      request.messages.reduce((sum, m) => sum + estimateTokens(m.content), 0) + estimateTokens(JSON.stringify(schema));
    expect(tokens).toBeLessThanOrEqual(1000);
    expect(tokens).toBeGreaterThan(900);
    expect(pageRequest({ json: { schema, prompt: null }, summary: null }, page, budget).cut).toBeNull();
  });

  it('cuts at a line or a space when a paragraph break is too far back', () => {
    expect(cutToFit('a'.repeat(100), 5).text).toMatch(/^\[… cut: 0 of 100 characters kept\]$/);
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const { text, cut } = cutToFit(lines, 50);
    expect(text).toMatch(/^line 0\nline 1\n[\s\S]*\nline \d+\n\n\[… cut: \d+ of 789 characters kept\]$/);
    expect(cut?.keptChars).toBeLessThan(200);
  });

  it('tells the schema in the prompt for an endpoint without json_schema', () => {
    const request = modelRequest({ json: { schema, prompt: null }, summary: null }, page, budget);
    const told = schemaInPrompt(request);
    expect(told.messages[0]?.content).toBe(
      `${SYSTEM_PROMPT}\nThe JSON object must follow this JSON Schema: ${JSON.stringify(schema)}`,
    );
    expect(told.messages.slice(1)).toEqual(request.messages.slice(1));
  });

  it("keeps the default budget well inside the default model's context window", () => {
    // Llama 3.3 70B fp8-fast: 24,000 tokens of context; the estimate of ceil(chars/4) may err low by a third.
    expect(DEFAULT_WORKERS_AI_MODEL).toBe('@cf/meta/llama-3.3-70b-instruct-fp8-fast');
    expect((DEFAULT_MODEL_BUDGET.inputTokens * 4) / 3 + DEFAULT_MODEL_BUDGET.outputTokens).toBeLessThan(24_000);
  });

  it('estimates tokens as characters / 4, rounded up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcde')).toBe(2);
  });
});
