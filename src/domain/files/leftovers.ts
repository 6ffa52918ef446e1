import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from '../../shared/logger';
import type { FilesService } from './files.service';
import { removeDeadProcessTempDirs, removeStaleTempFiles } from './temp-files';

/**
 * What killed processes left (D25): their temporary folders and stored bytes no row claims (their intents), found
 * through ProcessClaim; loose temporary files of older versions once past STALE_AFTER_MS. A failure is logged only.
 */
export class Leftovers {
  private readonly liveIds = () => this.liveProcesses(this.em);

  constructor(
    private readonly em: EntityManager,
    private readonly files: FilesService,
    private readonly tempRoot: string,
    private readonly logger: Logger,
    /** The processes alive now on any machine (D25), handed in by the entry point: it reads `src/db/`. */
    private readonly liveProcesses: (em: EntityManager) => Promise<Set<number>>,
  ) {}

  async removeTempFiles(): Promise<void> {
    try {
      const removed = [
        ...(await removeDeadProcessTempDirs(this.tempRoot, this.liveIds)),
        ...(await removeStaleTempFiles(this.tempRoot)),
      ];
      if (removed.length) this.logger.info({ files: removed }, 'removed stale temporary files');
    } catch (error) {
      this.logger.warn({ err: error }, 'stale temporary files not removed');
    }
  }

  async removeStoredBytes(): Promise<void> {
    try {
      const { removed, clearedIntents } = await this.files.sweepStorage(this.em, this.liveIds);
      this.logger.info({ removed_keys: removed, cleared_intents: clearedIntents }, 'swept stored bytes no file claims');
    } catch (error) {
      this.logger.warn({ err: error }, 'stored bytes not swept');
    }
  }
}
