import { ENDPOINTS, type AnalysisSetting } from '@atrium/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { Alert } from '../../../components/ui/alert';
import { call } from '../../../lib/api-client';
import { errorText } from '../../../lib/api-error';

const OPTIONS: { value: AnalysisSetting; label: string; hint: string }[] = [
  { value: 'on', label: 'On', hint: 'Text in images and documents, transcripts, tags, captions and faces.' },
  { value: 'no-faces', label: 'On, without faces', hint: 'Everything but faces; faces already found are removed.' },
  { value: 'off', label: 'Off', hint: 'Nothing is analysed; what was found is removed.' },
];

const key = (workspaceId: string) => ['workspaces', workspaceId, 'analysis'] as const;

/**
 * The owner's choice of background analysis for a workspace's files (PUT /api/workspaces/{id}/analysis): radio
 * buttons, saved on change, with the server's answer or refusal announced.
 */
export function WorkspaceAnalysis({ workspaceId }: { workspaceId: string }) {
  const id = useId();
  const client = useQueryClient();
  const setting = useQuery({
    queryKey: key(workspaceId),
    queryFn: () => call(ENDPOINTS.analysis.setting, { params: { id: workspaceId } }),
  });
  const change = useMutation({
    mutationFn: (analysis: AnalysisSetting) =>
      call(ENDPOINTS.analysis.changeSetting, { params: { id: workspaceId }, body: { analysis } }),
    onSuccess: (saved) => client.setQueryData(key(workspaceId), saved),
  });
  const current = change.isPending ? change.variables : setting.data?.analysis;
  return (
    <fieldset className="border-t border-slate-100 pt-4" aria-describedby={`${id}-privacy`}>
      <legend className="text-sm font-medium text-slate-700">Background analysis of files</legend>
      <p id={`${id}-privacy`} className="mt-1 text-xs text-slate-600">
        With the server&apos;s own AI engines, nothing leaves this server.
      </p>
      {setting.isError ? (
        <Alert className="mt-2">Could not load the setting.</Alert>
      ) : (
        <div className="mt-2 space-y-2">
          {OPTIONS.map((option) => (
            <div key={option.value} className="flex items-start gap-2 text-sm">
              <input
                id={`${id}-${option.value}`}
                type="radio"
                name={`${id}-analysis`}
                value={option.value}
                checked={current === option.value}
                disabled={setting.isPending || change.isPending}
                onChange={() => change.mutate(option.value)}
                aria-describedby={`${id}-${option.value}-hint`}
                className="mt-1 accent-brand-600"
              />
              <div>
                <label htmlFor={`${id}-${option.value}`} className="font-medium text-slate-900">
                  {option.label}
                </label>
                <p id={`${id}-${option.value}-hint`} className="text-xs text-slate-600">
                  {option.hint}
                </p>
              </div>
            </div>
          ))}
        </div>
      )}
      {change.isError && <Alert className="mt-2">{errorText(change.error)}</Alert>}
      {change.isSuccess && (
        <p role="status" className="mt-2 text-sm text-emerald-700">
          Analysis setting saved.
        </p>
      )}
    </fieldset>
  );
}
