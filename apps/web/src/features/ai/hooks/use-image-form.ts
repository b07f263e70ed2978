import { useState, type FormEvent } from 'react';
import { useObjectUrl } from './use-object-url';

/** The texts of the image screens, face detection and image analysis (docs/PRODUCT.md#face-detection). */
export const NO_IMAGE_MESSAGE = 'Please select an image file before submitting.';
export const INVALID_IMAGE_MESSAGE = 'Please select a valid PNG or JPG file.';

/**
 * The state both image screens share: the picked file and its preview URL, the inline problem
 * message, and a submit handler that asks for a file before calling `run`.
 */
export function useImageForm({ run, onPick }: { run: (file: File) => void; onPick?: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const imageUrl = useObjectUrl(file);
  return {
    file,
    imageUrl,
    problem,
    pick(picked: File | null) {
      setFile(picked);
      setProblem(null);
      onPick?.();
    },
    invalid: () => setProblem(INVALID_IMAGE_MESSAGE),
    submit(event: FormEvent) {
      event.preventDefault();
      if (!file) {
        setProblem(NO_IMAGE_MESSAGE);
        return;
      }
      setProblem(null);
      run(file);
    },
  };
}
