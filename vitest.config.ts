import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

export default defineConfig(async () => {
  const migrations = await readD1Migrations(new URL('./migrations', import.meta.url).pathname);
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            API_TOKEN: 'test-token',
            // The test sites are served on 127.0.0.1 to 127.0.0.13 and localhost; any other private address
            // (127.0.0.77 among them, which the faults site redirects to) must be refused.
            ALLOW_PRIVATE_NETWORKS: ['localhost', ...Array.from({ length: 13 }, (_, i) => `127.0.0.${i + 1}`)].join(','),
            FETCH_TIMEOUT_MS: '3000',
            // Politeness is tested on hosts of its own (test/integration/politeness.test.ts);
            // elsewhere the shared 127.0.0.1 host is not paced, so tests stay fast.
            HOST_MIN_INTERVAL_MS: '0',
            HOST_MAX_CONCURRENCY: '64',
          },
        },
      }),
    ],
    test: {
      include: ['test/**/*.test.ts'],
      globalSetup: ['./test/support/global-setup.ts'],
      setupFiles: ['./test/support/apply-migrations.ts'],
      testTimeout: 90_000,
      hookTimeout: 30_000,
      // The Worker logs JSON lines; show them only for failing tests.
      silent: 'passed-only' as const,
    },
  };
});
