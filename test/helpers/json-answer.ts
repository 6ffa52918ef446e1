/**
 * A JSON answer as a test reads it: of any shape, because the test asserts on it with `expect`, and every REST
 * answer has already been checked against the OpenAPI document (openapi-validator.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the helpers' one way to hand a test untyped JSON
export type JsonAnswer = any;
