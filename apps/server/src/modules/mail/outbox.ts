import { randomUUID } from 'node:crypto';
import type { Mailer, MailMessage } from '../../adapters/mailer';
import { iso, type Clock } from '../../lib/time';
import type { MailRepository } from './mail.repository';

export interface OutboxOptions {
  /** First retry after this long, doubling each time (default 30 s, at most an hour). */
  backoffMs?: number;
  /** Attempts before a message is given up (default 8). */
  maxAttempts?: number;
  /** How long a sender holds a claimed message (default 2 min: longer than nodemailer's time-outs). */
  claimMs?: number;
}

/**
 * The durable outbox (docs/PRODUCT.md#email): `enqueue` stores a row and returns at once; `deliverDue` (the
 * `mail.outbox` job every 30 s, and a kick right after an enqueue) claims each due row with a conditional update, sends
 * it, and marks it sent or schedules a retry with backoff. A restart loses nothing: unsent rows wait in the table, a
 * claim held by a stopped instance expires.
 */
export function createOutbox(deps: {
  repo: MailRepository;
  mailer: Mailer;
  clock: Clock;
  log: { warn(details: object, message: string): void; info(details: object, message: string): void };
  options?: OutboxOptions;
}) {
  const { repo, mailer, clock, log } = deps;
  const backoffMs = deps.options?.backoffMs ?? 30_000;
  const maxAttempts = deps.options?.maxAttempts ?? 8;
  const claimMs = deps.options?.claimMs ?? 120_000;
  let running: Promise<number> | undefined;
  let again = false;
  let stopped = false;

  async function deliverDue(): Promise<number> {
    let sent = 0;
    for (;;) {
      const now = clock.now();
      const due = await repo.due(iso(now), 20);
      if (due.length === 0 || stopped) return sent;
      for (const { id } of due) {
        if (stopped) return sent;
        const row = await repo.claim(id, iso(now), iso(new Date(now.getTime() + claimMs)));
        if (!row) continue;
        try {
          await mailer.send({
            to: row.to_address,
            subject: row.subject,
            text: row.text_body,
            html: row.html_body,
            headers: JSON.parse(row.headers) as Record<string, string>,
          });
          await repo.markSent(id, iso(clock.now()));
          sent += 1;
        } catch (error) {
          const attempts = row.attempts + 1;
          const retryAt =
            attempts < maxAttempts
              ? iso(new Date(clock.now().getTime() + Math.min(backoffMs * 2 ** (attempts - 1), 3_600_000)))
              : undefined;
          log.warn(
            { err: error, mailId: id, attempts, retryAt: retryAt ?? null },
            retryAt ? 'could not send an email; it will be tried again' : 'gave up sending an email',
          );
          await repo.markFailed(id, iso(clock.now()), error instanceof Error ? error.message : String(error), retryAt);
        }
      }
      // Rows that failed now are due later: the next pass stops at them.
      if (due.length < 20) return sent;
    }
  }

  /** Makes `run` the one in progress, which `idle()` and the next run wait for; a kick during it runs again after. */
  function track(run: Promise<number>): Promise<number> {
    const tracked: Promise<number> = run.finally(() => {
      if (running === tracked) running = undefined;
      if (again) {
        again = false;
        kick();
      }
    });
    running = tracked;
    return tracked;
  }

  /** Runs `deliverDue` now in the background (once at a time; a kick during a run runs it again after). */
  function kick(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    void track(
      deliverDue().catch((error: unknown) => {
        log.warn({ err: error }, 'the email outbox failed');
        return 0;
      }),
    );
  }

  return {
    /** Stores the message to send (never throws for SMTP reasons: the caller's request goes on). */
    async enqueue(message: MailMessage): Promise<void> {
      if (!mailer.enabled || stopped) return;
      await repo.enqueue({
        id: randomUUID(),
        to_address: message.to,
        subject: message.subject,
        text_body: message.text,
        html_body: message.html,
        headers: JSON.stringify(message.headers ?? {}),
        created_at: iso(clock.now()),
      });
      kick();
    },
    /** The scheduler's run; also waits for a kick in progress. */
    async deliverDue(): Promise<number> {
      if (!mailer.enabled) return 0;
      while (running) await running.catch(() => 0);
      return track(deliverDue());
    },
    /** Waits for the background sends in progress (close; tests). */
    async idle(): Promise<void> {
      while (running) await running.catch(() => 0);
    },
    async stop(): Promise<void> {
      stopped = true;
      while (running) await running.catch(() => 0);
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
