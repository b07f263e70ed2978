import type { AiConfig } from '../../config';
import type { LocalAiEngines } from './local-provider';

/**
 * Creates the offline engines (`./local`: pocketsphinx, festival or flite + lame,
 * face-api, centernet), each in its own worker pool. Loaded with a dynamic
 * import so a server that uses only remote providers never loads TensorFlow.
 * The server's limits are passed down so both layers agree.
 */
export async function loadLocalEngines(config: AiConfig): Promise<LocalAiEngines> {
  const { createLocalAiEngines } = await import('./local/index');
  const pool = { maxQueue: config.queueLimit, timeoutMs: config.timeoutMs, idleUnloadMs: config.idleUnloadMs };
  const image = { ...pool, maxBytes: config.limits.imageBytes, maxPixels: config.limits.imagePixels };
  const used = (service: keyof AiConfig['providers']) => config.providers[service] === 'local';
  return createLocalAiEngines({
    speechToText: used('speechToText') && {
      ...pool,
      maxBytes: config.limits.audioBytes,
      maxSeconds: config.limits.audioSeconds,
    },
    textToSpeech: used('textToSpeech') && { ...pool, voice: config.localVoice },
    faceDetection: used('faceDetection') && image,
    imageAnalysis: used('imageAnalysis') && image,
  });
}
