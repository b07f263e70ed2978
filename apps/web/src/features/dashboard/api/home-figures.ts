import { ENDPOINTS, ReadinessResponse } from '@atrium/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client';
import { send } from '../../../lib/http';
import { queryKeys } from '../../../lib/query-keys';

/** The AI services the readiness endpoint reports. */
export const AI_CHECKS = ['ai.speechToText', 'ai.textToSpeech', 'ai.faceDetection', 'ai.imageAnalysis'] as const;

export interface AiReadiness {
  /** How many of the four AI services report ok. */
  ready: number;
  /** How many of the four are registered at all. */
  configured: number;
  total: number;
}

export function summariseAiReadiness(readiness: ReadinessResponse): AiReadiness {
  const present = AI_CHECKS.filter((name) => readiness.checks[name]);
  return {
    ready: present.filter((name) => readiness.checks[name]?.status === 'ok').length,
    configured: present.length,
    total: AI_CHECKS.length,
  };
}

/** GET /readyz answers 503 when something is down: its body still lists every check. */
export const aiReadinessQueryOptions = () =>
  queryOptions({
    queryKey: ['readyz', 'ai'],
    queryFn: async () => {
      const response = await send('/readyz', { headers: { accept: 'application/json' } });
      if (!response.ok && response.status !== 503) throw new Error(`Readiness check failed (${response.status})`);
      return summariseAiReadiness(ReadinessResponse.parse(await response.json()));
    },
  });
export const useAiReadiness = () => useQuery(aiReadinessQueryOptions());

/** GET /api/home: what I reach in every space, recent files, my workspaces, shared with me lately (docs/PRODUCT.md#dashboard-home). */
export const homeQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.home.summary(), queryFn: () => call(ENDPOINTS.home.summary) });
export const useHome = () => useQuery(homeQueryOptions());
