import { AI_MODEL_TEXTS, type AiModelList, type AiModelRecord, type AiModelRole } from '@atrium/contracts';
import { formatBytes } from '@atrium/contracts/format-bytes';
import { Cpu, Trash2, Upload } from 'lucide-react';
import { useRef, useState, type ChangeEvent } from 'react';
import { Alert } from '../../../components/ui/alert';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-client';
import { RequestCancelledError } from '../../../lib/http';
import { showToast } from '../../../lib/toast';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAiModels, useDeleteAiModel, useSelectAiModel, useUploadAiModel } from '../api/ai-models-api';

const errorText = (error: unknown) => (isApiError(error) ? error.message : 'Something went wrong. Please try again.');
const action =
  'inline-flex min-h-11 items-center gap-1.5 rounded-md px-2.5 py-1.5 text-sm font-medium ring-1 ring-slate-300 hover:bg-slate-50 disabled:opacity-50 sm:min-h-0';
const ROLE_LABELS: Record<AiModelRole, string> = { chat: 'Answers', embeddings: 'Embeddings' };

/** What each role does without a provider or model (docs/PRODUCT.md#ask-your-files). */
const NONE_TEXTS: Record<AiModelRole, string> = {
  chat: 'None (extractive answers only; nothing leaves this server)',
  embeddings: 'None (word and synonym matching only; nothing leaves this server)',
};

function sourceText(role: AiModelRole, source: AiModelList['chat']) {
  if (source.kind === 'provider') return `Provider: ${source.label ?? ''}`;
  if (source.kind === 'model') return `Uploaded model: ${source.label ?? ''}`;
  return NONE_TEXTS[role];
}

function ModelCard({ model, onDelete }: { model: AiModelRecord; onDelete: (model: AiModelRecord) => void }) {
  const select = useSelectAiModel();
  const use = (role: AiModelRole | null) =>
    select.mutate(
      { id: model.id, role },
      {
        onSuccess: () => showToast('success', role ? `${model.name} is used for ${ROLE_LABELS[role]}` : 'Not in use'),
        onError: (error) => showToast('error', errorText(error)),
      },
    );
  return (
    <li className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200" aria-label={`Model ${model.name}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="break-all font-medium text-slate-900">{model.name}</p>
          <p className="text-sm text-slate-600">
            {model.architecture} · {formatBytes(model.sizeBytes)}
            {model.contextLength !== null && ` · context ${model.contextLength}`}
          </p>
        </div>
        {model.role && (
          <span className="rounded-full bg-brand-600 px-2 py-0.5 text-xs font-semibold text-white">
            {ROLE_LABELS[model.role]}
          </span>
        )}
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        {(['chat', 'embeddings'] as const).map((role) => (
          <button
            key={role}
            type="button"
            className={action}
            disabled={select.isPending || model.role === role}
            onClick={() => use(role)}
          >
            Use for {ROLE_LABELS[role].toLowerCase()}
          </button>
        ))}
        {model.role && (
          <button type="button" className={action} disabled={select.isPending} onClick={() => use(null)}>
            Stop using
          </button>
        )}
        <button
          type="button"
          className={`${action} text-red-700 ring-red-200 hover:bg-red-50`}
          onClick={() => onDelete(model)}
        >
          <Trash2 className="size-4" aria-hidden="true" />
          Delete
        </button>
      </div>
    </li>
  );
}

/** /dashboard/admin/ai: what writes answers and embeddings, and the uploaded GGUF models (docs/PRODUCT.md#ai-models). */
export default function AiSettingsPage() {
  useDocumentTitle('AI settings');
  const models = useAiModels();
  const upload = useUploadAiModel();
  const remove = useDeleteAiModel();
  const input = useRef<HTMLInputElement>(null);
  const controller = useRef<AbortController | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<AiModelRecord | null>(null);

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (models.data && file.size > models.data.maxUploadBytes) {
      showToast('error', AI_MODEL_TEXTS.tooLarge);
      return;
    }
    controller.current = new AbortController();
    setProgress(0);
    upload.mutate(
      {
        file,
        signal: controller.current.signal,
        onProgress: ({ loaded, total }) => setProgress(total > 0 ? Math.round((loaded / total) * 100) : 0),
      },
      {
        onSuccess: (model) => showToast('success', `${model.name} uploaded`),
        onError: (error) => {
          if (!(error instanceof RequestCancelledError)) showToast('error', errorText(error));
        },
        onSettled: () => setProgress(null),
      },
    );
  };

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => showToast('success', 'Model deleted'),
      onError: (error) => showToast('error', errorText(error)),
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <section className="mx-auto max-w-6xl px-4 pb-28 pt-8 sm:pb-12 sm:pt-12">
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900">AI settings</h1>
      {models.isPending ? (
        <Spinner />
      ) : models.isError ? (
        <Alert size="base" className="mt-6">
          {errorText(models.error)}
        </Alert>
      ) : (
        <>
          <dl className="mt-6 grid gap-3 sm:grid-cols-2" aria-label="What answers">
            <div className="rounded-xl bg-white p-4 ring-1 ring-slate-200">
              <dt className="text-sm font-medium text-slate-600">Answers</dt>
              <dd className="mt-1 break-words text-slate-900">{sourceText('chat', models.data.chat)}</dd>
            </div>
            <div className="rounded-xl bg-white p-4 ring-1 ring-slate-200">
              <dt className="text-sm font-medium text-slate-600">Embeddings</dt>
              <dd className="mt-1 break-words text-slate-900">{sourceText('embeddings', models.data.embeddings)}</dd>
            </div>
          </dl>
          <h2 className="mt-8 flex items-center gap-2 text-xl font-semibold text-slate-900">
            <Cpu className="size-5" aria-hidden="true" />
            AI models
          </h2>
          <p className="mt-1 text-slate-600">
            GGUF models run on this server’s CPU; nothing is sent anywhere. Up to{' '}
            {formatBytes(models.data.maxUploadBytes)} each. A configured provider is used before them.
          </p>
          <div className="mt-4 flex flex-wrap items-center gap-3">
            <input
              ref={input}
              type="file"
              accept=".gguf"
              className="sr-only"
              aria-label="GGUF model file"
              onChange={onFile}
            />
            <button type="button" className={action} disabled={upload.isPending} onClick={() => input.current?.click()}>
              <Upload className="size-4" aria-hidden="true" />
              Upload a model
            </button>
            {progress !== null && (
              <>
                <progress className="w-40" max={100} value={progress} aria-label="Upload progress">
                  {progress}%
                </progress>
                <span className="text-sm text-slate-600">{progress}%</span>
                <button type="button" className={action} onClick={() => controller.current?.abort()}>
                  Cancel
                </button>
              </>
            )}
          </div>
          {models.data.models.length === 0 ? (
            <p className="mt-6 text-slate-600">{AI_MODEL_TEXTS.empty}</p>
          ) : (
            <ul className="mt-6 space-y-3" aria-label="AI models">
              {models.data.models.map((model) => (
                <ModelCard key={model.id} model={model} onDelete={setDeleting} />
              ))}
            </ul>
          )}
        </>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? ''}?`}
        message={AI_MODEL_TEXTS.deleteConfirm}
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </section>
  );
}
