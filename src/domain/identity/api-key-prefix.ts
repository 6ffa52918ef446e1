import type { AppEnv } from '../../config/app-config';

/** Sandbox keys start ltk_test_, production keys ltk_live_; each works only on its own deployment (D1). */
export const apiKeyPrefix = (env: AppEnv): string => (env === 'production' ? 'ltk_live_' : 'ltk_test_');

export const STAFF_TOKEN_PREFIX = 'ltk_staff_';
