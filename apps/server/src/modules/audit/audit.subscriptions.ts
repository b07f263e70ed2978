/**
 * The audit log's one rule (docs/PRODUCT.md#admin-console-users-and-audit-log): every audited action is a domain
 * event of the same name (`AuditedEvents` in events/payloads.ts), and each one emitted becomes one entry. Modules
 * emit what they changed; only this file calls the recorder (lint keeps it so).
 */
import { AUDIT_ACTIONS } from '@atrium/contracts';
import type { EventSubscriber } from '../../events';
import type { AuditRecorder } from './audit-recorder';

/** The name the audit log's reactions carry in the hub (a failing one is logged under it). */
export const AUDIT_REACTION = 'audit.record';

/**
 * Subscribes the recorder to every audited event. Subscribed when the hub is built, before any other reaction, so an
 * entry is written before the emit returns (a request is answered after its entry exists).
 */
export function subscribeAuditLog(events: EventSubscriber, { recorder }: { recorder: AuditRecorder }): void {
  for (const action of AUDIT_ACTIONS) {
    events.on(action, AUDIT_REACTION, (change) =>
      recorder.record({
        action,
        actor: change.actor,
        target: change.target,
        subject: change.subject,
        details: change.details,
        ip: change.ip,
        userAgent: change.userAgent,
        requestId: change.requestId,
      }),
    );
  }
}
