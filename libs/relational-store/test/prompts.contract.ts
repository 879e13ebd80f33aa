import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateRelational, projectsRepo, promptsRepo, PROMPT_CHANGED_CHANNEL, PROMPT_LIMITS, type NewPromptVersion, type RelationalStore } from '../src/index.ts';

// The prompt registry's behaviour (docs/api.md, "Prompts"); PGlite and PostgreSQL both pass it.

const text = (name: string, content: string, more: Partial<NewPromptVersion> = {}): NewPromptVersion => ({
  name,
  type: 'text',
  content,
  config: {},
  commitMessage: null,
  labels: [],
  createdBy: 'ada',
  ...more,
});

export function promptsContract(name: string, open: () => Promise<{ store: RelationalStore; cleanup: () => Promise<void> }>) {
  describe(`prompt registry contract: ${name}`, () => {
    let store: RelationalStore;
    let cleanup: () => Promise<void>;
    const project = async () => (await projectsRepo(store).create(`p-${Math.random().toString(36).slice(2, 8)}`, 100)).project.id;
    beforeAll(async () => {
      ({ store, cleanup } = await open());
      await migrateRelational(store);
    });
    afterAll(async () => {
      await store.close();
      await cleanup();
    });

    it('numbers versions, keeps each as written and names the newest latest', async () => {
      const repo = promptsRepo(store);
      const pid = await project();
      const first = await repo.create(
        pid,
        text('greet', 'Hi {{name}}', { config: { model: 'gpt-4o', temperature: 0.2 }, commitMessage: 'first', labels: ['production'] }),
      );
      expect(first).toMatchObject({ ok: true, created: true, version: { version: 1, labels: ['latest', 'production'], config: { model: 'gpt-4o', temperature: 0.2 } } });
      const second = await repo.create(pid, text('greet', 'Hello {{name}}', { labels: ['staging'] }));
      expect(second).toMatchObject({ ok: true, created: false, version: { version: 2, content: 'Hello {{name}}', labels: ['latest', 'staging'] } });
      expect(await repo.version(pid, 'greet', { version: 1 })).toMatchObject({
        content: 'Hi {{name}}',
        commitMessage: 'first',
        createdBy: 'ada',
        labels: ['production'],
      });
      expect((await repo.version(pid, 'greet', { label: 'latest' }))?.version).toBe(2);
      expect((await repo.version(pid, 'greet', { label: 'production' }))?.version).toBe(1);
      expect(await repo.version(pid, 'greet', { label: 'nope' })).toBeNull();
      const got = await repo.get(pid, 'greet');
      expect(got).toMatchObject({ name: 'greet', type: 'text', latestVersion: 2, labels: { latest: 2, production: 1, staging: 2 } });
      expect(got?.versions.map((v) => v.version)).toEqual([2, 1]);
      expect((await repo.list(pid)).map((p) => [p.name, p.labels])).toEqual([['greet', { latest: 2, production: 1, staging: 2 }]]);
    });

    it('keeps chat messages and refuses a new version of another type', async () => {
      const repo = promptsRepo(store);
      const pid = await project();
      const messages = [
        { role: 'system', content: 'You are {{persona}}' },
        { role: 'user', content: '{{question}}' },
      ];
      const r = await repo.create(pid, { ...text('chat', ''), type: 'chat', content: messages });
      expect(r).toMatchObject({ ok: true, version: { type: 'chat', content: messages } });
      expect(await repo.create(pid, text('chat', 'plain'))).toEqual({ ok: false, reason: 'type_changed' });
    });

    it('moves and removes labels; a label names only versions that exist; each change is announced', async () => {
      const repo = promptsRepo(store);
      const pid = await project();
      const seen: string[] = [];
      const stop = await store.listen(PROMPT_CHANGED_CHANNEL, (p) => seen.push(p));
      await repo.create(pid, text('move', 'one', { labels: ['production'] }));
      await repo.create(pid, text('move', 'two'));
      expect(await repo.setLabel(pid, 'move', 'production', 2)).toMatchObject({ ok: true, version: { version: 2, labels: ['latest', 'production'] } });
      expect((await repo.version(pid, 'move', { label: 'production' }))?.content).toBe('two');
      expect(await repo.setLabel(pid, 'move', 'production', 9)).toEqual({ ok: false, reason: 'unknown_version' });
      expect(await repo.setLabel(pid, 'other', 'production', 1)).toEqual({ ok: false, reason: 'unknown_prompt' });
      expect(await repo.removeLabel(pid, 'move', 'production')).toBe(true);
      expect(await repo.removeLabel(pid, 'move', 'production')).toBe(false);
      expect(await repo.version(pid, 'move', { label: 'production' })).toBeNull();
      // Two versions, one label moved, one removed: four notices (refusals announce nothing).
      await expect.poll(() => seen.filter((p) => p === pid).length, { timeout: 3000 }).toBe(4);
      await stop();
    });

    it('holds the bounds on labels, and a refused label set leaves no version behind', async () => {
      const repo = promptsRepo(store);
      const pid = await project();
      const many = Array.from({ length: PROMPT_LIMITS.MAX_LABELS_PER_PROMPT }, (_, i) => `l${i}`);
      expect(await repo.create(pid, text('labels', 'a', { labels: many }))).toMatchObject({ ok: true });
      expect(await repo.create(pid, text('labels', 'b', { labels: ['one-more'] }))).toEqual({ ok: false, reason: 'too_many_labels' });
      expect((await repo.get(pid, 'labels'))?.latestVersion).toBe(1);
      expect(await repo.setLabel(pid, 'labels', 'l0', 1)).toMatchObject({ ok: true }); // moving one already there is no new label
    });

    it('counts versions and prompts against their bounds, one writer at a time', async () => {
      const repo = promptsRepo(store);
      const pid = await project();
      // Concurrent first versions of one name: one prompt, numbered without a gap.
      const results = await Promise.all(Array.from({ length: 5 }, (_, i) => repo.create(pid, text('race', `v${i}`))));
      expect(results.every((r) => r.ok)).toBe(true);
      expect((await repo.get(pid, 'race'))?.versions.map((v) => v.version)).toEqual([5, 4, 3, 2, 1]);
      // The bounds themselves, set just below them in the store (writing thousands of rows through the API is slow).
      await store.query('UPDATE prompts SET latest_version = $2 WHERE project_id = $1', [pid, PROMPT_LIMITS.MAX_VERSIONS_PER_PROMPT]);
      expect(await repo.create(pid, text('race', 'x'))).toEqual({ ok: false, reason: 'too_many_versions' });
      await store.query(`INSERT INTO prompts (project_id, name, type) SELECT $1, 'filler-' || i, 'text' FROM generate_series(1, $2::int) AS i`, [
        pid,
        PROMPT_LIMITS.MAX_PROMPTS_PER_PROJECT - 1,
      ]);
      expect(await repo.create(pid, text('one-too-many', 'x'))).toEqual({ ok: false, reason: 'too_many_prompts' });
    });

    it('keeps projects apart', async () => {
      const repo = promptsRepo(store);
      const [a, b] = [await project(), await project()];
      await repo.create(a, text('mine', 'secret'));
      expect(await repo.get(b, 'mine')).toBeNull();
      expect(await repo.version(b, 'mine', { label: 'latest' })).toBeNull();
      expect(await repo.list(b)).toEqual([]);
      expect(await repo.removeLabel(b, 'mine', 'latest')).toBe(false);
    });
  });
}
