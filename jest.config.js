/**
 * The layers of docs/architecture.md "Tests", one `npm test` for all of them; `npx jest --selectProjects unit` runs
 * one. `unit`: no database, so its setup only makes the run's temporary root. `db`: the queries and the migrations
 * against PostgreSQL, without HTTP. `service`: the services as the composition root builds them, without the doors
 * (test/helpers/test-services.ts). `e2e`: the service through its doors (and its processes, browsers, stand-ins).
 */
const layer = (name, options) => ({
  displayName: name,
  testEnvironment: 'node',
  roots: [`<rootDir>/test/${name}`],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': 'ts-jest' },
  setupFiles: ['reflect-metadata'],
  // One teardown for every layer (jest runs each module once): it removes what any of the setups made.
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  // Jest reads this before the global setup makes the run's temporary root, so it cannot live there: a folder of
  // the checkout (ignored by git) instead of the system temp dir, kept between runs for its transforms.
  cacheDirectory: '<rootDir>/.cache/jest',
  // Groups of files of one layer share a module registry; one runner for all, so one pool of workers.
  runner: '<rootDir>/test/helpers/grouped-runner.js',
  ...options,
});

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    layer('unit', { globalSetup: '<rootDir>/test/helpers/run-setup.ts' }),
    layer('db', { globalSetup: '<rootDir>/test/helpers/global-setup.ts' }),
    layer('service', { globalSetup: '<rootDir>/test/helpers/global-setup.ts' }),
    layer('e2e', { globalSetup: '<rootDir>/test/helpers/global-setup.ts' }),
  ],
  reporters: ['default', '<rootDir>/test/helpers/summary-reporter.js'],
  testTimeout: 60000,
  // One worker more than this machine's two cores: a good part of each file's time is spent waiting on PostgreSQL,
  // a service child process or an analysis child, and a third file fills it (measured: 208 s with 2, 168 s with 3, 177 s with 4).
  maxWorkers: 3,
  // Under --experimental-vm-modules (for the import() of pg-boss and unpdf) jest's runtime keeps every test file's
  // module graph alive (jestjs/jest#14605): a worker ended the run with 1.3 GB of heap and took 600-900 ms to exit,
  // past the 500 ms jest waits, hence "A worker process has failed to exit gracefully". A worker past this after a
  // file is replaced by a fresh one (measured: exits in about 200 ms).
  workerIdleMemoryLimit: '512MB',
};
