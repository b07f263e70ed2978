import { ReadinessResponse, UserFileStats } from '@atrium/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, isApiError } from '../../../lib/api-client';

/** The user's file statistics, or null while the files service is not available (404). */
export const fileStatsQueryOptions = (ownerKey: string) =>
  queryOptions({
    queryKey: ['files', 'user-stats', ownerKey],
    queryFn: async () => {
      try {
        return await api.get(UserFileStats, `/api/files/user-stats/${encodeURIComponent(ownerKey)}`);
      } catch (error) {
        if (isApiError(error) && error.status === 404) return null;
        throw error;
      }
    },
  });
export const useFileStats = (ownerKey: string) => useQuery(fileStatsQueryOptions(ownerKey));

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
      const response = await fetch('/readyz', { headers: { accept: 'application/json' } });
      if (!response.ok && response.status !== 503) throw new Error(`Readiness check failed (${response.status})`);
      return summariseAiReadiness(ReadinessResponse.parse(await response.json()));
    },
  });
export const useAiReadiness = () => useQuery(aiReadinessQueryOptions());
