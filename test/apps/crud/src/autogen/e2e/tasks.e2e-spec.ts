import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { smokeClient, stopSmokeApp } from './smoke-app';

after(stopSmokeApp);

describe('/tasks (smoke test)', () => {
  it('creates, lists, reads, updates and deletes a Task', async () => {
    const client = await smokeClient();
    const created = await client.create('/tasks', { title: client.text('title') });
    assert.notEqual(created.id, undefined);
    await client.expectListed('/tasks', created.id);
    const found = await client.get('/tasks', created.id);
    assert.equal(found.id, created.id);
    const changes = { title: client.text('title') };
    const updated = await client.update('/tasks', created.id, changes);
    assert.equal(updated.title, changes.title);
    const reread = await client.get('/tasks', created.id);
    assert.equal(reread.title, changes.title);
    await client.remove('/tasks', created.id);
    await client.expectGone('/tasks', created.id);
  });
});
