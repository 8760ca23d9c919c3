import type { D1Migration } from 'cloudflare:test';

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}

declare module 'vitest' {
  interface ProvidedContext {
    /** Base URLs of the test site, on two ports of 127.0.0.1. */
    siteA: string;
    siteB: string;
    /** Port of both servers' other name: http://localhost:<portA> serves the same site under another host. */
    portA: number;
  }
}
