// dependency-cruiser, one of the checks of `npm run lint` (README "Development"): the rules of
// docs/architecture.md "Which way imports go" (the areas of the domain: .dependency-cruiser.areas.cjs), each named for what it keeps true. Type-only imports are seen too
// (tsPreCompilationDeps), so a rule can allow a port as a type and refuse it as a value.
'use strict';

const DOORS = '^src/api/';
/** Everything below the doors: the composition root and the workers' wiring included. */
const BELOW_THE_DOORS = '^src/(domain|providers|shared|documents|db|jobs|config)/|^src/(services|workers)[.]ts$';
/** The ports the domain may name, as types: the interfaces (and their value types) of each provider kind. */
const PORTS = [
  '^src/providers/mail/mailer[.]ts$',
  '^src/providers/payment/payment-provider[.]ts$',
  '^src/providers/storage/file-storage[.]ts$',
  '^src/providers/translation/translation-engine[.]ts$',
  '^src/providers/translation/language-support[.]ts$',
  '^src/providers/signing/pdf-signer[.]ts$',
];
const TYPES_ONLY = ['type-only', 'type-import', 'pre-compilation-only'];

/**
 * Imports that break a rule today, each one of docs/architecture.md's "Known debts": [importer, imported]. The rule
 * holds for every other import of the importer. Remove an entry when its debt is paid.
 */
const KNOWN_DEBTS = {
  'doors-never-import-providers': [
    ['^src/api/rest/openapi/examples[.]ts$', '^src/providers/translation/deepl-language-lists[.]ts$'],
  ],
};

const asList = (value) => (value === undefined ? [] : [value].flat());

