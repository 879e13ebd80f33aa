import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { STACK } from './stack.ts';

/** A throwaway PostgreSQL database on the real server (the shared one unless `server` names another), so suites never share state. */
export async function createTestDatabase(server = STACK.postgresUrl): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `dt_test_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = server.replace(/\/[^/?]*(\?|$)/, `/${name}$1`);
  return {
    url,
    drop: async () => {
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
