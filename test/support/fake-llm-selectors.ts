/**
 * A stand-in for a model writing selectors (issue 33), as test sites stand in for the web: given the body of a
 * selector-writing chat request (selector-prompt.ts, recognised by SELECTOR_MARKER), it answers `{fields}` computed
 * from the prompt. For each property of the samples' answers it finds, in each sample's simplified HTML, the deepest
 * element whose text is the value (a number: whose text parses to it; a boolean: words for yes or no; an array: its
 * first item), proposes selectors for it by itemprop, id, class and a path from the nearest ancestor that has one,
 * and keeps the selector that reads the most samples right (one value, not several different ones; a list: every
 * item). Objects nested in the answer are not learned (left to the model per page). Pure: no I/O.
 */
import {
  collapse,
  type DomDocument,
  type DomElement,
  isElement,
  parseBounded,
  selectAll,
} from '../../src/domain/extract/dom';
import { parseNumber } from '../../src/domain/extract/number';
import type { FieldSpec } from '../../src/domain/extract/spec-schema';
import { SELECTOR_MARKER } from '../../src/domain/model/selector-prompt';

interface ChatBody {
  messages: { role: string; content: string }[];
  response_format?: unknown;
}

interface Sample {
  document: DomDocument;
  json: Record<string, unknown>;
}

const SAMPLE =
  /Sample \d+ of \d+: \S+\nHTML \(simplified\):\n<<<HTML\n([\s\S]*?)\nHTML>>>\nAnswer read from this page:\n<<<JSON\n([\s\S]*?)\nJSON>>>/g;

/** Whether a chat request asks for selectors (its system message opens with the marker). */
export function isSelectorRequest(body: ChatBody): boolean {
  return body.messages.some((m) => m.role === 'system' && m.content.startsWith(SELECTOR_MARKER));
}

function samplesOf(body: ChatBody): Sample[] {
  const user = body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  return [...user.matchAll(SAMPLE)].map((match) => {
    const json: unknown = JSON.parse(match[2] ?? 'null');
    const record = typeof json === 'object' && json !== null && !Array.isArray(json) ? json : {};
    return { document: parseBounded(match[1] ?? '', []).document, json: record as Record<string, unknown> };
  });
}

const norm = (text: string | null) => collapse(text).toLowerCase();
const YES = ['in stock', 'available', 'yes', 'true'];
const NO = ['out of stock', 'sold out', 'unavailable', 'no', 'false'];

/** Whether an element's text is `value`, as a page would write it. */
function shows(element: DomElement, value: unknown): boolean {
  const text = norm(element.textContent);
  if (typeof value === 'number') return text.length < 40 && parseNumber(text) === value;
  if (typeof value === 'boolean') return (value ? YES : NO).includes(text);
  return typeof value === 'string' && text === norm(value);
}

/** The deepest elements showing `value` (none of their children shows it too). */
function holders(document: DomDocument, value: unknown): DomElement[] {
  const all = selectAll(document, 'body *').filter((e) => shows(e, value));
  return all.filter((e) => !Array.from(e.children).some((child) => shows(child, value)));
}

const SAFE = /^[A-Za-z_][\w-]*$/;

/** A selector of the element's own hooks: itemprop, id, classes. */
function ownHooks(element: DomElement): string[] {
  const out: string[] = [];
  const itemprop = element.getAttribute('itemprop');
  if (itemprop && SAFE.test(itemprop)) out.push(`[itemprop="${itemprop}"]`);
  const id = element.getAttribute('id');
  if (id && SAFE.test(id)) out.push(`#${id}`);
  for (const c of (element.getAttribute('class') ?? '').split(/\s+/)) if (SAFE.test(c)) out.push(`.${c}`);
  return out;
}

function parentOf(element: DomElement): DomElement | null {
  const parent = element.parentNode;
  return parent && isElement(parent) && parent.localName !== 'body' ? parent : null;
}

/** Selectors for an element: its hooks, then each under its nearest ancestor's hooks, then a path from that ancestor. */
function candidates(element: DomElement, list: boolean): string[] {
  const own = ownHooks(element);
  const tag = element.localName;
  let anchor = parentOf(element);
  while (anchor && ownHooks(anchor).length === 0) anchor = parentOf(anchor);
  if (!anchor) return [...own, tag];
  const out = [...own];
  for (const hook of ownHooks(anchor)) {
    out.push(...own.map((o) => `${hook} ${o}`), `${hook} ${tag}`);
    const parent = parentOf(element);
    if (!list && parent === anchor) {
      const same = Array.from(anchor.children).filter((c) => c.localName === tag);
      out.push(`${hook} > ${tag}:nth-of-type(${same.indexOf(element) + 1})`);
    }
  }
  return out;
}

/** Whether a selector reads the sample's value: a list every item, in order; else one value (repeats allowed). */
function reads(document: DomDocument, selector: string, value: unknown): boolean {
  const matches = selectAll(document, selector);
  if (Array.isArray(value)) return matches.length === value.length && matches.every((m, i) => shows(m, value[i]));
  if (matches.length === 0 || !matches.every((m) => norm(m.textContent) === norm(matches[0]?.textContent ?? null)))
    return false;
  return matches[0] !== undefined && shows(matches[0], value);
}

function learnProperty(samples: Sample[], name: string): FieldSpec | null {
  const kind = samples.map((s) => s.json[name]).find((v) => v !== null && v !== undefined);
  if (kind === undefined || (typeof kind === 'object' && !Array.isArray(kind))) return null;
  const list = Array.isArray(kind);
  const proposed: string[] = [];
  for (const sample of samples) {
    const value = sample.json[name];
    const target = Array.isArray(value) ? value[0] : value;
    if (target === undefined || target === null) continue;
    for (const element of holders(sample.document, target)) proposed.push(...candidates(element, list));
  }
  let best: { selector: string; score: number } | null = null;
  for (const selector of new Set(proposed)) {
    const score = samples.filter((s) => s.json[name] != null && reads(s.document, selector, s.json[name])).length;
    if (score > (best?.score ?? 0)) best = { selector, score };
  }
  if (!best) return null;
  return {
    selector: best.selector,
    ...(typeof kind === 'number' ? { type: 'number' as const } : {}),
    ...(list ? { list: true } : {}),
  };
}

/** The stand-in's answer to a selector-writing request: `{fields}` for the properties it could place. */
export function selectorAnswer(body: ChatBody): { fields: Record<string, FieldSpec> } {
  const samples = samplesOf(body);
  const names = [...new Set(samples.flatMap((s) => Object.keys(s.json)))];
  const fields: Record<string, FieldSpec> = {};
  for (const name of names) {
    const spec = learnProperty(samples, name);
    if (spec) fields[name] = spec;
  }
  return { fields };
}
