import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../src/db/paths';

/**
 * Install scripts run only where package.json's `allowScripts` says (README "Development": dependencies): every
 * package of the lock file that has one is named there, allowed or refused, so a new dependency's script (or a new
 * version's) cannot run, or be blocked, unreviewed.
 */
const read = (file: string) => JSON.parse(readFileSync(join(REPO_ROOT, file), 'utf8'));

/** The lock file's packages with an install script, each as `name@version`. */
function withInstallScripts(): string[] {
  const { packages } = read('package-lock.json') as {
    packages: Record<string, { name?: string; version: string; hasInstallScript?: boolean }>;
  };
  return Object.entries(packages)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(
      ([path, entry]) =>
        `${entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${entry.version}`,
    );
}

/** Whether an `allowScripts` key (a name, or a name pinned to a version) names `name@version`. */
const names = (key: string, nameAtVersion: string) =>
  key === nameAtVersion || key === nameAtVersion.slice(0, nameAtVersion.lastIndexOf('@'));

it('names in allowScripts every locked package that has an install script', () => {
  const decided = Object.keys(read('package.json').allowScripts as Record<string, boolean>);
  const scripted = withInstallScripts();
  // The lock is read as npm writes it: esbuild, a dev dependency, has one.
  expect(scripted).toContain(`esbuild@${read('package.json').devDependencies.esbuild}`);
  expect(scripted.filter((pkg) => !decided.some((key) => names(key, pkg)))).toEqual([]);
});
