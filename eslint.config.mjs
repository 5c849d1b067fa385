// ESLint for the TypeScript of web/, models/, e2e/ and the scripts: typescript-eslint's
// recommended rules, and React's two rules of hooks (hooks called unconditionally, effects that
// name what they read). `npm test`'s lint suite runs it with no warning allowed.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'web/src/wasm/**', 'wasm-engine/**', '.cache/**', 'public/**', 'interop/**/build/**'],
  },
  // A disable comment that no longer suppresses anything is an error too: exceptions stay true.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['web/src/**/*.{ts,tsx}', 'web/test/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    rules: {
      // TypeScript's own checks (tsc --strict) find undefined names, with the right globals per file.
      'no-undef': 'off',
    },
  },
);
