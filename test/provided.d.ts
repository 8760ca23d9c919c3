import 'vitest';
import type { FirecrawlSpecs } from './support/firecrawl-conformance';

declare module 'vitest' {
  interface ProvidedContext {
    /** Base URLs of the test site, on two ports of 127.0.0.1. */
    siteA: string;
    siteB: string;
    /** Port of site A: http://localhost:<portA> serves the same site under another host name. */
    portA: number;
    /** Base URLs on 127.0.0.2, 127.0.0.3, ...: hosts of their own, for robots.txt and politeness tests. */
    hosts: string[];
    /**
     * The simulated web (test/support/sim-web.ts): its sites' base URLs (127.1.0.1 ... on one port, 12 pages each) and
     * its control server (GET /__log?host=...).
     */
    simWeb: { hosts: string[]; control: string };
    /** The fake model's base URL (…/v1, test/support/fake-llm.ts): GET <origin>/__requests lists what it was asked. */
    llm: string;
    /** Firecrawl's OpenAPI documents from ../shared/specs/firecrawl (test/support/firecrawl-specs.ts), or null. */
    firecrawlSpecs: FirecrawlSpecs | null;
  }
}
