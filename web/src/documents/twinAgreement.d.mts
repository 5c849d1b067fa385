/**
 * Types of twinAgreement.mjs (the twin's figure table and agreement rule; see there). Structural,
 * importing nothing: the e2e suite's type check reads this file without the web app's Vite types.
 * rocksdbTwin.ts's TwinFigures is one FigureSide.
 */

/** A figure the table compares (a key of TwinFigures). */
export type ScalarFigure =
  | 'dataBlocksPerLookup'
  | 'dataBlocksPerScan'
  | 'filtersPerLookup'
  | 'metadataBlocksPerLookup'
  | 'cacheHitRate'
  | 'bytesWrittenPerUserByte'
  | 'entriesWrittenPerWrite';
export type AgreementBar = 'relative' | 'absolute';
export type Phase = 'run' | 'load';
/** What `figureListed` reads of one side: its operation counts and its figures. */
export type FigureSide = { lookups: number; scans: number; writes: number } & Partial<Record<ScalarFigure, number>>;

export declare const RELATIVE_BAR: number;
export declare const ABSOLUTE_BELOW: number;
export declare const ABSOLUTE_BAR: number;
export declare function agreementBar(engine: number, rocksdb: number): AgreementBar;
export declare function figuresAgree(engine: number, rocksdb: number): boolean;
export declare const TWIN_FIGURES: readonly (readonly [ScalarFigure, string])[];
export declare const WRITE_FIGURES: readonly ScalarFigure[];
export declare function figureListed(key: ScalarFigure, phase: Phase, engine: FigureSide, rocksdb: FigureSide): boolean;
