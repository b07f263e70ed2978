import { ScanFace } from 'lucide-react';
import { useState } from 'react';
import { isApiError } from '../../../lib/api-error';
import { useDetectFaces } from '../api/ai-api';
import { AiPage, buttonClass, Working } from '../components/ai-page';
import { Alert } from '../components/alert';
import { ImageSource } from '../components/image-picker';
import { SaveToFiles } from '../components/save-to-files';
import { useImageForm } from '../hooks/use-image-form';
import { baseName, inputName, jsonFile } from '../lib/stored-files';
import { faceLabel } from '../lib/faces';

/** The message for an invalid-media-type answer (docs/PRODUCT.md#face-detection); every other failure gets the generic one. */
const failureMessage = (error: unknown) =>
  isApiError(error) &&
  (error.status === 415 || error.code === 'UNSUPPORTED_MEDIA_TYPE' || error.code === 'INVALID_MEDIA')
    ? 'Please upload a PNG or JPG format image.'
    : 'Error detecting faces. Please try again.';

export default function FaceDetectionPage() {
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const detect = useDetectFaces();
  const form = useImageForm({
    run: (input) => detect.mutate(input),
    onPick: () => {
      setSize(null);
      detect.reset();
    },
  });
  const { imageUrl, problem } = form;
  const faces = detect.data ?? [];
  const detected = detect.variables;

  return (
    <AiPage title="Face Detection" intro="Upload a photo to find faces with their estimated age, gender and emotion.">
      <form
        onSubmit={form.submit}
        className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
        noValidate
      >
        <ImageSource form={form} busy={detect.isPending} />
        <button type="submit" className={buttonClass} disabled={detect.isPending}>
          <ScanFace className="size-4" aria-hidden="true" /> Detect Faces
        </button>
        {detect.isPending && <Working label="Detecting faces…" />}
        {problem && <Alert>{problem}</Alert>}
        {detect.isError && <Alert>{failureMessage(detect.error)}</Alert>}
        {detect.isSuccess && faces.length === 0 && <Alert kind="info">No faces detected in the uploaded image.</Alert>}
      </form>
      {imageUrl && (
        <figure className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm">
          <div className="relative mx-auto w-fit max-w-full">
            <img
              src={imageUrl}
              alt="The selected image"
              className="block h-auto max-h-[70vh] max-w-full"
              onLoad={(event) =>
                setSize({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight })
              }
            />
            {size &&
              faces.map((face) => (
                <div
                  key={face.faceId}
                  data-testid="face-box"
                  className="absolute border-2 border-brand-500 shadow-[0_0_0_1px_rgba(255,255,255,0.8)]"
                  style={{
                    left: `${(face.faceRectangle.left / size.width) * 100}%`,
                    top: `${(face.faceRectangle.top / size.height) * 100}%`,
                    width: `${(face.faceRectangle.width / size.width) * 100}%`,
                    height: `${(face.faceRectangle.height / size.height) * 100}%`,
                  }}
                >
                  <span className="absolute left-0 top-full mt-0.5 whitespace-nowrap rounded bg-brand-600 px-1.5 py-0.5 text-xs font-medium text-white">
                    {faceLabel(face)}
                  </span>
                </div>
              ))}
          </div>
          {faces.length > 0 && (
            <figcaption className="mt-8">
              <h2 className="text-lg font-semibold text-slate-900">
                {faces.length === 1 ? '1 face detected' : `${faces.length} faces detected`}
              </h2>
              <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-slate-700">
                {faces.map((face) => (
                  <li key={face.faceId}>{faceLabel(face)}</li>
                ))}
              </ol>
              {detected && (
                <div className="mt-4">
                  <SaveToFiles
                    what="face detection result"
                    make={() => jsonFile(detect.data, `${baseName(inputName(detected), 'image')} faces.json`)}
                  />
                </div>
              )}
            </figcaption>
          )}
        </figure>
      )}
    </AiPage>
  );
}
