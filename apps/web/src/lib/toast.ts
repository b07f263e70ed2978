import { toast, type Id, type ToastOptions } from 'react-toastify/unstyled';

/** At most this many toasts are on screen: a new one closes the oldest. */
export const MAX_TOASTS = 3;

type ToastKind = 'info' | 'success' | 'warning' | 'error';

/** How many times the toast with this id has been asked for while on screen. */
const repeats = new Map<Id, number>();

/** The text a repeated toast shows: the message itself, then "message ×2", "message ×3"… */
export const repeatedText = (text: string, times: number) => (times > 1 ? `${text} ×${times}` : text);

/**
 * Shows a toast with `text`; while a toast of the same kind and text is still on screen, that one counts
 * the repeat instead ("Response received! ×3") and its timer starts again.
 */
export function showToast(kind: ToastKind, text: string, options: Omit<ToastOptions, 'toastId' | 'type'> = {}): Id {
  const id = `${kind}:${text}`;
  if (toast.isActive(id)) {
    const times = (repeats.get(id) ?? 1) + 1;
    repeats.set(id, times);
    toast.update(id, { ...options, render: repeatedText(text, times) });
    return id;
  }
  repeats.delete(id);
  return toast[kind](text, { ...options, toastId: id });
}

/**
 * Keeps at most `max` toasts on screen by closing the oldest when a new one arrives (react-toastify's
 * own `limit` queues the new toast until one closes, so the newest would wait). Returns the unsubscribe.
 */
export function limitToasts(max = MAX_TOASTS): () => void {
  const open: Id[] = [];
  return toast.onChange((item) => {
    if (item.status === 'added') {
      open.push(item.id);
      while (open.length > max) {
        const oldest = open.shift();
        if (oldest !== undefined) toast.dismiss(oldest);
      }
    } else if (item.status === 'removed') {
      const index = open.indexOf(item.id);
      if (index !== -1) open.splice(index, 1);
      repeats.delete(item.id);
    }
  });
}
