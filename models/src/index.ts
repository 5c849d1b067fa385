/**
 * LSM Navigator models: every cost model and optimizer from the five seed papers, as pure
 * functions of plain objects. One file per paper; shared Bloom-filter math in `bloom.ts`.
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
