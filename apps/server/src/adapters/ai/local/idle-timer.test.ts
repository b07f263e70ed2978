import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createIdleTimer } from './idle-timer.js';

describe('createIdleTimer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires once, after the idle period', () => {
    const onIdle = vi.fn();
    const timer = createIdleTimer(1000, onIdle);
    timer.arm();
    expect(timer.armed).toBe(true);
    vi.advanceTimersByTime(999);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
    expect(timer.armed).toBe(false);
    vi.advanceTimersByTime(10_000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('arming again restarts the countdown from now', () => {
    const onIdle = vi.fn();
    const timer = createIdleTimer(1000, onIdle);
    timer.arm();
    vi.advanceTimersByTime(800);
    timer.arm();
    vi.advanceTimersByTime(800);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(200);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('disarm() stops the countdown', () => {
    const onIdle = vi.fn();
    const timer = createIdleTimer(1000, onIdle);
    timer.arm();
    vi.advanceTimersByTime(500);
    timer.disarm();
    expect(timer.armed).toBe(false);
    vi.advanceTimersByTime(5000);
    expect(onIdle).not.toHaveBeenCalled();
  });

  it('0 means never', () => {
    const onIdle = vi.fn();
    const timer = createIdleTimer(0, onIdle);
    timer.arm();
    expect(timer.armed).toBe(false);
    vi.advanceTimersByTime(24 * 60 * 60_000);
    expect(onIdle).not.toHaveBeenCalled();
  });
});
