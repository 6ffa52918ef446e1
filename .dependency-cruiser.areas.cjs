// The second dependency-cruiser check of `npm run lint`: the areas of src/domain use each other one way only
// (docs/architecture.md "Which way imports go"). It cruises src/domain alone, each area's queries (*.queries.ts) with
// it: a query is part of the area that answers with it, so an area reading another's rows imports that area.
// Type-only imports count: an area never names a type of an area above it.
'use strict';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles-between-domain-areas',
      comment: 'An area of src/domain may use another only if that one, directly or not, does not use it back.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/domain/[^/]+/?$' },
      to: { path: '^src/domain/[^/]+/?$', circular: true },
    },
  ],
  options: {
    includeOnly: '^src/domain/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
