import { AUDIT_ACTIONS } from '@atrium/contracts';
import { describe, expect, it } from 'vitest';
import { createDomainEvents } from '../../events';
import type { AuditRepository, AuditRow } from './audit.repository';
import { createAuditService } from './audit.service';
import { AUDIT_REACTION, subscribeAuditLog } from './audit.subscriptions';

const AT = new Date('2026-01-02T03:04:05.000Z');

/** The audit service over a repository that keeps inserted rows in memory. */
function setUp() {
  const rows: AuditRow[] = [];
  const repo = {
    insert: async (row: AuditRow) => void rows.push(row),
    page: async () => [],
    deleteOlderThan: async () => 0,
  } satisfies AuditRepository;
  const audit = createAuditService({ repo, clock: { now: () => AT }, retentionDays: 30, log: { error: () => {} } });
  const events = createDomainEvents({ log: { warn: () => {} } });
  subscribeAuditLog(events, audit);
  return { rows, events };
}

describe('audit subscriptions', () => {
  it('subscribes the audit log to every audited action, once', () => {
    const { events } = setUp();
    for (const action of AUDIT_ACTIONS) expect(events.reactionsTo(action), action).toEqual([AUDIT_REACTION]);
  });

  it('writes an emitted change as one entry named after the event, with its fields', async () => {
    const { rows, events } = setUp();
    await events.emit('share.created', {
      actor: 'alice',
      target: 'share:s1',
      subject: 'file:f1',
      details: { with: 'bob', role: 'viewer' },
      ip: '203.0.113.7',
      userAgent: 'agent/1.0',
      requestId: 'req-1',
    });
    expect(rows).toEqual([
      {
        id: expect.any(String),
        at: AT.toISOString(),
        actor: 'alice',
        action: 'share.created',
        target: 'share:s1',
        subject: 'file:f1',
        details: JSON.stringify({ with: 'bob', role: 'viewer' }),
        ip: '203.0.113.7',
        user_agent: 'agent/1.0',
        request_id: 'req-1',
      },
    ]);
  });

  it('keeps what a change leaves out empty, and a file target is its own subject', async () => {
    const { rows, events } = setUp();
    await events.emit('file.purged', { actor: null, target: null, details: { expired: 2 } });
    await events.emit('file.renamed', { actor: 'bob', target: 'file:f2' });
    expect(rows).toMatchObject([
      {
        action: 'file.purged',
        actor: null,
        target: null,
        subject: null,
        ip: null,
        user_agent: null,
        request_id: null,
        details: '{"expired":2}',
      },
      { action: 'file.renamed', actor: 'bob', target: 'file:f2', subject: 'file:f2', details: null },
    ]);
  });
});
