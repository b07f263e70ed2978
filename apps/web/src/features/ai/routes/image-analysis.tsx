import { ImageUp } from 'lucide-react';
import { categoryLabel, type ImageAnalysisResult } from '@atrium/contracts';
import { useAnalyzeImage } from '../api/ai-api';
import { AiPage, buttonClass, Working } from '../components/ai-page';
import { Alert, ErrorDetail } from '../components/alert';
import { ImageSource } from '../components/image-picker';
import { SaveToFiles } from '../components/save-to-files';
import { useImageForm } from '../hooks/use-image-form';
import { baseName, inputName, jsonFile } from '../lib/stored-files';

/** Azure names colours ("Grey", "White") or gives the accent as hex without '#'. */
const cssColour = (name: string) => (/^[0-9a-f]{6}$/i.test(name) ? `#${name}` : name.toLowerCase());

function Summary({ result }: { result: ImageAnalysisResult }) {
  const caption = result.description.captions[0];
  const { color } = result;
  const swatches = [
    ['Foreground', color.dominantColorForeground],
    ['Background', color.dominantColorBackground],
    ...color.dominantColors.map((c) => ['Dominant', c] as const),
    ['Accent', color.accentColor],
  ] as const;
  return (
    <section
      aria-labelledby="summary-heading"
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="summary-heading" className="text-lg font-semibold text-slate-900">
        Summary
      </h2>
      <div>
        <h3 className="text-sm font-medium text-slate-500">Caption</h3>
        <p className="text-slate-900" data-testid="caption">
          {caption ? `${caption.text} (${Math.round(caption.confidence * 100)}% confidence)` : 'No caption'}
        </p>
      </div>
      <div>
        <h3 className="text-sm font-medium text-slate-500">Tags</h3>
        {result.description.tags.length ? (
          <ul className="mt-1 flex flex-wrap gap-2">
            {result.description.tags.map((tag) => (
              <li key={tag} className="rounded-full bg-brand-50 px-3 py-1 text-sm text-brand-700">
                {tag}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-slate-600">No tags</p>
        )}
      </div>
      {result.categories.length > 0 && (
        <div>
          <h3 className="text-sm font-medium text-slate-500">Categories</h3>
          <p className="text-slate-800">
            {result.categories.map((c) => `${categoryLabel(c.name)} (${Math.round(c.score * 100)}%)`).join(', ')}
          </p>
        </div>
      )}
      <div>
        <h3 className="text-sm font-medium text-slate-500">Colours {color.isBWImg ? '(black and white image)' : ''}</h3>
        <ul className="mt-1 flex flex-wrap gap-3">
          {swatches.map(([label, value], index) => (
            <li key={`${label}-${value}-${index}`} className="flex items-center gap-2 text-sm text-slate-700">
              <span
                className="size-5 rounded border border-slate-300"
                style={{ backgroundColor: cssColour(value) }}
                aria-hidden="true"
              />
              {label}: {value}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

export default function ImageAnalysisPage() {
  const analyze = useAnalyzeImage();
  const form = useImageForm({ run: (input) => analyze.mutate(input), onPick: () => analyze.reset() });
  const analysed = analyze.variables;
  const { imageUrl, problem } = form;

  return (
    <AiPage title="Image Analysis" intro="Upload an image to get a caption, tags, categories and its colours.">
      <form
        onSubmit={form.submit}
        className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
        noValidate
      >
        <ImageSource form={form} busy={analyze.isPending} />
        {imageUrl && <img src={imageUrl} alt="Preview of the selected image" className="max-h-80 rounded-lg" />}
        <button type="submit" className={buttonClass} disabled={analyze.isPending}>
          <ImageUp className="size-4" aria-hidden="true" /> Analyze Image
        </button>
        {analyze.isPending && <Working label="Analyzing the image…" />}
        {problem && <Alert>{problem}</Alert>}
        {analyze.isError && (
          <Alert>
            Failed to analyze the image. Please try again.
            <ErrorDetail error={analyze.error} />
          </Alert>
        )}
      </form>
      {analyze.data && (
        <>
          <Summary result={analyze.data} />
          <section aria-labelledby="json-heading" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
            <h2 id="json-heading" className="text-lg font-semibold text-slate-900">
              Analysis result (JSON)
            </h2>
            <pre
              className="mt-2 max-h-96 overflow-auto rounded-lg bg-slate-900 p-4 text-xs text-slate-100"
              data-testid="analysis-json"
            >
              {JSON.stringify(analyze.data, null, 2)}
            </pre>
            {analysed && (
              <div className="mt-4">
                <SaveToFiles
                  what="analysis"
                  make={() => jsonFile(analyze.data, `${baseName(inputName(analysed), 'image')} analysis.json`)}
                />
              </div>
            )}
          </section>
        </>
      )}
    </AiPage>
  );
}
