import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { smokeClient, stopSmokeApp } from './smoke-app';

after(stopSmokeApp);

describe('/comments (smoke test)', () => {
  it('creates, lists, reads, updates and deletes a Comment', async () => {
    const client = await smokeClient();
    const task = await client.create('/tasks', { title: client.text('title') });
    const created = await client.create('/comments', { body: client.text('body'), taskId: task.id });
    assert.notEqual(created.id, undefined);
    await client.expectListed('/comments', created.id);
    const found = await client.get('/comments', created.id);
    assert.equal(found.id, created.id);
    const changes = { body: client.text('body') };
    const updated = await client.update('/comments', created.id, changes);
    assert.equal(updated.body, changes.body);
    const reread = await client.get('/comments', created.id);
    assert.equal(reread.body, changes.body);
    await client.remove('/comments', created.id);
    await client.expectGone('/comments', created.id);
  });
});
