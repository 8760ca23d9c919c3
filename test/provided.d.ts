import 'vitest';

declare module 'vitest' {
  interface ProvidedContext {
    /** Base URLs of the test site, on two ports of 127.0.0.1. */
    siteA: string;
    siteB: string;
    /** Port of site A: http://localhost:<portA> serves the same site under another host name. */
    portA: number;
  }
}
