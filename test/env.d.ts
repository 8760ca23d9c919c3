import type { D1Migration } from 'cloudflare:test';

declare global {
  /** Vite's glob import, as the workers project's tests use it (vite/client is not a dependency of ours). */
  interface ImportMeta {
    glob<T>(pattern: string, options: { query: string; import: string; eager: true }): Record<string, T>;
  }
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}
