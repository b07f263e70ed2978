import type { FileRecord } from '@atrium/contracts';
import { FolderOpen } from 'lucide-react';
import { useState } from 'react';
import { StoredFilePicker } from '../../../components/files/stored-file-picker';
import { secondaryButtonClass } from './ai-page';

/** "Choose from files": opens the stored-file picker on the files this screen's service reads. */
export function ChooseFromFiles({
  accept,
  acceptLabel,
  onPick,
  disabled,
}: {
  accept: (file: FileRecord) => boolean;
  acceptLabel: string;
  onPick: (file: FileRecord) => void;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  // A block of its own: on the image screens it sits between the file input and the submit button.
  return (
    <div>
      <button type="button" className={secondaryButtonClass} onClick={() => setOpen(true)} disabled={disabled}>
        <FolderOpen className="size-4" aria-hidden="true" /> Choose from files
      </button>
      {open && (
        <StoredFilePicker
          mode="file"
          title="Choose from files"
          accept={accept}
          acceptLabel={acceptLabel}
          onClose={() => setOpen(false)}
          onPick={(file) => {
            setOpen(false);
            onPick(file);
          }}
        />
      )}
    </div>
  );
}

/** The line that names a stored file chosen as the input. */
export function ChosenFile({ file }: { file: FileRecord }) {
  return (
    <p className="text-sm text-slate-600" data-testid="chosen-file">
      From your files: <span className="break-all font-medium text-slate-800">{file.fileName}</span>
    </p>
  );
}
