import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { smokeClient, stopSmokeApp } from './smoke-app';

after(stopSmokeApp);

describe('/projects (smoke test)', () => {
  it('creates, lists, reads, updates and deletes a Project', async () => {
    const client = await smokeClient();
    const created = await client.create('/projects', { name: client.text('name') });
    assert.notEqual(created.id, undefined);
    await client.expectListed('/projects', created.id);
    const found = await client.get('/projects', created.id);
    assert.equal(found.id, created.id);
    const changes = { name: client.text('name') };
    const updated = await client.update('/projects', created.id, changes);
    assert.equal(updated.name, changes.name);
    const reread = await client.get('/projects', created.id);
    assert.equal(reread.name, changes.name);
    await client.remove('/projects', created.id);
    await client.expectGone('/projects', created.id);
  });
});
