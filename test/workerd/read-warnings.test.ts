import { describe, expect, it } from 'vitest';
import { extractPage } from '../../src/domain/extract';
import { extractFacts } from '../../src/page/read';
import { decodeRecord } from '../../src/storage/records';

const SPEC = { formats: ['markdown' as const], mainContent: true, include: [], exclude: [], fields: {} };
const html = (text: string) =>
  new TextEncoder().encode(`<html><head><title>T</title></head><body>${text}</body></html>`);

describe("a page's warnings", () => {
  it("keep what was said apart from extraction ahead of the record's own, on the row and in the stored record", async () => {
    const result = await extractPage(html('<p>Too short.</p>'), 'text/html', 'https://example.com/', {
      ...SPEC,
      include: ['main.nothing-here'],
    });
    const own = [...result.record.warnings];
    expect(own.length).toBeGreaterThan(0);
    const others = ['render: not rendered (maxRenders reached)', 'links: the page could not be parsed (x)'];
    const { facts, record } = extractFacts(result, others);
    const stored = decodeRecord(record);
    expect(facts.warnings).toEqual([...others, ...own]);
    expect(stored?.record.warnings).toEqual([...others, ...own]);
    // The extraction's result is left as it was: applying it twice does not say things twice.
    expect(result.record.warnings).toEqual(own);
    expect(extractFacts(result, others).facts.warnings).toEqual([...others, ...own]);
  });
});
