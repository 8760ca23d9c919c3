import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { freePort } from './scripts/lib/local.ts';

/**
 * Loopback hosts the test site serves (127.0.0.1 and 127.0.0.2 .. 127.0.0.35, see test/support), and the simulated
 * web's sites (127.1.x.y, test/support/sim-web.ts).
 */
const TEST_HOSTS = ['localhost', ...Array.from({ length: 35 }, (_, i) => `127.0.0.${i + 1}`), '127.1.0.0/16'];

/**
 * Files that mostly wait (a host paced at 1 request/s, cron triggers a minute apart), started first so that the other
 * files of their project run beside them. Vitest orders by the last run's durations, and a fresh clone has none.
 */
const WAITING_FILES = ['test/system/restart.test.ts', 'test/system/local-schedules.test.ts'];

class WaitingFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const i = WAITING_FILES.findIndex((file) => spec.moduleId.endsWith(file));
      return i === -1 ? WAITING_FILES.length : i;
    };
    // Array.prototype.sort is stable: the rest keep Vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig(async () => {
  const migrations = await readD1Migrations(new URL('./migrations', import.meta.url).pathname);
  // The language model the Worker under test speaks to: a small OpenAI-compatible server that answers from the prompt
  // (test/support/fake-llm.ts), started by the global setup on this port, as the test sites stand in for the web.
  const llmPort = Number(process.env.EDGECRAWL_TEST_LLM_PORT ?? (await freePort()));
  process.env.EDGECRAWL_TEST_LLM_PORT = String(llmPort);
  return {
    test: {
      sequence: { sequencer: WaitingFilesFirst },
      projects: [
        {
          // Unit tests in plain Node: pure domain, extraction and URL code that needs nothing of workerd, so the inner
          // loop (npm run test:unit, npm run test:watch) takes seconds. Tests of code that needs workerd's runtime
          // (HTMLRewriter, cloudflare:sockets and cloudflare:workers in their imports, crypto.subtle.timingSafeEqual)
          // are in test/workerd.
          test: {
            name: 'unit',
            include: ['test/unit/**/*.test.ts'],
            environment: 'node',
            // The hostile pages (test/unit/hostile.test.ts) take seconds each by design: bounded, not instant, work.
            testTimeout: 30_000,
          },
        },
        {
          // Integration tests, and unit tests of code that needs workerd, inside workerd with the Worker's real bindings.
          plugins: [
            cloudflareTest({
              wrangler: { configPath: './wrangler.toml' },
              // Every binding simulated locally: Workers AI ([ai]) would need Cloudflare and a login.
              remoteBindings: false,
              miniflare: {
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  API_TOKEN: 'test-token',
                  // Signs deliveries of webhooks in Firecrawl's format that have no secret of their own.
                  WEBHOOK_SECRET: 'test-deployment-webhook-secret',
                  // Seals crawls' and schedules' credentials (src/credentials.ts).
                  CREDENTIALS_KEY: 'test-credentials-key-0123456789abcdef',
                  // Every JSON answer of a documented route is checked against its schema (src/api/openapi/check.ts).
                  CHECK_RESPONSES: 'true',
                  // The test sites are served on those hosts; any other private address (127.0.0.77
                  // among them, which the faults site redirects to) must be refused.
                  ALLOW_PRIVATE_NETWORKS: TEST_HOSTS.join(','),
                  FETCH_TIMEOUT_MS: '3000',
                  // Page fetches follow Cloudflare's six-connections rule, as deployed (see src/page/connections.ts).
                  EMULATE_CONNECTION_LIMIT: '6',
                  // Politeness is tested on hosts of its own (test/integration/politeness.test.ts);
                  // elsewhere the shared 127.0.0.1 host is not paced, so tests stay fast.
                  HOST_MIN_INTERVAL_MS: '0',
                  HOST_MAX_CONCURRENCY: '64',
                  // The model step (formats json and summary) speaks to the fake model; its key is checked by it.
                  LLM_BASE_URL: `http://127.0.0.1:${llmPort}/v1`,
                  LLM_MODEL: 'fake-model',
                  LLM_API_KEY: 'test-llm-key',
                  WORKERS_AI: 'off',
                  // A page's model message comes back sooner than in production's backoff.
                  MODEL_ATTEMPTS: '4',
                  // The account's model calls spaced at Workers AI's default limit (test/integration/model-pace.test.ts).
                  MODEL_REQUESTS_PER_MINUTE: '300',
                  // A render that hangs is cut sooner than in production (test/integration/render.test.ts).
                  RENDER_TIMEOUT_MS: '8000',
                  // Idle browsers are closed sooner than in production, so the test can see it.
                  BROWSER_IDLE_CLOSE_MS: '3000',
                },
              },
            }),
          ],
          test: {
            name: 'workers',
            include: ['test/integration/**/*.test.ts', 'test/workerd/**/*.test.ts'],
            globalSetup: ['./test/support/global-setup.ts'],
            setupFiles: ['./test/support/apply-migrations.ts'],
            // One workerd per pool worker for all the files it runs, not one per file: with isolation each file paid
            // for a new workerd and a fresh import of the Worker's module graph (seconds, more than most files' own
            // tests). Storage (and the Worker's module state) is then shared by the files a worker runs, so a test
            // names its own crawls (namespace()) and must not expect an empty database.
            isolate: false,
            // Two files at a time: most of a crawl test's time is waiting (on paced hosts, timeouts, the queue's
            // batch), so two overlap well on two cores. The default on two cores is one.
            maxWorkers: 2,
            testTimeout: 90_000,
            hookTimeout: 30_000,
            // The Worker logs JSON lines; show them only for failing tests.
            silent: 'passed-only' as const,
          },
        },
        {
          // The repository itself, in Node: the layout's layers, function lengths, the README against wrangler.toml;
          // and the CLI's parts (test/cli, type-checked with tsconfig.cli.json).
          test: { name: 'repo', include: ['test/repo/**/*.test.ts', 'test/cli/**/*.test.ts'], environment: 'node' },
        },
        {
          // System tests in Node, driving real `wrangler dev` processes (kill and restart, the dashboard in Chromium,
          // schedules under npm start).
          test: {
            name: 'system',
            include: ['test/system/**/*.test.ts'],
            // Two at a time, each file with its wrangler dev (and one Chromium): restart.test.ts and
            // local-schedules.test.ts spend minutes waiting on a paced host and on cron, and the others run beside them.
            maxWorkers: 2,
            environment: 'node',
            testTimeout: 240_000,
            hookTimeout: 120_000,
          },
        },
      ],
    },
  };
});
