import { describe, expect, it } from 'vitest';
import { createDomainEvents } from './domain-events';

const quietLog = () => {
  const warnings: Array<{ details: object; message: string }> = [];
  return { warnings, log: { warn: (details: object, message: string) => warnings.push({ details, message }) } };
};

describe('domain events', () => {
  it('awaits the reactions in the order they subscribed', async () => {
    const { log } = quietLog();
    const events = createDomainEvents({ log });
    const seen: string[] = [];
    events.on('file.analysed', 'first', async ({ fileId }) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push(`first:${fileId}`);
    });
    events.on('file.analysed', 'second', ({ fileId }) => void seen.push(`second:${fileId}`));
    await events.emit('file.analysed', { fileId: 'f1', text: 'hello' });
    expect(seen).toEqual(['first:f1', 'second:f1']);
    expect(events.reactionsTo('file.analysed')).toEqual(['first', 'second']);
  });

  it('logs a failing reaction and still runs the next one', async () => {
    const { log, warnings } = quietLog();
    const events = createDomainEvents({ log });
    const seen: string[] = [];
    events.on('people.changed', 'breaks', () => {
      throw new Error('boom');
    });
    events.on('people.changed', 'runs', ({ fileIds }) => void seen.push(...fileIds));
    await expect(events.emit('people.changed', { fileIds: ['a', 'b'] })).resolves.toBeUndefined();
    expect(seen).toEqual(['a', 'b']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.details).toMatchObject({ event: 'people.changed', reaction: 'breaks' });
  });

  it('stops calling a reaction once unsubscribed, and an event nobody hears is fine', async () => {
    const { log } = quietLog();
    const events = createDomainEvents({ log });
    let calls = 0;
    const off = events.on('file.reanalyse', 'counts', () => void calls++);
    await events.emit('file.reanalyse', { fileIds: ['x'] });
    off();
    await events.emit('file.reanalyse', { fileIds: ['x'] });
    await events.emit('link.created', { actor: 'alice', target: 'link:1' });
    expect(calls).toBe(1);
    expect(events.reactionsTo('file.reanalyse')).toEqual([]);
  });
});
