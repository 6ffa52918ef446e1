// ESLint, one of the three checks of `npm run lint` (README "Development"): typescript-eslint's recommended rules
// with type information, for the bugs a type check lets through (a promise nobody awaits or handles, a promise
// where a callback is expected, `any` leaking into typed code, an API marked deprecated). Layout is Prettier's:
// eslint-config-prettier, last, turns off every rule that would disagree with it.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', '.cache/', '.data/', 'coverage/', 'test/graphql/generated.ts', 'src/web/shared/gql/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // An `async` method with no `await` is how a port's promise-returning method is written when this
      // implementation has nothing to wait for; dropping `async`, as the rule asks, would turn its throws into
      // synchronous ones.
      '@typescript-eslint/require-await': 'off',
      // `require()` is how a factory loads a large SDK only when the configuration chooses it (docs/architecture.md,
      // "Which way imports go"); each is typed with `typeof import(...)`.
      '@typescript-eslint/no-require-imports': 'off',
      // `_` marks a parameter a signature needs but the body does not (as for tsc's noUnusedParameters); a rest
      // sibling is how a property is left out of a copy.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Passing on a caught error as it is (of type `unknown`) is fine; rejecting with `null` is not.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // `return promise` inside `try` skips the `catch` and the `finally` runs too early.
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      // A new member of a union (a status, an actor kind) must be handled by every switch without a default.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // What is deprecated now is what the next major release removes (README: MikroORM 7, graphql 17).
      '@typescript-eslint/no-deprecated': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // The schema is built without type-graphql's checker (src/api/graphql/authorized.ts): its `@Authorized` on a
      // class would guard nothing.
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'type-graphql',
              importNames: ['Authorized'],
              message: "Use src/api/graphql/authorized.ts's Authorized: the schema runs that one's checker.",
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read JSON answers, typed `any` by supertest, and assert on them with `expect`; the OpenAPI validator
    // checks every REST answer's shape (test/helpers/openapi-validator.ts). The helpers stay typed, and so do the
    // query tests (test/db): there rows have a type, and a file using `expect.any()` and its kin (typed `any` by
    // @types/jest) imports the typed `expect` of @jest/globals.
    files: ['test/e2e/**', 'test/unit/**'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The build script and the tools' configurations: plain Node.js, outside the TypeScript project.
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', __dirname: 'readonly' } },
  },
  { files: ['**/*.js', '**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  prettier,
);
