import { z } from 'zod';

export const HealthResponse = z.object({ status: z.literal('ok') }).meta({ id: 'HealthResponse' });
export type HealthResponse = z.infer<typeof HealthResponse>;

export const CheckStatus = z.enum(['ok', 'error', 'loading', 'disabled']);
export type CheckStatus = z.infer<typeof CheckStatus>;

export const ReadinessCheck = z.object({
  status: CheckStatus,
  message: z.string().optional(),
  latencyMs: z.number().optional(),
});
export type ReadinessCheck = z.infer<typeof ReadinessCheck>;

export const ReadinessResponse = z
  .object({
    status: z.enum(['ok', 'error']),
    checks: z.record(z.string(), ReadinessCheck),
  })
  .meta({ id: 'ReadinessResponse' });
export type ReadinessResponse = z.infer<typeof ReadinessResponse>;
