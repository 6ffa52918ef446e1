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
};
