import { describe, expect, it } from 'vitest';
import { buttonClass } from './button';

describe('buttonClass', () => {
  it('gives every variant the shared shape, focus ring and disabled look, with its own colours', () => {
    for (const variant of ['primary', 'secondary', 'danger'] as const) {
      expect(buttonClass(variant)).toMatch(/rounded-lg .*disabled:opacity-60/);
    }
    expect(buttonClass()).toBe(buttonClass('primary'));
    expect(buttonClass('primary')).toContain('bg-brand-600');
    expect(buttonClass('danger')).toContain('bg-red-600');
    expect(buttonClass('secondary')).toContain('border-slate-300');
  });
});
