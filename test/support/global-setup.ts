import type { TestProject } from 'vitest/node';
import { startSites } from './site';

// Runs in Node, not workerd: serves the test sites on loopback for every test file.
export default async function ({ provide }: TestProject) {
  const { a, b } = await startSites();
  provide('siteA', a.url);
  provide('siteB', b.url);
  provide('portA', a.port);
  return async () => {
    await Promise.all([a.close(), b.close()]);
  };
}
