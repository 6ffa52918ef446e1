import type { AppConfig } from '../../config/app-config';
import { SandboxTranslationEngine } from './sandbox-translation-engine';
import type { TranslationEngine } from './translation-engine';

/** The configured engine; DeepL's client (and the HTTP stack under it) is loaded only when chosen. */
export function createTranslationEngine(config: AppConfig['translation']): TranslationEngine {
  if (config.engine !== 'deepl') return new SandboxTranslationEngine();
  const { DeepLTranslationEngine } = require('./deepl-translation-engine') as typeof import('./deepl-translation-engine');
  return new DeepLTranslationEngine(config.authKey, { serverUrl: config.serverUrl, maxRetries: config.maxRetries });
}
