import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import {
  readSelectorReply,
  SELECTOR_MARKER,
  selectorAnswerSchema,
  selectorRequest,
} from '../../../src/domain/model/selector-prompt';

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    price: { type: 'number' },
    seller: { type: 'object', properties: { name: { type: 'string' } } },
  },
  required: ['name'],
};

describe('selectorRequest', () => {
  const request = selectorRequest(SCHEMA, [
    { url: 'https://s.test/p/1.html', html: '<h1>A</h1>', json: { name: 'A' } },
  ]);

  it('opens with the marker and carries each sample with its answer', () => {
    expect(request.messages[0]?.role).toBe('system');
    expect(request.messages[0]?.content.startsWith(SELECTOR_MARKER)).toBe(true);
    const user = request.messages[1]?.content ?? '';
    expect(user).toContain('Sample 1 of 1: https://s.test/p/1.html');
    expect(user).toContain('<<<HTML\n<h1>A</h1>\nHTML>>>');
    expect(user).toContain('<<<JSON\n{"name":"A"}\nJSON>>>');
  });

  it('lists the mismatches of a first attempt', () => {
    const again = selectorRequest(SCHEMA, [], ['https://s.test/p/1.html: price read nothing, the answer has 3']);
    expect(again.messages[1]?.content).toContain('- https://s.test/p/1.html: price read nothing');
  });

  it('gives the answer a JSON Schema that JSON mode can hold the model to', () => {
    const answer = selectorAnswerSchema(SCHEMA);
    expect(request.schema).toEqual(answer);
    const validator = new Validator(answer, '2020-12', false);
    expect(
      validator.validate({ fields: { name: { selector: 'h1' }, seller: { selector: '.s', fields: {} } } }).valid,
    ).toBe(true);
    expect(validator.validate({ fields: { color: { selector: 'h1' } } }).valid).toBe(false);
    expect(validator.validate({ fields: { name: { selector: 'h1', type: 'bool' } } }).valid).toBe(false);
  });
});

describe('readSelectorReply', () => {
  it('keeps valid fields of the schema, nested ones limited to the nested properties', () => {
    const text = JSON.stringify({
      fields: {
        name: { selector: 'h1', type: 'text' },
        price: { selector: '.price', type: 'number' },
        seller: { selector: '.seller', fields: { name: { selector: 'b' }, phone: { selector: 'i' } } },
      },
    });
    const reply = readSelectorReply(text, SCHEMA);
    expect(reply).toEqual({
      ok: true,
      fields: {
        name: { selector: 'h1', type: 'text' },
        price: { selector: '.price', type: 'number' },
        seller: { selector: '.seller', fields: { name: { selector: 'b' } } },
      },
      problems: ['seller.phone: not a property of the schema, dropped'],
    });
  });

  it('refuses invalid CSS and drops unknown properties, saying why', () => {
    const reply = readSelectorReply(
      '```json\n{"fields": {"name": {"selector": "h1[[["}, "price": {"selector": ".p"}, "colour": {"selector": "i"}}}\n```',
      SCHEMA,
    );
    if (!reply.ok) throw new Error(reply.why);
    expect(reply.fields).toEqual({ price: { selector: '.p' } });
    expect(reply.problems).toHaveLength(2);
    expect(reply.problems[0]).toMatch(/^name: selector: invalid CSS selector/);
    expect(reply.problems[1]).toBe('colour: not a property of the schema, dropped');
  });

  it('refuses a reply with no usable field, or not JSON', () => {
    expect(readSelectorReply('{"fields": {"name": {"selector": 3}}}', SCHEMA).ok).toBe(false);
    expect(readSelectorReply('{"fields": {"name": {"selector": "h1", "extra": 1}}}', SCHEMA).ok).toBe(false);
    expect(readSelectorReply('sorry', SCHEMA)).toEqual({
      ok: false,
      why: 'the reply is not a JSON object with "fields"',
    });
  });
});
