import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { TestProject } from 'vitest/node';
import { ensureLocalBrowser } from '../../scripts/lib/browser-setup.ts';
import { startFakeLlm } from './fake-llm.ts';
import { readFirecrawlSpecs } from './firecrawl-specs.ts';
import { spawnSimWeb } from './sim-web.ts';

/** Loopback hosts of their own (127.0.0.2 ...), one per test whose host's pacing or robots.txt must be its alone. */
const HOSTS = 34;
/** Sites of the simulated web (127.1.0.1 ...), for the broad crawl (test/integration/broad.test.ts). */
const SIM_HOSTS = 80;

interface SiteAddresses {
  siteA: string;
  siteB: string;
  portA: number;
  hosts: string[];
}

// Runs in Node, not workerd: serves the test sites on loopback, from a child process, for every test file, and lets
// the BROWSER binding launch a browser offline (test/integration/browser-binding.test.ts).
export default async function ({ provide }: TestProject) {
  ensureLocalBrowser();
  const child = spawn(process.execPath, [new URL('./site-process.ts', import.meta.url).pathname, String(HOSTS)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const [first] = (await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`test site exited with ${String(code)}`);
    }),
  ])) as [string];
  const sites = JSON.parse(first) as SiteAddresses;
  provide('siteA', sites.siteA);
  provide('siteB', sites.siteB);
  provide('portA', sites.portA);
  provide('hosts', sites.hosts);
  // Firecrawl's OpenAPI documents, when ../shared has them (null otherwise: the conformance checks say they skipped).
  provide('firecrawlSpecs', readFirecrawlSpecs());
  // The fake model, on the port vitest.config.ts gave the Worker's LLM_BASE_URL.
  const llm = await startFakeLlm(Number(process.env.EDGECRAWL_TEST_LLM_PORT ?? 0));
  provide('llm', llm.url);
  // A simulated web of sites on addresses of their own (test/support/sim-web.ts), in a process of its own.
  const sim = await spawnSimWeb({ hosts: SIM_HOSTS });
  provide('simWeb', { hosts: sim.hosts, control: sim.control });
  return async () => {
    child.kill('SIGTERM');
    await Promise.all([once(child, 'exit'), llm.close(), sim.stop()]);
  };
}
