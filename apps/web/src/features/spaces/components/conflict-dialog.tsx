import { buttonClass } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';

export interface ConflictDialogProps {
  /** The names being uploaded that already exist in the folder. */
  names: string[];
  onReplace: () => void;
  onKeepBoth: () => void;
  onCancel: () => void;
}

/**
 * Asked before uploading names that exist in the folder (docs/PRODUCT.md#trash-and-versions): **Replace** makes the
 * upload a new version of the existing file (the old content stays in its versions); **Keep both** stores it as
 * `name (1).ext`.
 */
export function ConflictDialog({ names, onReplace, onKeepBoth, onCancel }: ConflictDialogProps) {
  const one = names.length === 1;
  return (
    <Dialog
      open
      title={one ? 'Replace the existing file?' : `Replace ${names.length} existing files?`}
      description={
        one
          ? `A file named “${names[0]}” is already in this folder.`
          : 'Files with these names are already in this folder.'
      }
      onClose={onCancel}
      size="sm"
      footer={
        <>
          <button type="button" onClick={onCancel} className={buttonClass('secondary')}>
            Cancel
          </button>
          <button type="button" onClick={onKeepBoth} className={buttonClass('secondary')}>
            Keep both
          </button>
          <button type="button" data-autofocus onClick={onReplace} className={buttonClass('primary')}>
            Replace
          </button>
        </>
      }
    >
      {!one && (
        <ul className="max-h-40 list-disc overflow-y-auto pl-5 text-sm text-slate-700">
          {names.map((name) => (
            <li key={name} className="break-all">
              {name}
            </li>
          ))}
        </ul>
      )}
      <p className="mt-2 text-sm text-slate-600">
        Replace keeps the old content as a version you can restore. Keep both adds a numbered copy.
      </p>
    </Dialog>
  );
}
