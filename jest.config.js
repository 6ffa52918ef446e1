/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': 'ts-jest' },
  setupFiles: ['reflect-metadata'],
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  reporters: ['default', '<rootDir>/test/helpers/summary-reporter.js'],
  testTimeout: 60000,
  // Jest reads this before the global setup makes the run's temporary root, so it cannot live there: a folder of
  // the checkout (ignored by git) instead of the system temp dir, kept between runs for its transforms.
  cacheDirectory: '<rootDir>/.cache/jest',
  // One worker more than this machine's two cores: a good part of each file's time is spent waiting on PostgreSQL,
  // a service child process or an analysis child, and a third file fills it (measured: 208 s with 2, 168 s with 3, 177 s with 4).
  maxWorkers: 3,
  // Under --experimental-vm-modules (for the import() of pg-boss and unpdf) jest's runtime keeps every test file's
  // module graph alive (jestjs/jest#14605): a worker ended the run with 1.3 GB of heap and took 600-900 ms to exit,
  // past the 500 ms jest waits, hence "A worker process has failed to exit gracefully". A worker past this after a
  // file is replaced by a fresh one (measured: exits in about 200 ms).
  workerIdleMemoryLimit: '512MB',
};
