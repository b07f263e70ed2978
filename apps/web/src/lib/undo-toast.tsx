import { toast } from 'react-toastify/unstyled';
import { errorText } from './api-error';
import { showToast } from './toast';

let shown = 0;

/**
 * The success toast of a move or a rename with an **Undo** button (docs/PRODUCT.md#spaces-screens): Undo runs
 * `undo` (the same API, back to where or what it was) and says what happened, or why it could not.
 */
export function showUndoToast({
  id,
  text,
  undoLabel,
  undo,
  undone,
}: {
  /** What changed (part of the toast's id). */
  id: string;
  text: string;
  /** The Undo button's accessible name ("Undo: move report.pdf back"). */
  undoLabel: string;
  undo: () => Promise<unknown>;
  /** Said once undone. */
  undone: string;
}) {
  toast.success(
    ({ closeToast }) => (
      <div className="flex w-full flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <span>{text}</span>
        <button
          type="button"
          className="rounded-md px-2 py-1 text-sm font-semibold text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
          aria-label={undoLabel}
          onClick={() => {
            closeToast();
            undo()
              .then(() => showToast('success', undone))
              .catch((error: unknown) => showToast('error', errorText(error) ?? 'It could not be undone.'));
          }}
        >
          Undo
        </button>
      </div>
    ),
    { toastId: `undo:${id}:${++shown}`, autoClose: 8000 },
  );
}
