import type { RateLimitState } from '../../domain/rate-limits/rate-limit.service';

/** Where a caller stands in its budget (D16), the same on both doors (D24). */
export const rateLimitHeaders = (state: Pick<RateLimitState, 'limit' | 'remaining'>): Record<string, string> => ({
  'X-RateLimit-Limit': String(state.limit),
  'X-RateLimit-Remaining': String(state.remaining),
});
