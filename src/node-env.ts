/**
 * Imported first by main.ts, before any library reads it: the service runs with NODE_ENV=production unless told
 * otherwise, so graphql-js skips its development-only checks (about 2% of a polled GraphQL request's CPU). Nothing
 * of this service reads NODE_ENV itself. Tests run under jest's NODE_ENV=test and keep the checks.
 */
process.env.NODE_ENV ??= 'production';
