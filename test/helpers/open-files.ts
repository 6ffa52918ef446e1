import { readdirSync, readlinkSync } from 'node:fs';

/** What this process's descriptors are open on (Linux): paths, a removed file's ending in ` (deleted)`. */
export const openFiles = (): string[] =>
  readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      return [readlinkSync(`/proc/self/fd/${fd}`)];
    } catch {
      return []; // the descriptor of the listing itself, closed by now
    }
  });
