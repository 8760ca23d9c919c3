/**
 * Structured logs: one JSON object per line, with a level, a message, and the crawl id and URL where there
 * is one, so Workers Logs (observability in wrangler.toml) can filter by `crawlId` or `url`.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface LogFields {
  crawlId?: string;
  url?: string;
  [field: string]: unknown;
}

export function log(level: LogLevel, msg: string, fields: LogFields = {}): void {
  const line = JSON.stringify({ level, msg, ...fields });
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
}
