import type { AiConfig } from '../../config';
import type { LocalAiEngines } from './local';

/**
 * Loads the offline engines (./local). Until they are part of this build the
 * local services answer 503 with this message.
 */
export async function loadLocalEngines(_config: AiConfig): Promise<LocalAiEngines> {
  const error = new Error('the local AI engines are not included in this build');
  throw Object.assign(error, { code: 'ENGINE_UNAVAILABLE' });
}
