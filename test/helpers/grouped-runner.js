'use strict';
/**
 * The end-to-end layer's jest runner (docs/architecture.md "Tests"): jest's own runner, handed groups of test files
 * instead of single files, so that one module registry serves a whole group. Each file's registry cost about 4 s of
 * CPU before its first test (some 2,000 modules evaluated, the GraphQL schema built, the OpenAPI validator compiled);
 * the tests themselves are cheap. A group is one generated file that requires each member inside a `describe` named
 * after it, so a member's top-level hooks stay scoped to its own tests, run before the next member starts; the
 * group's result is split back into one result per member, so reporters, the timings jest keeps for the next run and
 * the exit code see the real files. A run of a few files (no more than the workers) is not grouped at all. Every
 * layer uses this runner, so that jest gives all of them one pool of workers rather than one runner after the other.
 */
const { mkdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const TestRunner = require('jest-runner').default;
const { formatExecError, formatResultsErrors } = require('jest-message-util');
const { createEmptyTestResult } = require('@jest/test-result');

/**
 * About this many files share a registry: enough that the fixed cost is paid a few times per worker, few enough
 * that the longest-first balancing below keeps the three workers busy to the end.
 */
const FILES_PER_GROUP = 6;
/**
 * A file that matches snapshots (some query tests of `db` keep their SQL so) runs alone: jest keeps snapshots per test
 * file, and a group file would neither find them nor fail for want of them.
 */
const keepsSnapshots = (test) => readFileSync(test.path, 'utf8').includes('Snapshot(');
/**
 * Each file's time (ms) in a whole run, for a checkout whose jest kept no timings yet (a clean clone, as CI runs):
 * without them every file would count the same, and the groups would be as uneven as the files. `npm run
 * test:durations` records them again from the timings jest kept.
 */
const RECORDED_DURATIONS = require('../file-durations.json');
/** A file with neither counts as this long (ms), about an average end-to-end file. */
const UNKNOWN_DURATION = 20_000;

class GroupedRunner {
  constructor(globalConfig, context) {
    this._globalConfig = globalConfig;
    this._inner = new TestRunner(globalConfig, context);
    this._listeners = new Map();
    this.supportsEventEmitters = true;
  }

  on(event, listener) {
    if (!this._listeners.has(event)) this._listeners.set(event, new Set());
    this._listeners.get(event).add(listener);
    return () => this._listeners.get(event).delete(listener);
  }

  async _emit(event, payload) {
    for (const listener of this._listeners.get(event) ?? []) await listener(payload);
  }

  async runTests(tests, watcher, options) {
    const groups = group(tests, this._globalConfig.maxWorkers);
    const dir = join(tests[0].context.config.rootDir, '.cache', 'jest-groups', String(process.pid));
    const byPath = new Map();
    const runnable = groups.map((members, index) => {
      if (members.length === 1) return members[0];
      const path = join(dir, `group-${index + 1}.test.js`);
      writeGroupFile(path, members);
      byPath.set(path, members);
      return { ...members[0], path, duration: undefined };
    });
    const membersOf = (test) => byPath.get(test.path) ?? [test];
    // When each member's last test ended: its time is from the end of the member before it, so its hooks (a browser
    // launched, a service started) count as its own, as they do for a file run alone.
    const lastEnded = new Map();

    this._inner.on('test-file-start', async ([test]) => {
      for (const member of membersOf(test)) await this._emit('test-file-start', [member]);
    });
    this._inner.on('test-file-success', async ([test, result]) => {
      const members = membersOf(test);
      const split = members.length === 1 ? [result] : splitResult(result, members, lastEnded, this._globalConfig);
      for (const [i, member] of members.entries()) await this._emit('test-file-success', [member, split[i]]);
    });
    this._inner.on('test-file-failure', async ([test, error]) => {
      for (const member of membersOf(test)) await this._emit('test-file-failure', [member, error]);
    });
    for (const event of ['test-case-start', 'test-case-result']) {
      this._inner.on(event, ([path, info]) => {
        const members = byPath.get(path);
        if (!members) return this._emit(event, [path, info]);
        const { member, ancestorTitles } = memberOf(info.ancestorTitles, members);
        if (event === 'test-case-result') lastEnded.set(member, Date.now());
        return this._emit(event, [member.path, { ...info, ancestorTitles, fullName: fullName(ancestorTitles, info) }]);
      });
    }
    try {
      await this._inner.runTests(runnable, watcher, options);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/**
 * Each layer's files in groups of their own (a group runs in one layer's configuration), a file that keeps snapshots
 * alone; within a layer longest first, each file into the group with the least time so far
 * (by the timings jest kept from the last run, else those recorded); then every group and ungrouped file in one list, longest first, for
 * one pool of workers: the long files (browsers, races) are spread, and the run ends on short ones.
 */
function group(tests, workers) {
  const duration = (test) => test.duration ?? RECORDED_DURATIONS[titleOf(test)] ?? UNKNOWN_DURATION;
  const layers = new Map();
  for (const test of tests) {
    const layer = test.context.config.displayName?.name;
    const key = tests.length > workers && !keepsSnapshots(test) ? layer : test.path;
    layers.set(key, [...(layers.get(key) ?? []), test]);
  }
  const groups = [];
  for (const files of layers.values()) {
    const count = Math.max(Math.ceil(files.length / FILES_PER_GROUP), Math.min(workers, files.length));
    const layerGroups = Array.from({ length: count }, () => ({ members: [], total: 0 }));
    for (const test of [...files].sort((a, b) => duration(b) - duration(a))) {
      const least = layerGroups.reduce((a, b) => (b.total < a.total ? b : a));
      least.members.push(test);
      least.total += duration(test);
    }
    groups.push(...layerGroups);
  }
  return groups.sort((a, b) => b.total - a.total).map((g) => g.members);
}

/** The member's name as the group's outer describe: its path from the root, as jest prints it. */
const titleOf = (test) => relative(test.context.config.rootDir, test.path);

function writeGroupFile(path, members) {
  mkdirSync(join(path, '..'), { recursive: true });
  const body = members
    .map(
      (test) => `describe(${JSON.stringify(titleOf(test))}, () => {\n  require(${JSON.stringify(test.path)});\n});\n`,
    )
    .join('');
  writeFileSync(path, `// Generated by test/helpers/grouped-runner.js for one run.\n${body}`);
}

function memberOf(titles, members) {
  const [outer, ...ancestorTitles] = titles;
  const member = members.find((test) => titleOf(test) === outer);
  if (!member) throw new Error(`grouped-runner: a result outside any member (${titles.join(' > ')})`);
  return { member, ancestorTitles };
}

const fullName = (ancestorTitles, assertion) => [...ancestorTitles, assertion.title].join(' ');

/**
 * One result per member, from the group's: each member's own test results (its outer describe taken off), counts,
 * failure message and time (from the end of the member before it, the group's start for the first, to the end of its
 * own last test, the group's end for the last; `lastEnded` by member). An error outside any test (an afterAll that
 * threw, a member that failed to load) goes to the members its stack names, or to every member when it names none, so
 * that it fails the run either way.
 */
function splitResult(result, members, lastEnded, globalConfig) {
  const own = new Map(members.map((test) => [test, []]));
  const stack = result.testExecError?.stack ?? '';
  const named = members.filter((test) => stack.includes(titleOf(test)));
  const carriesError = (test) => result.testExecError !== undefined && (named.length === 0 || named.includes(test));
  for (const assertion of result.testResults) {
    const { member, ancestorTitles } = memberOf(assertion.ancestorTitles, members);
    own.get(member).push({ ...assertion, ancestorTitles, fullName: fullName(ancestorTitles, assertion) });
  }
  let ended = result.perfStats.start;
  return members.map((test, index) => {
    const assertions = own.get(test);
    const from = ended;
    ended = index === members.length - 1 ? result.perfStats.end : Math.max(from, lastEnded.get(test) ?? from);
    const runtime = ended - from;
    const count = (status) => assertions.filter((a) => a.status === status).length;
    const config = test.context.config;
    const failures = formatResultsErrors(assertions, config, globalConfig, test.path);
    const execError = carriesError(test) ? `\n\n${formatExecError(result.testExecError, config, globalConfig)}` : '';
    return {
      ...createEmptyTestResult(),
      ...(index === 0 ? { console: result.console, snapshot: result.snapshot } : {}),
      displayName: result.displayName,
      failureMessage: failures || execError ? `${failures ?? ''}${execError}` : null,
      leaks: result.leaks,
      memoryUsage: result.memoryUsage,
      numFailingTests: count('failed'),
      numPassingTests: count('passed'),
      numPendingTests: count('pending'),
      numTodoTests: count('todo'),
      perfStats: { ...result.perfStats, runtime, slow: runtime / 1000 > config.slowTestThreshold },
      testExecError: carriesError(test) ? result.testExecError : undefined,
      testFilePath: test.path,
      testResults: assertions,
    };
  });
}

module.exports = GroupedRunner;
