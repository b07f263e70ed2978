/**
 * The AI module's face: `/api/ai/*` — speech to text, text to speech, face detection, image analysis
 * (docs/PRODUCT.md#ai-services) — for signed-in users, the compatibility routes for API-key clients
 * (`ai-compat.routes.ts`), the assistant's public voice command, and the admin's API keys
 * (docs/PRODUCT.md#admin-console-api-keys-and-messages).
 *
 * `ai.service.ts` runs each request on the provider chosen by configuration (`adapters/ai/`); `ai.input.ts` parses the
 * AI routes' bodies (multipart, or raw bytes) and reads uploads; `ai.routes.ts` maps engine errors (`aiErrorHandler`).
 * A stored file (`?fileId=`, docs/PRODUCT.md#stored-files-on-the-ai-screens) is read through the `FileSource` interface
 * of `file-source.ts`, which the files module implements: the file's read rule, nothing else. `api-keys.*`: table
 * `ai_api_keys` holding only the SHA-256 of each key (`hashApiKey`), an optional expiry (an expired key is treated as
 * missing), create, list and revoke for admins. Each service is a `/readyz` probe (`ai.<service>`).
 */
import type { FastifyInstance } from 'fastify';
import type { AiServiceName } from '@atrium/contracts';
import { createAiProviders } from '../../adapters/ai';
import type { LocalEnginesLoader } from '../../adapters/ai/local-provider';
import type { AiConfig } from '../../config';
import type { Db } from '../../db';
import type { Clock } from '../../lib/time';
import type { ReadinessProbe } from '../health';
import { registerAiCompatRoutes } from './ai-compat.routes';
import { registerAiRoutes } from './ai.routes';
import { createAiService } from './ai.service';
import { createApiKeysRepository } from './api-keys.repository';
import { createApiKeysService } from './api-keys.service';
import type { FileSource } from './file-source';
import type { EventEmitter } from '../../events';

export interface AiModuleDeps {
  config: AiConfig;
  db: Db;
  clock: Clock;
  probes: Map<string, ReadinessProbe>;
  files: FileSource;
  loadLocalEngines: LocalEnginesLoader;
  events: EventEmitter;
}

/**
 * The AI module: providers chosen by configuration, /api/ai/* for users,
 * the Azure/OpenAI compatibility paths for API-key clients, /readyz probes
 * `ai.<service>`, and background warm-up of local models after start-up.
 */
export async function createAiModule(app: FastifyInstance, deps: AiModuleDeps) {
  const providers = createAiProviders(deps.config, deps.loadLocalEngines);
  app.addHook('onClose', async () => providers.close());
  if (deps.config.warmUp) app.addHook('onReady', async () => providers.warmUp());

  for (const service of ['speechToText', 'textToSpeech', 'faceDetection', 'imageAnalysis'] as AiServiceName[]) {
    deps.probes.set(`ai.${service}`, async () => providers[service].state());
  }
  const ai = createAiService({ providers, limits: deps.config.limits });
  const keys = createApiKeysService({ repo: createApiKeysRepository(deps.db), clock: deps.clock });
  await registerAiRoutes(app, {
    ai,
    keys,
    files: deps.files,
    voiceCommandsPerMinute: deps.config.voiceCommandsPerMinute,
    events: deps.events,
  });
  await registerAiCompatRoutes(app, { ai, keys });
  return { ai };
}

// What other modules may use (docs/ARCHITECTURE.md#server-layers: only through this face).
export type { AiService } from './ai.service';
export type { FileSource } from './file-source';
