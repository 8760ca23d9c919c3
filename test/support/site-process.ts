/**
 * Runs the test sites in a process of their own, so that request arrival times are taken on an
 * event loop that nothing else (vitest, workerd's console piping) keeps busy. Prints one JSON line with
 * the addresses, then serves until it is terminated or its parent goes away.
 *   node test/support/site-process.ts [extraHosts]
 */
import { startSites } from './site.ts';

const extraHosts = Number(process.argv[2] ?? 0);
const { a, b, hosts } = await startSites(extraHosts);
process.stdout.write(
  `${JSON.stringify({ siteA: a.url, siteB: b.url, portA: a.port, hosts: hosts.map((h) => h.url) })}\n`,
);

const stop = async () => {
  await Promise.all([a, b, ...hosts].map((s) => s.close()));
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop); // the parent exited
process.stdin.resume();
