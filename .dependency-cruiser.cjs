/**
 * The dependency rules `npm test` checks (lint suite): no import cycles anywhere in TypeScript, and
 * web/src in one-way layers — see ARCHITECTURE.md:
 *
 *   documents  →  compute | engine  →  ui  →  pages  →  app
 *
 * A layer may import the layers before it, never one after it; compute and engine do not import
 * each other; a page never imports another page. The Rust engine's modules are checked by
 * wasm-engine/tests/module_cycles.rs.
 */
const LAYERS = {
  documents: '^web/src/documents/',
  compute: '^web/src/compute/',
  engine: '^web/src/(engine|wasm)/',
  ui: '^web/src/ui/',
  pages: '^web/src/pages/',
  app: '^web/src/(app/|main\\.tsx)',
};

/** Layer `from` must not import any of `to`. */
const above = (name, from, to, comment) => ({
  name,
  severity: 'error',
  comment,
  from: { path: LAYERS[from] },
  to: { path: to.map((l) => LAYERS[l]).join('|') },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: every module in it has to be read to change any one of them.',
      from: {},
      to: { circular: true },
    },
    above('documents-are-the-bottom', 'documents', ['compute', 'engine', 'ui', 'pages', 'app'],
      'documents/ holds the EngineConfig, Workload and Report types, their codecs and links: it imports nothing above it.'),
    {
      name: 'documents-are-pure',
      severity: 'error',
      comment: 'documents/ is plain data and pure functions: no React, no D3.',
      from: { path: LAYERS.documents },
      to: { path: '(^|/)node_modules/(react|react-dom|d3|d3-[a-z-]+|idb)/' },
    },
    above('compute-below-ui', 'compute', ['engine', 'ui', 'pages', 'app'],
      'compute/ (model worker, sweeps) sits on documents/ and @lsm/models only.'),
    above('engine-below-ui', 'engine', ['compute', 'ui', 'pages', 'app'],
      'engine/ (the engine worker and its client) sits on documents/ only.'),
    above('ui-knows-no-page', 'ui', ['pages', 'app'],
      'ui/ is the kit every page uses: it knows no page. Move what a page shares into documents/ or ui/.'),
    above('pages-below-app', 'pages', ['app'], 'Only the app shell knows every page.'),
    {
      name: 'no-page-imports-another',
      severity: 'error',
      comment: 'A page never imports another page: shared parts go to documents/ (state, links, conversions) or ui/.',
      from: { path: '^web/src/pages/([^/]+)/' },
      to: { path: '^web/src/pages/', pathNot: '^web/src/pages/$1/' },
    },
    {
      name: 'models-stand-alone',
      severity: 'error',
      comment: '@lsm/models is pure and knows nothing of the web app.',
      from: { path: '^models/src/' },
      to: { path: '^web/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing.',
      from: { path: '^(web/src|models/src)/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '^web/src/wasm/pkg/' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'], exportsFields: ['exports'], conditionNames: ['import', 'default'] },
  },
};
