/**
 * LSM Navigator models: every cost model and optimizer from the five seed papers, as pure
 * functions of plain objects. One module per paper: `monkey*.ts`, `shamba.ts`, and the folders
 * `moose/`, `msls/`, `mnemosyne/` (each `index.ts` maps its files); shared Bloom-filter math in `bloom.ts`.
 */
export * from './validate';
export * from './bloom';
export * from './types';
export * from './mnemosyne';
export * from './shamba';
export * from './msls';
export * from './monkey';
export * from './monkey-closed-form';
export * from './monkey-holistic';
export * from './moose';
export * from './random';
export * from './leveled-growth';
