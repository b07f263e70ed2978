import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Alert } from './alert';

describe('Alert', () => {
  it('is an announced paragraph, red small text by default', () => {
    render(<Alert>Could not load files.</Alert>);
    const alert = screen.getByRole('alert');
    expect(alert.tagName).toBe('P');
    expect(alert.textContent).toBe('Could not load files.');
    expect(alert.className).toBe('text-red-700 text-sm');
  });

  it('gives each variant its own look and takes the size', () => {
    const { rerender } = render(<Alert variant="box">No.</Alert>);
    expect(screen.getByRole('alert').className).toBe('break-words rounded-lg bg-red-50 px-3 py-2 text-red-800 text-sm');
    rerender(<Alert variant="panel">No.</Alert>);
    expect(screen.getByRole('alert').className).toBe(
      'rounded-xl border border-red-200 bg-red-50 p-4 text-red-800 text-sm',
    );
    rerender(<Alert size="xs">No.</Alert>);
    expect(screen.getByRole('alert').className).toBe('text-red-700 text-xs');
    rerender(<Alert size="base">No.</Alert>);
    expect(screen.getByRole('alert').className).toBe('text-red-700 text-base');
  });

  it('passes the id (for aria-describedby) and adds the caller’s margins', () => {
    render(
      <>
        <input aria-label="Name" aria-describedby="name-error" aria-invalid />
        <Alert id="name-error" className="mt-2">
          Too short.
        </Alert>
      </>,
    );
    const alert = screen.getByRole('alert');
    expect(alert.id).toBe('name-error');
    expect(alert.className).toBe('mt-2 text-red-700 text-sm');
    expect(screen.getByRole('textbox', { name: 'Name', description: 'Too short.' })).toBeTruthy();
  });
});
