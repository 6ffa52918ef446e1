import type { AppConfig } from '../../config/app-config';
import type { DocumentSandbox } from '../../documents/sandbox/document-sandbox';
import { SandboxTranslationEngine } from './sandbox-translation-engine';
import type { EngineLanguageSource, TranslationEngine } from './translation-engine';

/**
 * The configured engine; DeepL's client (and the HTTP stack under it) is loaded only when chosen. The sandbox
 * engine parses the client's document, so it works through the document sandbox.
 */
export function createTranslationEngine(
  config: AppConfig['translation'],
  documents: DocumentSandbox,
): TranslationEngine & EngineLanguageSource {
  if (config.engine !== 'deepl') return new SandboxTranslationEngine(documents);
  const { DeepLTranslationEngine } =
    require('./deepl-translation-engine') as typeof import('./deepl-translation-engine');
  return new DeepLTranslationEngine(config.authKey, { serverUrl: config.serverUrl, maxRetries: config.maxRetries });
}
