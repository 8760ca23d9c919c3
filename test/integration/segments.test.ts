import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { writeSegments } from '../../src/storage/segments';
import type { PageRecord, Processed } from '../../src/types';

function processed(url: string, body?: Uint8Array): Processed {
  const page: PageRecord = {
    url,
    status: 200,
    contentType: 'text/html',
    title: null,
    depth: 0,
    bytes: body?.byteLength ?? 0,
    fetchedAt: 0,
    bodyAt: null,
    redirectTo: null,
  };
  return { outcome: { url, kind: 'stored', fetched: true }, attempts: 1, page, ...(body ? { body } : {}) };
}

describe('writeSegments', () => {
  for (const [how, concatMaxBytes] of [
    ['in one buffer', undefined],
    ['streamed', 0],
  ] as const)
    it(`packs a batch of bodies into segments (${how}) and points each page at its byte range`, async () => {
      const crawlId = `seg-${crypto.randomUUID()}`;
      const bodies = ['alpha', '', 'gamma-gamma', 'delta', 'ε-unicode-body'].map((t) =>
        new TextEncoder().encode(t.repeat(3)),
      );
      const results = [...bodies.map((b, i) => processed(`http://e.com/${i}`, b)), processed('http://e.com/no-body')];
      const segments = await writeSegments(env.BODIES, crawlId, results, {
        targetBytes: 30,
        ...(concatMaxBytes === undefined ? {} : { concatMaxBytes }),
      });
      expect(segments).toBe(2);

      const listed = await env.BODIES.list({ prefix: `crawls/${crawlId}/segments/`, include: ['customMetadata'] });
      expect(listed.objects).toHaveLength(2);
      expect(listed.objects.reduce((n, o) => n + Number(o.customMetadata?.pages), 0)).toBe(5);

      for (const [i, body] of bodies.entries()) {
        const page = results[i]!.page!;
        expect(page.bodyAt?.key).toMatch(new RegExp(`^crawls/${crawlId}/segments/`));
        expect(page.bodyAt?.length).toBe(body.byteLength);
        if (body.byteLength === 0) continue;
        const object = await env.BODIES.get(page.bodyAt!.key, {
          range: { offset: page.bodyAt!.offset!, length: page.bodyAt!.length! },
        });
        expect(new Uint8Array(await object!.arrayBuffer())).toEqual(body);
      }
      expect(results[5]!.page!.bodyAt).toBeNull();
    });

  it('writes nothing for a batch without bodies', async () => {
    const crawlId = `seg-${crypto.randomUUID()}`;
    expect(await writeSegments(env.BODIES, crawlId, [processed('http://e.com/a')])).toBe(0);
    expect((await env.BODIES.list({ prefix: `crawls/${crawlId}/` })).objects).toHaveLength(0);
  });
});
