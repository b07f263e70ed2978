import { act, fireEvent, render, screen } from '@testing-library/react';
import { ToastContainer } from 'react-toastify/unstyled';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { limitToasts, showToast } from './toast';

let stopLimit: () => void;
beforeEach(() => {
  stopLimit = limitToasts();
  render(<ToastContainer position="top-right" autoClose={5000} />);
});
afterEach(() => stopLimit());

/** The toasts on screen and not leaving (jsdom runs no CSS animations, so leaving ones are finished by hand). */
const onScreen = () => {
  for (const leaving of document.querySelectorAll('.Toastify--animate.Toastify__bounce-exit--top-right')) {
    fireEvent.animationEnd(leaving);
  }
  return screen.queryAllByRole('alert').map((toast) => toast.textContent);
};

const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 150)));

describe('toasts', () => {
  it('counts a repeated text on one toast instead of stacking copies', async () => {
    showToast('success', 'Response received!');
    await settle();
    showToast('success', 'Response received!');
    showToast('success', 'Response received!');
    await settle();
    expect(onScreen()).toEqual(['Response received! ×3']);
  });

  it('shows at most three, the newest replacing the oldest', async () => {
    for (const text of ['one', 'two', 'three', 'four']) {
      showToast('info', text);
      await settle();
    }
    await settle();
    expect(onScreen().sort()).toEqual(['four', 'three', 'two']);
  });
});
