import type { ZipLimits } from './zip-rewrite';

/**
 * What any work on a client's document may unpack or walk (D25), whether it counts, translates or stamps it: the
 * structure's limits. Time and the process's whole memory are bounded around the work by the document sandbox.
 */
export const DOCUMENT_LIMITS: { maxPdfPages: number; zip: ZipLimits } = {
  maxPdfPages: 2000,
  zip: { maxEntries: 10_000, maxUnpackedBytes: 512 * 1024 * 1024, maxCompressionRatio: 200 },
};
