import { z } from 'zod';
import { aiEnv } from './ai';
import { authEnv } from './auth';
import { llmEnv } from './llm';
import { notificationsEnv } from './notifications';
import { peopleEnv } from './people';
import { retentionEnv } from './retention';
import { endpointsEnv, requestEnv, serverEnv } from './server';
import { storageEnv, uploadsEnv } from './storage';

/**
 * Every environment variable the server reads, with its description. Unknown variables are ignored. The order of
 * the parts is the order of README.md's configuration table (config-docs.ts).
 */
export const EnvSchema = z.object({
  ...serverEnv,
  ...authEnv,
  ...peopleEnv,
  ...uploadsEnv,
  ...requestEnv,
  ...storageEnv,
  ...aiEnv,
  ...llmEnv,
  ...notificationsEnv,
  ...retentionEnv,
  ...endpointsEnv,
});
