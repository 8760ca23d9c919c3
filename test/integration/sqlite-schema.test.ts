import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { migrateSchema } from '../../src/objects/sqlite-schema';
import { testConfig } from '../support/fixtures';

const version = (sql: SqlStorage) => sql.exec<{ version: number }>('SELECT version FROM schema_version').one().version;

describe('Durable Object schemas are versioned', () => {
  it('a new object has run every step of its schema; an appended step runs once, earlier ones never again', async () => {
    const crawlId = crypto.randomUUID();
    const crawl = env.CRAWL.getByName(crawlId);
    // A crawl's object has storage only once the crawl has started.
    await crawl.start(crawlId, testConfig());
    for (const stub of [crawl, env.HOSTS.getByName(`schema-${crypto.randomUUID()}`)]) {
      await runInDurableObject(stub, (_instance, state) => {
        const sql = state.storage.sql;
        const before = version(sql);
        expect(before).toBeGreaterThanOrEqual(1);
        const earlier = Array.from({ length: before }, () => () => {
          throw new Error('an applied step ran again');
        });
        let ran = 0;
        const appended = () => {
          ran++;
          sql.exec('CREATE TABLE appended (x INTEGER)');
        };
        migrateSchema(sql, [...earlier, appended]);
        migrateSchema(sql, [...earlier, appended]);
        expect(ran).toBe(1);
        expect(version(sql)).toBe(before + 1);
        expect(sql.exec('SELECT COUNT(*) AS n FROM appended').one().n).toBe(0);
      });
    }
  });
});
