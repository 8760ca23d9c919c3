/** Reading a command's arguments (node:util parseArgs), with usage errors the CLI reports with exit code 2. */
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { UsageError } from './errors.ts';

export const USAGE = `Usage: edgecrawl <command> [options]

Commands:
  scrape URL [--format markdown|json] [--render auto|always|never]
             [--header H]... [--cookie C]... [--user U:P] [--credentials-for HOST]...
             [--json-schema FILE] [--prompt TEXT] [--summary] [--summary-prompt TEXT]
      fetch and extract one page now; its markdown on stdout (or the whole answer as JSON), then its
      summary and JSON when a language model was asked for them
  crawl URL... [--max-pages N] [--max-depth N] [--scope S] [--include P]... [--exclude P]...
               [--extract SPEC|@FILE] [--render auto|always|never] [--wait] [--out DIR] [--progress bar|lines|none]
               [--header H]... [--cookie C]... [--user U:P] [--credentials-for HOST]...
               [--json-schema FILE] [--prompt TEXT] [--learn-selectors] [--summary] [--summary-prompt TEXT]
               [--max-model-pages N]
      start a crawl and print its id; --wait follows it to the end; --out DIR also writes each page's
      markdown under DIR and an index, DIR/index.jsonl (with each page's json and summary)
  status ID [--json]      a crawl's state and counts
  export ID --format jsonl|csv|warc [--out FILE]
      every page record (jsonl, csv) or every stored body (warc), to stdout or FILE
  cancel ID               cancel a crawl: no new fetch starts

Environment:
  EDGECRAWL_URL    the edgecrawl to talk to (default http://localhost:8787, as \`npm start\` runs it)
  EDGECRAWL_TOKEN  its API token (default dev-token, \`npm start\`'s)

Behind a login: --header "Name: value", --cookie name=value, --user user:password (each also @FILE) are sent to
the URLs' hosts (or --credentials-for's) only, and never shown back.

Exit codes: 0 done, 1 failed (an error from edgecrawl, a server not reached), 2 bad command line.
See docs/cli.md.`;

/** One command's options and positionals; a flag it does not know, or a missing value, is a UsageError. */
export function readArgs<const O extends ParseArgsOptionsConfig>(args: string[], options: O, usage: string) {
  try {
    return parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), usage);
  }
}

/** `value` if it is one of `allowed`, else a UsageError naming them. */
export function oneOf<const T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  flag: string,
  usage: string,
): T | undefined {
  if (value === undefined) return undefined;
  const found = allowed.find((a) => a === value);
  if (found === undefined) throw new UsageError(`${flag} must be one of ${allowed.join(', ')}: not ${value}`, usage);
  return found;
}

/** An integer flag's value (the API checks its range), else a UsageError. */
export function integer(value: string | undefined, flag: string, usage: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw new UsageError(`${flag} takes an integer: not ${value}`, usage);
  return Number(value);
}

/** Exactly one positional (a URL or a crawl id). */
export function single(positionals: string[], what: string, usage: string): string {
  const [value, ...rest] = positionals;
  if (value === undefined) throw new UsageError(`missing ${what}`, usage);
  if (rest.length > 0) throw new UsageError(`unexpected argument: ${rest[0]}`, usage);
  return value;
}
