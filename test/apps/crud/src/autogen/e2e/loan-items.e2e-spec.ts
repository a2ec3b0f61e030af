import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { smokeClient, stopSmokeApp } from './smoke-app';

after(stopSmokeApp);

describe('/loan-items (smoke test)', () => {
  it('creates, lists, reads, updates and deletes a LoanItem', async () => {
    const client = await smokeClient();
    const created = await client.create('/loan-items', { label: client.text('label') });
    assert.notEqual(created.id, undefined);
    await client.expectListed('/loan-items', created.id);
    const found = await client.get('/loan-items', created.id);
    assert.equal(found.id, created.id);
    const changes = { label: client.text('label') };
    const updated = await client.update('/loan-items', created.id, changes);
    assert.equal(updated.label, changes.label);
    const reread = await client.get('/loan-items', created.id);
    assert.equal(reread.label, changes.label);
    await client.remove('/loan-items', created.id);
    await client.expectGone('/loan-items', created.id);
  });
});
