import type { AppConfig } from '../../config/app-config';
import { DeepLTranslationEngine } from './deepl-translation-engine';
import { SandboxTranslationEngine } from './sandbox-translation-engine';
import type { TranslationEngine } from './translation-engine';

export function createTranslationEngine(config: AppConfig['translation']): TranslationEngine {
  return config.engine === 'deepl'
    ? new DeepLTranslationEngine(config.authKey, { serverUrl: config.serverUrl, maxRetries: config.maxRetries })
    : new SandboxTranslationEngine();
}
