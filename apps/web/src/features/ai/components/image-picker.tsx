import { useId } from 'react';
import { fileInputClass } from './ai-page';
import type { useImageForm } from '../hooks/use-image-form';
import { isImageRecord } from '../lib/stored-files';
import { ChooseFromFiles, ChosenFile } from './choose-from-files';

export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/jpg', 'image/png'];

/** A file input for JPEG/PNG images; other types are refused with `invalidMessage`. */
export function ImagePicker({ onPick, onInvalid }: { onPick: (file: File | null) => void; onInvalid: () => void }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-2 block text-sm font-medium text-slate-800">
        Image (PNG or JPG)
      </label>
      <input
        id={id}
        type="file"
        accept={ACCEPTED_IMAGE_TYPES.join(',')}
        className={fileInputClass}
        onChange={(event) => {
          const file = event.target.files?.[0] ?? null;
          if (file && !ACCEPTED_IMAGE_TYPES.includes(file.type)) {
            event.target.value = '';
            onPick(null);
            onInvalid();
            return;
          }
          onPick(file);
        }}
      />
    </div>
  );
}

/**
 * Where an image screen's input comes from: the spec's file input, or a stored image chosen from files (shown once
 * chosen). `form` is the screen's `useImageForm`.
 */
export function ImageSource({ form, busy }: { form: ReturnType<typeof useImageForm>; busy: boolean }) {
  return (
    <>
      <ImagePicker key={form.inputKey} onPick={form.pick} onInvalid={form.invalid} />
      <ChooseFromFiles
        accept={isImageRecord}
        acceptLabel="PNG or JPG images"
        onPick={form.pickStored}
        disabled={busy}
      />
      {form.input?.kind === 'stored' && <ChosenFile file={form.input.file} />}
    </>
  );
}