/** A rule, and for each known debt of it the same rule for the importer alone, less the one import it owes. */
function withKnownDebts(rule) {
  const debts = KNOWN_DEBTS[rule.name] ?? [];
  return [
    { ...rule, from: { ...rule.from, pathNot: [...asList(rule.from.pathNot), ...debts.map(([from]) => from)] } },
    ...debts.map(([from, to]) => ({
      ...rule,
      from: { ...rule.from, path: from },
      to: { ...rule.to, pathNot: [...asList(rule.to.pathNot), to] },
    })),
  ];
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'doors-never-import-providers',
      comment: 'A door reaches a provider through a domain service, never directly.',
      severity: 'error',
      from: { path: DOORS },
      to: { path: '^src/providers/' },
    },
    {
      name: 'doors-import-db-in-four-places',
      comment:
        'Only /readyz (checkReadiness), /metrics (poolUse) and the schema:emit and lint:openapi scripts (REPO_ROOT) read db/.',
      severity: 'error',
      from: {
        path: DOORS,
        pathNot: [
          '^src/api/ops/ops[.]routes[.]ts$',
          '^src/api/http/metrics[.]ts$',
          '^src/api/graphql/schema-file[.]ts$',
          '^src/api/rest/openapi/lint[.]ts$',
        ],
      },
      to: { path: '^src/db/' },
    },
    {
      name: 'doors-read-only-readiness-and-paths-of-db',
      comment: 'The doors that read db/ take checkReadiness() (migrations.ts) or REPO_ROOT (paths.ts) only.',
      severity: 'error',
      from: { path: DOORS, pathNot: '^src/api/http/metrics[.]ts$' },
      to: { path: '^src/db/', pathNot: '^src/db/(migrations|paths)[.]ts$' },
    },
    {
      name: 'metrics-read-only-the-pool-of-db',
      comment: "The metrics read the ORM pool's use through poolUse() (orm-driver.ts), nothing else of db/.",
      severity: 'error',
      from: { path: '^src/api/http/metrics[.]ts$' },
      to: { path: '^src/db/', pathNot: '^src/db/orm-driver[.]ts$' },
    },
    {
      name: 'nothing-below-the-doors-imports-a-door',
      severity: 'error',
      from: { path: BELOW_THE_DOORS },
      to: { path: DOORS },
    },
    {
      name: 'domain-writes-sql-in-its-queries-only',
      comment:
        "An area's hand-written SQL is its *.queries.ts files, which reach the database through the ORM driver " +
        '(orm-driver.ts, entity-columns.ts) alone; every other file of the domain uses the EntityManager.',
      severity: 'error',
      from: { path: '^src/domain/', pathNot: '[.]queries[.]ts$' },
      to: { path: '^src/db/' },
    },
    {
      name: 'queries-reach-the-database-through-the-driver',
      comment: 'MikroORM 7 (kysely for knex) then changes the driver, not the queries (docs/architecture.md "Layers").',
      severity: 'error',
      from: { path: '[.]queries[.]ts$' },
      to: { path: '^src/db/', pathNot: '^src/db/(orm-driver|entity-columns)[.]ts$' },
    },
    {
      name: 'domain-never-imports-a-provider-implementation',
      comment: 'The domain names the ports, never an implementation or a factory.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/providers/', pathNot: PORTS },
    },
    {
      name: 'domain-imports-ports-as-types',
      comment: 'A port is a type to the domain: the implementation arrives as a constructor argument.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/providers/', dependencyTypesNot: TYPES_ONLY },
    },
    {
      name: 'domain-imports-the-job-queue-as-a-type',
      comment: 'The JobQueue arrives as a constructor argument; pg-boss stays behind it.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/jobs/', dependencyTypesNot: TYPES_ONLY },
    },
    {
      name: 'domain-imports-config-types',
      comment: 'Settings arrive through src/services.ts; the domain never loads the configuration.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/config/', dependencyTypesNot: TYPES_ONLY },
    },
    {
      name: 'providers-import-only-ports-config-shared-documents',
      comment: 'A provider knows its port, config types, src/shared and src/documents; never the domain, db/ or jobs/.',
      severity: 'error',
      from: { path: '^src/providers/' },
      to: { path: '^src/', pathNot: '^src/(providers|config|shared|documents)/' },
    },
    {
      name: 'only-the-composition-root-chooses-implementations',
      comment: 'src/services.ts alone calls the create-*.ts factories.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/services[.]ts$' },
      to: { path: '^src/providers/[^/]+/create-[^/]+[.]ts$' },
    },
    {
      name: 'shared-imports-nothing-of-ours',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/', pathNot: '^src/shared/' },
    },
    {
      name: 'documents-import-only-shared',
      severity: 'error',
      from: { path: '^src/documents/' },
      to: { path: '^src/', pathNot: '^src/(documents|shared)/' },
    },
    {
      name: 'jobs-know-nothing-of-the-domain',
      comment: 'src/workers.ts maps job names to service methods; src/jobs/ knows pg-boss only.',
      severity: 'error',
      from: { path: '^src/jobs/' },
      to: { path: '^src/domain/' },
    },
    {
      name: 'browser-apps-import-only-web',
      comment: 'The browser applications (src/web/) speak to the service through GraphQL only, never by importing it.',
      severity: 'error',
      from: { path: '^src/web/' },
      to: { path: '^src/', pathNot: '^src/web/' },
    },
    {
      name: 'the-service-never-imports-a-browser-app',
      comment: 'The service serves the built bundles from dist/web; it never loads their sources.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/web/' },
      to: { path: '^src/web/' },
    },
    {
      name: 'db-names-the-domain-in-its-entity-list-only',
      comment:
        'src/db/ is the ORM and its driver: it hands the entities to MikroORM (entities.ts) and knows nothing else of ' +
        'the domain, whose areas own their queries.',
      severity: 'error',
      from: { path: '^src/db/', pathNot: '^src/db/entities[.]ts$' },
      to: { path: '^src/domain/' },
    },
    {
      name: 'queries-read-the-model-only',
      comment:
        'A query names the entities, read types, transition tables and constants it answers with, other queries and ' +
        "domain/shared; never a service, so reading a row carries no area's services along.",
      severity: 'error',
      from: { path: '[.]queries[.]ts$' },
      to: {
        path: '^src/domain/',
        pathNot: [
          '[.]entity[.]ts$',
          '-read[.]ts$',
          '[.]states[.]ts$',
          '[.]queries[.]ts$',
          '^src/domain/shared/',
          '^src/domain/sign-in/session-lifetime[.]ts$',
        ],
      },
    },
  ].flatMap(withKnownDebts),
  options: {
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
