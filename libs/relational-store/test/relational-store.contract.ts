import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, hashApiKey } from '@devtrail/access';
import {
  errorGroupsRepo,
  ownershipRepo,
  MAX_COMMENTS_PER_GROUP,
  triageRepo,
  MAX_SAVED_QUERIES,
  MIGRATIONS,
  idempotencyRepo,
  loginThrottleRepo,
  migrateRelational,
  projectsRepo,
  rateLimitRepo,
  savedQueriesRepo,
  llmPriceEditsRepo,
  MAX_PRICE_EDITS,
  throttleDelayMs,
  usersRepo,
  PROJECT_CHANGED_CHANNEL,
  type RelationalStore,
} from '../src/index.ts';

/** The behaviour the pipeline relies on; every relational-store implementation must pass it. */
export function relationalStoreContract(name: string, open: () => Promise<{ store: RelationalStore; cleanup: () => Promise<void> }>) {
  describe(`relational store contract: ${name}`, () => {
    let store: RelationalStore;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ store, cleanup } = await open());
      await migrateRelational(store);
    });
    afterAll(async () => {
      await store.close();
      await cleanup();
    });

    it('migrations are idempotent', async () => {
      expect(await migrateRelational(store)).toEqual([]);
      const rows = await store.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    });

    it('creates a project whose key is stored only as a hash', async () => {
      const repo = projectsRepo(store);
      const { project, apiKey } = await repo.create('shop', 5000);
      expect(apiKey).toMatch(API_KEY_PATTERN);
      expect(project.keyPrefix).toBe(apiKey.slice(0, 7));
      const raw = await store.query('SELECT * FROM api_keys WHERE project_id = $1', [project.id]);
      expect(JSON.stringify(raw)).not.toContain(apiKey);
      const grant = await repo.findGrant(hashApiKey(apiKey));
      expect(grant?.projectId).toBe(project.id);
      expect(grant?.rateLimitPerMinute).toBe(5000);
    });

    it('enforces one active key per project in the database', async () => {
      const { project } = await projectsRepo(store).create('one-key', 10);
      await expect(store.query("INSERT INTO api_keys (project_id, key_hash, key_prefix) VALUES ($1, $2, 'dt_x')", [project.id, 'a'.repeat(64)])).rejects.toThrow();
    });

    it('revokes a key, creates its successor and notifies listeners', async () => {
      const repo = projectsRepo(store);
      const { project, apiKey } = await repo.create('rotating', 100);
      const seen: string[] = [];
      const stop = await store.listen(PROJECT_CHANGED_CHANNEL, (p) => seen.push(p));
      const next = await repo.revokeKey(project.id);
      expect(next).toMatch(API_KEY_PATTERN);
      expect(await repo.findGrant(hashApiKey(apiKey))).toBeNull();
      expect((await repo.findGrant(hashApiKey(next!)))?.projectId).toBe(project.id);
      await expect.poll(() => seen, { timeout: 3000 }).toContain(project.id);
      await stop();
      const keys = await store.query<{ revoked_at: unknown }>('SELECT revoked_at FROM api_keys WHERE project_id = $1', [project.id]);
      expect(keys.filter((k) => k.revoked_at === null)).toHaveLength(1);
      expect(keys).toHaveLength(2);
    });

    it('stores allowed origins, rate limit and drain secret', async () => {
      const repo = projectsRepo(store);
      const { project, apiKey } = await repo.create('settings', 100);
      expect(await repo.setAllowedOrigins(project.id, ['example.com', 'https://app.example.org'])).toBe(true);
      expect(await repo.setRateLimit(project.id, 42)).toBe(true);
      expect(await repo.setDrainSecret(project.id, 's3cret')).toBe(true);
      const grant = await repo.findGrant(hashApiKey(apiKey));
      expect(grant?.allowedOrigins.sort()).toEqual(['example.com', 'https://app.example.org']);
      expect(grant?.rateLimitPerMinute).toBe(42);
      expect(grant?.drainSecret).toBe('s3cret');
      expect((await repo.get(project.id))?.hasDrainSecret).toBe(true);
      expect(await repo.setRateLimit('00000000-0000-4000-8000-000000000000', 1)).toBe(false);
      expect(await repo.get('not-a-uuid')).toBeNull();
    });

    it('rolls back a failed transaction', async () => {
      await expect(
        store.transaction(async (tx) => {
          await tx.query("INSERT INTO projects (name, rate_limit_per_minute) VALUES ('ghost', 1)");
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await store.query("SELECT 1 FROM projects WHERE name = 'ghost'")).toHaveLength(0);
    });

    it('leases rate-limit tokens atomically and never past the limit', async () => {
      const { project } = await projectsRepo(store).create('limited', 100);
      const [key] = await store.query<{ id: string }>('SELECT id FROM api_keys WHERE project_id = $1', [project.id]);
      const rl = rateLimitRepo(store);
      const window = new Date(Math.floor(Date.now() / 60000) * 60000);
      const grants = await Promise.all(Array.from({ length: 30 }, () => rl.lease(key.id, window, 7, 100)));
      expect(grants.reduce((s, g) => s + g.granted, 0)).toBe(100);
      expect((await rl.lease(key.id, window, 7, 100)).granted).toBe(0);
    });

    it('creates exactly one owner, only with a live setup code, even when two first visits race', async () => {
      const users = usersRepo(store);
      await users.addSetupCode('CODE-OLD0', new Date(Date.now() - 1000));
      expect(await users.setupCodeValid('CODE-OLD0')).toBe(false);
      expect(await users.createOwner('zed', 'h0', 'CODE-OLD0')).toBeNull();
      // A later start's code ends the earlier one: only the newest is valid.
      await users.addSetupCode('CODE-AAAA', new Date(Date.now() + 60_000));
      await users.addSetupCode('CODE-BBBB', new Date(Date.now() + 60_000));
      expect(await users.setupCodeValid('CODE-AAAA')).toBe(false);
      expect(await users.setupCodeValid('CODE-BBBB')).toBe(true);
      expect(await users.createOwner('zed', 'h0', 'CODE-AAAA')).toBeNull();
      expect(await users.createOwner('zed', 'h0', 'CODE-NONE')).toBeNull();
      expect(JSON.stringify(await store.query('SELECT * FROM setup_codes'))).not.toContain('CODE-');
      const both = await Promise.all([users.createOwner('alice', 'h1', 'CODE-BBBB'), users.createOwner('bob', 'h2', 'CODE-BBBB')]);
      expect(both.filter(Boolean)).toHaveLength(1);
      // The owner ends every code; the operator's way in (code null) finds the owner taken too.
      expect(await store.query('SELECT 1 FROM setup_codes')).toHaveLength(0);
      expect(await users.createOwner('carol', 'h3', null)).toBeNull();
      const owner = both.find(Boolean)!;
      expect(owner).toMatchObject({ isOwner: true, role: 'owner', disabled: false });
      expect(await users.ownerExists()).toBe(true);
      expect((await users.findByUsername(owner.username))?.passwordHash).toMatch(/^h[12]$/);
      const dave = await users.create('dave', 'h4');
      expect(dave).toMatchObject({ isOwner: false, role: 'member' });
      expect(await users.create('dave', 'h5')).toBeNull();
      expect(await users.create('vera', 'h6', 'viewer')).toMatchObject({ role: 'viewer' });
      expect(await users.count()).toBe(3);
      expect((await users.list()).map((u) => u.username)).toContain('dave');
      // The owner keeps its role and cannot be disabled.
      expect(await users.setDisabled(owner.id, true)).toBeNull();
      expect(await users.setRole(owner.id, 'viewer')).toBeNull();
    });

    it('keeps sessions as token hashes; ends them at expiry, when idle, on disabling and on a password change', async () => {
      const users = usersRepo(store);
      const limits = { idleMs: 60_000 };
      const u = (await users.create('erin', 'h'))!;
      await users.createSession(u.id, 'raw-session-token-1', 'csrf-1', new Date(Date.now() + 60_000));
      await users.createSession(u.id, 'raw-session-token-2', 'csrf-2', new Date(Date.now() - 1000));
      const s = await users.findSession('raw-session-token-1', limits);
      expect(s?.user.username).toBe('erin');
      expect(s?.csrfToken).toBe('csrf-1');
      expect(await users.findSession('raw-session-token-2', limits)).toBeNull();
      expect(await users.findSession('unknown', limits)).toBeNull();
      expect(JSON.stringify(await store.query('SELECT * FROM sessions'))).not.toContain('raw-session-token');
      // Idle: last seen two minutes ago is past a one-minute idle limit.
      await store.query("UPDATE sessions SET last_seen_at = now() - interval '2 minutes' WHERE user_id = $1", [u.id]);
      expect(await users.findSession('raw-session-token-1', limits)).toBeNull();
      // Under a longer idle limit it is live, and being used marks it seen.
      expect(await users.findSession('raw-session-token-1', { idleMs: 600_000 })).not.toBeNull();
      expect(await users.findSession('raw-session-token-1', limits)).not.toBeNull();
      await store.query("UPDATE sessions SET last_seen_at = now() - interval '2 minutes' WHERE user_id = $1", [u.id]);
      await users.pruneExpired(limits);
      expect(await store.query('SELECT 1 FROM sessions WHERE user_id = $1', [u.id])).toHaveLength(0);

      await users.createSession(u.id, 'raw-session-token-3', 'csrf-3', new Date(Date.now() + 60_000));
      await users.addDevice(u.id, 'raw-device-token', new Date(Date.now() + 60_000));
      expect(await users.isDeviceOf('raw-device-token', 'erin')).toBe(true);
      expect(await users.isDeviceOf('raw-device-token', 'dave')).toBe(false);
      expect((await users.setDisabled(u.id, true))?.disabled).toBe(true);
      expect(await users.findSession('raw-session-token-3', limits)).toBeNull();
      expect(await users.isDeviceOf('raw-device-token', 'erin')).toBe(false);
      expect((await users.setDisabled(u.id, false))?.disabled).toBe(false);

      await users.createSession(u.id, 'raw-session-token-4', 'csrf-4', new Date(Date.now() + 60_000));
      await users.setPasswordHash(u.id, 'h-new', true);
      expect(await users.findSession('raw-session-token-4', limits)).toBeNull();
      expect(await users.passwordHashOf(u.id)).toBe('h-new');
    });

    it('grants project membership idempotently and only for existing rows', async () => {
      const users = usersRepo(store);
      const u = (await users.create('frank', 'h'))!;
      const { project } = await projectsRepo(store).create('members', 10);
      expect(await users.addMember(project.id, u.id)).toBe(true);
      expect(await users.addMember(project.id, u.id)).toBe(true);
      expect(await users.projectIdsOf(u.id)).toEqual([project.id]);
      expect((await users.membersOf(project.id)).map((m) => m.username)).toEqual(['frank']);
      expect(await users.addMember('00000000-0000-4000-8000-000000000000', u.id)).toBe(false);
      await users.removeMember(project.id, u.id);
      expect(await users.projectIdsOf(u.id)).toEqual([]);
    });

    it('merges error groups: later events and the history follow the target; a previous-rule group is found while seen recently', async () => {
      const { project } = await projectsRepo(store).create('merges', 100);
      const groups = errorGroupsRepo(store);
      const triage = triageRepo(store);
      const [a, b, c, old] = ['a', 'b', 'c', 'd'].map((x) => x.repeat(64));
      const user = { kind: 'user' as const, id: 'u1', name: 'Ada' };
      await triage.change(project.id, [a], { action: 'resolve' }, user);
      await triage.change(project.id, [b], { action: 'ignore' }, user);
      await store.query(`UPDATE error_group_states SET first_seen = '2026-01-01', last_seen = now() WHERE fingerprint = $1`, [b]);
      expect(await groups.merge(project.id, a, b, user)).toEqual({ ok: true, target: b });
      // a's history (resolved) is b's now, with the merge on top; a's state is gone
      const history = await triage.history(project.id, b);
      expect(history.map((h) => h.action)).toEqual(['merge', 'ignore', 'resolve']);
      expect(history[0].details).toEqual({ merged: a });
      expect([...(await triage.states(project.id, [a, b])).keys()]).toEqual([b]);
      // c into a follows a to b; b into c would merge a group into itself
      expect(await groups.merge(project.id, c, a, user)).toEqual({ ok: true, target: b });
      expect(await groups.merge(project.id, b, c, user)).toEqual({ ok: false, reason: 'same_group' });
      expect(await groups.merge(project.id, a, c, user)).toEqual({ ok: false, reason: 'already_merged' });
      const found = await groups.lookup(project.id, [a, c, b], [b, old]);
      expect(Object.fromEntries(found.merged)).toEqual({ [a]: b, [c]: b });
      expect([...found.previous]).toEqual([b]); // old has no state: no group of the previous rule
      await store.query(`UPDATE error_group_states SET last_seen = now() - interval '91 days' WHERE fingerprint = $1`, [b]);
      expect([...(await groups.lookup(project.id, [], [b])).previous]).toEqual([]); // quiet: no longer joined
      expect((await groups.merges(project.id)).map((m) => [m.source, m.target, m.actor.name])).toEqual(
        expect.arrayContaining([
          [a, b, 'Ada'],
          [c, b, 'Ada'],
        ]),
      );
    });

    it('assigns a group to a member of its project only, with history; comments are bounded and follow a merge', async () => {
      const projects = projectsRepo(store);
      const users = usersRepo(store);
      const owning = ownershipRepo(store);
      const { project } = await projects.create('owned', 100);
      const { project: other } = await projects.create('elsewhere', 100);
      const ana = (await users.create('ana.owner', 'x'))!;
      const bo = (await users.create('bo.owner', 'x'))!;
      await users.addMember(project.id, ana.id);
      await users.addMember(other.id, bo.id);
      const actor = { kind: 'user' as const, id: ana.id, name: 'ana.owner' };
      const [g1, g2] = ['1'.repeat(64), '2'.repeat(64)];
      expect(await owning.assign(project.id, g1, bo.id, actor)).toEqual({ ok: false, reason: 'not_a_member' }); // another project's member
      expect(await owning.assign(project.id, g1, ana.id, actor)).toEqual({ ok: true, assignee: { id: ana.id, name: 'ana.owner' }, changed: true });
      expect(await owning.assign(project.id, g1, ana.id, actor)).toMatchObject({ ok: true, changed: false });
      expect(await owning.assignedTo(project.id, ana.id, 10)).toEqual([g1]);
      expect(await owning.assignedTo(other.id, ana.id, 10)).toEqual([]);
      expect((await owning.assignees(project.id, [g1, g2])).get(g1)?.name).toBe('ana.owner');
      const history = await triageRepo(store).history(project.id, g1);
      expect(history.map((h) => [h.action, h.actor.name, h.details.assignee])).toEqual([['assign', 'ana.owner', 'ana.owner']]);

      expect((await owning.addComment(project.id, g2, actor, 'looks like the cache'))?.body).toBe('looks like the cache');
      await expect(owning.addComment(project.id, g2, actor, 'x'.repeat(2001))).rejects.toThrow();
      await store.query(
        `INSERT INTO error_group_comments (project_id, fingerprint, actor_kind, actor_name, body) SELECT $1, $2, 'system', 'x', 'c' || g FROM generate_series(2, $3) g`,
        [project.id, g2, MAX_COMMENTS_PER_GROUP],
      );
      expect(await owning.addComment(project.id, g2, actor, 'one too many')).toBeNull();
      // a merge moves the comments and, to an unassigned target, the assignee
      expect((await errorGroupsRepo(store).merge(project.id, g1, g2, actor)).ok).toBe(true);
      expect((await owning.comments(project.id, g2)).length).toBe(100);
      expect((await store.query('SELECT 1 FROM error_group_comments WHERE project_id = $1 AND fingerprint = $2', [project.id, g2])).length).toBe(MAX_COMMENTS_PER_GROUP);
      expect((await owning.assignees(project.id, [g2])).get(g2)?.id).toBe(ana.id);
      expect(await owning.assign(project.id, g2, null, actor)).toEqual({ ok: true, assignee: null, changed: true });
      expect(await owning.assignedTo(project.id, ana.id, 10)).toEqual([]);
    });

    it('saves log searches per project: replaces by name, bounded, gone with the project', async () => {
      const saved = savedQueriesRepo(store);
      const { project } = await projectsRepo(store).create('saved', 10);
      const { project: other } = await projectsRepo(store).create('other', 10);
      const first = await saved.save(project.id, { name: 'slow checkout', query: 'service:checkout metadata.ms:>500', range: '1h', userId: null });
      expect(first).toMatchObject({ name: 'slow checkout', query: 'service:checkout metadata.ms:>500', range: '1h' });
      const again = await saved.save(project.id, { name: 'slow checkout', query: 'service:checkout metadata.ms:>800', range: null, userId: null });
      expect(again!.id).toBe(first!.id);
      await saved.save(project.id, { name: 'a first', query: 'level:error', range: null, userId: null });
      expect((await saved.list(project.id)).map((q) => [q.name, q.query, q.range])).toEqual([
        ['a first', 'level:error', null],
        ['slow checkout', 'service:checkout metadata.ms:>800', null],
      ]);
      expect(await saved.list(other.id)).toEqual([]);
      expect(await saved.remove(other.id, first!.id)).toBe(false);
      expect(await saved.remove(project.id, first!.id)).toBe(true);
      expect(await saved.remove(project.id, first!.id)).toBe(false);
      for (let i = (await saved.list(project.id)).length; i < MAX_SAVED_QUERIES; i++)
        await saved.save(project.id, { name: `q${i}`, query: 'x', range: null, userId: null });
      expect(await saved.save(project.id, { name: 'one too many', query: 'x', range: null, userId: null })).toBeNull();
      expect(await saved.save(project.id, { name: 'a first', query: 'y', range: null, userId: null })).not.toBeNull();
      await store.query('DELETE FROM projects WHERE id = $1', [project.id]);
      expect(await saved.list(project.id)).toEqual([]);
    });

    it("keeps the operator's LLM price edits by lower-case model: replaced, bounded, removed", async () => {
      const edits = llmPriceEditsRepo(store);
      const first = await edits.put('GPT-4o', { model: 'GPT-4o', input: 2, output: 8, tiers: [{ above_input_tokens: 100, input: 3, output: 9 }] }, 'operator');
      expect(first).toMatchObject({ model: 'gpt-4o', price: { input: 2, tiers: [{ above_input_tokens: 100 }] }, updatedBy: 'operator' });
      await edits.put('gpt-4o', { model: 'gpt-4o', input: 1, output: 4 }, 'owner');
      expect((await edits.list()).map((e) => [e.model, e.price, e.updatedBy])).toEqual([['gpt-4o', { model: 'gpt-4o', input: 1, output: 4 }, 'owner']]);
      await store.query(`INSERT INTO llm_price_edits (model, price, updated_by) SELECT 'm' || g, '{}'::jsonb, 'x' FROM generate_series(2, $1) g`, [MAX_PRICE_EDITS]);
      expect(await edits.put('one-too-many', { input: 1, output: 1 }, 'operator')).toBeNull();
      expect(await edits.put('gpt-4o', { model: 'gpt-4o', input: 5, output: 5 }, 'operator')).not.toBeNull(); // replacing is no new model
      expect(await edits.remove('GPT-4O')).toBe(true);
      expect(await edits.remove('gpt-4o')).toBe(false);
      await store.query('DELETE FROM llm_price_edits');
      expect(await edits.list()).toEqual([]);
    });

    it('counts login attempts before they are evaluated, atomically, with growing waits', async () => {
      const throttle = loginThrottleRepo(store);
      const rule = { free: 5, baseMs: 60_000, maxMs: 600_000 };
      const other = { free: 100, baseMs: 1000, maxMs: 1000 };
      const buckets = [
        { key: 'user-ip:gina|10.0.0.1', rule },
        { key: 'user:gina', rule: other },
      ];
      // 40 at once: exactly `free` are let through, the rest are told to wait.
      const waits = await Promise.all(Array.from({ length: 40 }, () => throttle.take(buckets)));
      expect(
        waits.filter((w) => w === 0),
        JSON.stringify(waits),
      ).toHaveLength(5);
      expect(Math.min(...waits.filter((w) => w > 0)), JSON.stringify(waits)).toBeGreaterThan(50_000);
      // Refused attempts are not counted anywhere (all or nothing).
      const [user] = await store.query<{ failures: number }>("SELECT failures FROM login_throttle WHERE bucket = 'user:gina'");
      expect(Number(user.failures)).toBe(5);
      // A success: the address's bucket starts over, the shared one forgets one attempt.
      await throttle.succeeded(['user-ip:gina|10.0.0.1'], ['user:gina']);
      expect(await throttle.take(buckets)).toBe(0);
      expect(throttleDelayMs(4, rule)).toBe(0);
      expect([5, 6, 7, 20].map((n) => throttleDelayMs(n, rule))).toEqual([60_000, 120_000, 240_000, 600_000]);
      await store.query("UPDATE login_throttle SET updated_at = now() - interval '2 hours'");
      expect(await throttle.prune()).toBeGreaterThanOrEqual(2);
      expect(await store.query("SELECT 1 FROM login_throttle WHERE bucket LIKE '%gina%'")).toHaveLength(0);
    });

    it("remembers an idempotency key's first receive time per project, also under concurrent first requests, and prunes old ones", async () => {
      const keys = idempotencyRepo(store);
      const [a, b] = [(await projectsRepo(store).create('idem-a', 10)).project.id, (await projectsRepo(store).create('idem-b', 10)).project.id];
      const hash = 'c'.repeat(64);
      const t0 = new Date('2026-05-01T10:00:00.123Z');
      // Concurrent first copies agree on one time, whichever wrote it.
      const first = await Promise.all([0, 1, 2, 3].map((i) => keys.firstSeen(a, hash, new Date(t0.getTime() + i))));
      expect(new Set(first.map((d) => d.getTime())).size).toBe(1);
      expect((await keys.firstSeen(a, hash, new Date())).getTime()).toBe(first[0].getTime());
      // The same key in another project is another key.
      expect((await keys.firstSeen(b, hash, new Date(t0.getTime() + 60_000))).getTime()).toBe(t0.getTime() + 60_000);
      const recent = new Date();
      await keys.firstSeen(a, 'd'.repeat(64), recent);
      expect(await keys.prune(new Date(t0.getTime() + 30_000), 1)).toBe(1);
      expect(await keys.prune(new Date(t0.getTime() + 30_000))).toBe(0);
      expect((await keys.firstSeen(a, hash, recent)).getTime()).toBe(recent.getTime()); // forgotten: a new first time
      expect((await keys.firstSeen(a, 'd'.repeat(64), new Date())).getTime()).toBe(recent.getTime()); // kept
    });
  });
}
