import type { FileRecord } from '@atrium/contracts';
import { useState, type FormEvent } from 'react';
import { downloadUrl } from '../../../lib/file-urls';
import type { AiInput } from '../api/ai-api';
import { useObjectUrl } from './use-object-url';

/** The texts of the image screens, face detection and image analysis (docs/PRODUCT.md#face-detection). */
export const NO_IMAGE_MESSAGE = 'Please select an image file before submitting.';
export const INVALID_IMAGE_MESSAGE = 'Please select a valid PNG or JPG file.';

/**
 * The state both image screens share: the picked image (an upload, or a stored file chosen from files) and its
 * preview URL, the inline problem message, and a submit handler that asks for an image before calling `run`.
 * `inputKey` changes when a stored file is chosen, so the file input (keyed on it) forgets an earlier upload.
 */
export function useImageForm({ run, onPick }: { run: (input: AiInput) => void; onPick?: () => void }) {
  const [input, setInput] = useState<AiInput | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const uploadUrl = useObjectUrl(input?.kind === 'upload' ? input.blob : undefined);
  const imageUrl = input?.kind === 'stored' ? downloadUrl(input.file.id, true) : uploadUrl;
  const choose = (next: AiInput | null) => {
    setInput(next);
    setProblem(null);
    onPick?.();
  };
  return {
    input,
    inputKey,
    imageUrl,
    problem,
    pick: (picked: File | null) => choose(picked ? { kind: 'upload', blob: picked, name: picked.name } : null),
    pickStored(file: FileRecord) {
      choose({ kind: 'stored', file });
      setInputKey((key) => key + 1);
    },
    invalid: () => setProblem(INVALID_IMAGE_MESSAGE),
    submit(event: FormEvent) {
      event.preventDefault();
      if (!input) {
        setProblem(NO_IMAGE_MESSAGE);
        return;
      }
      setProblem(null);
      run(input);
    },
  };
}
