import { describe, expect, it } from 'vitest';
import { readAnswer, repairMessages } from '../../../src/domain/model/answer';
import type { ModelRequest } from '../../../src/domain/model/types';

const schema = { type: 'object', properties: { price: { type: 'number' } }, required: ['price'] };

describe('readAnswer', () => {
  it('reads a JSON object, in a fence or amid prose', () => {
    expect(readAnswer('{"price": 12}', schema)).toEqual({ ok: true, value: { price: 12 } });
    expect(readAnswer('```json\n{"price": 12}\n```', schema)).toEqual({ ok: true, value: { price: 12 } });
    expect(readAnswer('Here it is: {"price": 12, "x": {"y": 1}}. Hope this helps!', schema)).toEqual({
      ok: true,
      value: { price: 12, x: { y: 1 } },
    });
    expect(readAnswer('{"anything": true}', null)).toEqual({ ok: true, value: { anything: true } });
  });

  it('says why an answer is not good', () => {
    expect(readAnswer('', schema)).toEqual({ ok: false, error: 'the answer was empty' });
    expect(readAnswer('I cannot help.', schema)).toEqual({ ok: false, error: 'the answer holds no JSON object' });
    expect(readAnswer('{"name": "x", "price": ', schema)).toEqual({
      ok: false,
      error: 'the answer holds no JSON object',
    });
    expect(readAnswer('{"name": "x", "price": }', schema)).toMatchObject({
      ok: false,
      error: /^the answer is not valid JSON/,
    });
    expect(readAnswer('{"price": "twelve"}', schema)).toEqual({
      ok: false,
      error: '/price: expected number, got string',
    });
  });
});

describe('repairMessages', () => {
  it('asks again with the bad answer and what was wrong', () => {
    const request: ModelRequest = {
      messages: [
        { role: 'system', content: 's' },
        { role: 'user', content: 'u' },
      ],
      schema,
      maxTokens: 9,
    };
    expect(repairMessages(request, '{"price": "twelve"}', '/price: expected number, got string')).toEqual([
      { role: 'system', content: 's' },
      { role: 'user', content: 'u' },
      { role: 'assistant', content: '{"price": "twelve"}' },
      {
        role: 'user',
        content:
          'Your answer was not valid: /price: expected number, got string. Answer again with only the JSON object.',
      },
    ]);
  });
});
