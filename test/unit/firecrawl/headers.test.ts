import { describe, expect, it } from 'vitest';
import { scrapeSchema } from '../../../src/api/schemas';
import { configOf, settingsView } from '../../../src/credentials';
import { crawlSettingsSchema } from '../../../src/domain/crawl/settings';
import { crawlRequestSchema, translateBatch, translateCrawl } from '../../../src/domain/firecrawl/crawl-options';
import { credentialsOfHeaders, parseCookieHeader } from '../../../src/domain/firecrawl/headers';
import { scrapeOptionsSchema, translateScrape } from '../../../src/domain/firecrawl/scrape-options';

const SECRET = 'key-s3cr3t';

const scrapeOf = (options: Record<string, unknown>) => {
  const t = translateScrape(scrapeOptionsSchema.parse(options), 2);
  if (!t.ok) throw new Error(t.message);
  return t.value;
};

describe("Firecrawl's headers as edgecrawl's credentials", () => {
  it('reads a Cookie header into cookies, each name=value pair of it', () => {
    expect(parseCookieHeader('session=abc; theme=dark;  x="q=1"')).toEqual({
      cookies: [
        { name: 'session', value: 'abc' },
        { name: 'theme', value: 'dark' },
        { name: 'x', value: '"q=1"' },
      ],
      malformed: false,
    });
    expect(parseCookieHeader('lonely; =nameless; ok=1; empty=')).toEqual({
      cookies: [
        { name: 'ok', value: '1' },
        { name: 'empty', value: '' },
      ],
      malformed: true,
    });
  });

  it('sends the headers, the cookies of Cookie, and names the headers edgecrawl sets itself, never a value', () => {
    const { credentials, warnings } = credentialsOfHeaders({
      'X-Api-Key': SECRET,
      Authorization: `Bearer ${SECRET}`,
      cookie: `session=${SECRET}; b=2`,
      'User-Agent': 'Mozilla/5.0 firecrawl',
      'accept-encoding': 'gzip',
      'CF-Connecting-IP': '1.2.3.4',
      'Accept-Language': 'de',
    });
    expect(credentials).toEqual({
      headers: { 'X-Api-Key': SECRET, Authorization: `Bearer ${SECRET}`, 'Accept-Language': 'de' },
      cookies: [
        { name: 'session', value: SECRET },
        { name: 'b', value: '2' },
      ],
    });
    expect(warnings).toEqual([
      'headers edgecrawl sets itself, not sent: User-Agent, accept-encoding, CF-Connecting-IP',
    ]);
    expect(credentialsOfHeaders({ Cookie: `=${SECRET}` })).toEqual({
      credentials: {},
      warnings: ['Cookie header: parts that are not name=value were not sent'],
    });
    expect(credentialsOfHeaders(undefined)).toEqual({ credentials: {}, warnings: [] });
    expect(credentialsOfHeaders({ 'User-Agent': 'x' }).credentials).toEqual({});
  });

  it("makes a scrape's headers the credentials of edgecrawl's scrape, which its schema takes", () => {
    const t = scrapeOf({ headers: { 'X-Api-Key': SECRET, Cookie: 'session=s', 'User-Agent': 'sdk' } });
    expect(t.credentials).toEqual({ headers: { 'X-Api-Key': SECRET }, cookies: [{ name: 'session', value: 's' }] });
    expect(t.warnings).toEqual(['headers edgecrawl sets itself, not sent: User-Agent']);
    expect(JSON.stringify(t.warnings)).not.toContain(SECRET);
    const parsed = scrapeSchema.parse({ url: 'https://example.com/', ...t.scrape, ...t.credentials });
    expect(parsed).toMatchObject({
      headers: { 'X-Api-Key': SECRET },
      cookies: [{ name: 'session', value: 's', path: '/', secure: false }],
    });
    expect(scrapeOf({}).credentials).toEqual({});
    expect(scrapeOf({ headers: {} }).warnings).toEqual([]);
  });

  it("gives a crawl's scrapeOptions.headers to the crawl, for its start host only, shown by name", async () => {
    const request = crawlRequestSchema.parse({
      url: 'https://Wiki.example.com/docs/',
      scrapeOptions: { headers: { 'X-Api-Key': SECRET, Cookie: `session=${SECRET}` } },
    });
    const t = translateCrawl(request, 2, 0);
    if (!t.ok) throw new Error(t.message);
    expect(t.value.warnings).toEqual([]);
    const settings = crawlSettingsSchema.parse(t.value.settings);
    expect(settings).toMatchObject({ headers: { 'X-Api-Key': SECRET }, cookies: [{ name: 'session' }] });
    expect(settings.credentialsFor).toBeUndefined();
    expect(settingsView(settings).credentials).toEqual({
      hosts: ['wiki.example.com'],
      headers: ['X-Api-Key'],
      cookies: [{ name: 'session', domain: null, path: '/', secure: false }],
      authenticate: false,
      login: null,
    });
    const stored = await configOf({ CREDENTIALS_KEY: 'unit-test-credentials-key-0123456789' }, settings);
    expect(JSON.stringify(stored)).not.toContain(SECRET);
  });

  it('says so when a crawl that leaves its start host sends its headers to that host only', () => {
    const request = crawlRequestSchema.parse({
      url: 'https://wiki.example.com/',
      allowSubdomains: true,
      scrapeOptions: { headers: { 'X-Api-Key': SECRET } },
    });
    const t = translateCrawl(request, 2, 0);
    if (!t.ok) throw new Error(t.message);
    expect(t.value.warnings).toEqual([
      'headers are sent to wiki.example.com only, not to the other hosts the crawl reaches',
    ]);
    const plain = translateCrawl(crawlRequestSchema.parse({ url: 'https://a.example/', allowSubdomains: true }), 2, 0);
    expect(plain.ok && plain.value.warnings).toEqual([]);
  });

  it("gives a batch's headers to its crawl, for its URLs' hosts", () => {
    const urls = ['https://a.example/', 'https://b.example/x'];
    const batch = translateBatch({ urls, headers: { 'X-Api-Key': SECRET, 'user-agent': 'sdk' } }, 2);
    if (!batch.ok) throw new Error(batch.message);
    expect(batch.value.warnings).toEqual(['headers edgecrawl sets itself, not sent: user-agent']);
    const settings = crawlSettingsSchema.parse(batch.value.settings);
    expect(settings.headers).toEqual({ 'X-Api-Key': SECRET });
    expect(settingsView(settings).credentials?.hosts).toEqual(['a.example', 'b.example']);
  });
});
