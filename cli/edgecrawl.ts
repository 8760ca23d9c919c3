#!/usr/bin/env node
/** `npx edgecrawl <command>`: the command line of an edgecrawl, local or deployed (see docs/cli.md). */
import { USAGE } from './args.ts';
import { makeClient, targetFromEnv } from './client.ts';
import { cancel } from './commands/cancel.ts';
import { crawl } from './commands/crawl.ts';
import { exportCommand } from './commands/export.ts';
import { scrape } from './commands/scrape.ts';
import { status } from './commands/status.ts';
import { CliError, UsageError } from './errors.ts';

const COMMANDS = { scrape, crawl, status, export: exportCommand, cancel };

function isCommand(name: string): name is keyof typeof COMMANDS {
  return Object.hasOwn(COMMANDS, name);
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    if (!isCommand(name)) throw new UsageError(`unknown command: ${name}`, USAGE);
    await COMMANDS[name](args, makeClient(targetFromEnv()));
    return 0;
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    process.stderr.write(`edgecrawl: ${error.message}\n`);
    if (error instanceof UsageError && error.usage) process.stderr.write(`\n${error.usage}\n`);
    return error.exitCode;
  }
}

process.exitCode = await main(process.argv.slice(2));
