import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';

// Runs before each test file; applies only the migrations not applied yet.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
