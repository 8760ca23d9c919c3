/**
 * Runs the fake model (fake-llm.ts) in a process of its own, for tests that run the Worker elsewhere (wrangler dev):
 * prints one JSON line `{"url": ".../v1", "port": N}`, then serves until it is terminated or its parent goes away.
 *   node test/support/fake-llm-process.ts [port] [apiKey]
 */
import { startFakeLlm } from './fake-llm.ts';

const port = Number(process.argv[2] ?? 0);
const apiKey = process.argv[3];
const llm = await startFakeLlm(port, apiKey ? { apiKey } : {});
process.stdout.write(`${JSON.stringify({ url: llm.url, port: llm.port })}\n`);

const stop = async () => {
  await llm.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop); // the parent exited
process.stdin.resume();
