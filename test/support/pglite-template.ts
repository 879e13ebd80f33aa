import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgliteStore, migrateRelational, MIGRATIONS, type RelationalStore } from '@devtrail/relational-store';

// A fresh PGlite costs an initdb and every migration (about 2.5 s of CPU); a store loaded from a
// migrated data directory costs a fifth of that. The template is built once per set of migrations
// and kept in the temp dir, shared by every worker of a run (written whole, then renamed).
const key = createHash('sha256').update(JSON.stringify(MIGRATIONS)).digest('hex').slice(0, 16);
const file = join(tmpdir(), `devtrail-pglite-${key}.tar`);

let template: Promise<Blob> | undefined;

async function build(): Promise<Blob> {
  try {
    return new Blob([readFileSync(file)]);
  } catch {
    const store = await createPgliteStore();
    await migrateRelational(store);
    const blob = await store.dump();
    await store.close();
    const part = `${file}.${process.pid}.part`;
    writeFileSync(part, Buffer.from(await blob.arrayBuffer()));
    renameSync(part, file);
    return blob;
  }
}

/** A new in-memory PGlite, migrated to the newest schema, with no rows. */
export async function migratedPglite(): Promise<RelationalStore> {
  template ??= build();
  const store = await createPgliteStore(undefined, await template);
  await migrateRelational(store);
  return store;
}
