import { describe, expect, it } from 'vitest';
import { greetingFor } from './greeting';

const at = (hours: number, minutes: number) => new Date(2025, 3, 28, hours, minutes, 0);

describe('greetingFor (local time)', () => {
  it.each([
    [0, 0, 'Good Morning'],
    [11, 59, 'Good Morning'],
    [12, 0, 'Good Afternoon'],
    [17, 59, 'Good Afternoon'],
    [18, 0, 'Good Evening'],
    [23, 59, 'Good Evening'],
  ])('%i:%i → %s', (hours, minutes, expected) => {
    expect(greetingFor(at(hours, minutes))).toBe(expected);
  });
});
