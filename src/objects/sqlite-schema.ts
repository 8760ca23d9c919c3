/**
 * A Durable Object's SQLite schema, versioned: the schema is the list of its steps, and the object's
 * `schema_version` table says how many it has run. Each step runs once, in order, inside the constructor, and
 * new steps are only ever appended. (Durable Objects refuse `PRAGMA user_version` with SQLITE_AUTH, so the
 * version lives in a table of its own.)
 */
export type SchemaStep = string | ((sql: SqlStorage) => void);

export function migrateSchema(sql: SqlStorage, steps: readonly SchemaStep[]): void {
  sql.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
  const row = sql.exec<{ version: number }>('SELECT version FROM schema_version').toArray()[0];
  if (!row) sql.exec('INSERT INTO schema_version (version) VALUES (0)');
  for (let v = row?.version ?? 0; v < steps.length; v++) {
    const step = steps[v];
    if (typeof step === 'string') sql.exec(step);
    else step?.(sql);
    sql.exec('UPDATE schema_version SET version = ?', v + 1);
  }
}
