import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../src/db/paths';

/**
 * README "Operations" names every periodic task with its schedule, as src/workers.ts registers them (D37): a task
 * added, dropped or moved to another schedule fails here until the README says so.
 */
const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');

/** Each `queue.every('<name>', '<cron>', ...)` of the job wiring, as `<name> <cron>`. */
function registered(): string[] {
  return [...read('src/workers.ts').matchAll(/queue\.every\(\s*'([^']+)',\s*'([^']+)'/g)].map(
    ([, name, cron]) => `${name} ${cron}`,
  );
}

/** Each `` `<name>` (`<cron>`) `` of the README's bullet on periodic tasks, as `<name> <cron>`. */
function documented(): string[] {
  const readme = read('README.md');
  const start = readme.indexOf('\n- Periodic tasks are ');
  const bullet = readme.slice(start, readme.indexOf('\n- ', start + 1));
  return [...bullet.matchAll(/`([a-z-]+)` \(`([^`]+)`\)/g)].map(([, name, cron]) => `${name} ${cron}`);
}

it('lists in README "Operations" every periodic task src/workers.ts schedules, with its schedule', () => {
  expect(registered()).toContain('document-retention 17 3 * * *');
  expect(documented().sort()).toEqual(registered().sort());
});
