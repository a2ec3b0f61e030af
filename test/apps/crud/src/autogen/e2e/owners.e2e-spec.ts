import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { smokeClient, stopSmokeApp } from './smoke-app';

after(stopSmokeApp);

describe('/owners (smoke test)', () => {
  it('creates, lists, reads, updates and deletes an Owner', async () => {
    const client = await smokeClient();
    const created = await client.create('/owners', { name: client.text('name'), email: client.email() });
    assert.notEqual(created.id, undefined);
    await client.expectListed('/owners', created.id);
    const found = await client.get('/owners', created.id);
    assert.equal(found.id, created.id);
    const changes = { name: client.text('name') };
    const updated = await client.update('/owners', created.id, changes);
    assert.equal(updated.name, changes.name);
    const reread = await client.get('/owners', created.id);
    assert.equal(reread.name, changes.name);
    await client.remove('/owners', created.id);
    await client.expectGone('/owners', created.id);
  });
});
