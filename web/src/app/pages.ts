/**
 * Each route's page component, loaded on first visit so each page is its own chunk. The app shell
 * is the only place that knows every page; pages never import one another.
 */
import type { ComponentType } from 'react';
import type { Route } from '../documents/routes';

export const PAGE_LOADERS: Record<Route['path'], () => Promise<ComponentType>> = {
  learn: () => import('../pages/learn/LearnPage').then((m) => m.LearnPage),
  teach: () => import('../pages/teaching/TeachingPage').then((m) => m.TeachingPage),
  monkey: () => import('../pages/monkey/MonkeyPage').then((m) => m.MonkeyPage),
  tradeoffs: () => import('../pages/tradeoffs/TradeoffsPage').then((m) => m.TradeoffsPage),
  moose: () => import('../pages/moose/MoosePage').then((m) => m.MoosePage),
  memory: () => import('../pages/memory/MemoryPage').then((m) => m.MemoryPage),
  msls: () => import('../pages/msls/MslsPage').then((m) => m.MslsPage),
  tune: () => import('../pages/tune/TunePage').then((m) => m.TunePage),
  lab: () => import('../pages/lab/LabPage').then((m) => m.LabPage),
  export: () => import('../pages/export/ExportPage').then((m) => m.ExportPage),
  bench: () => import('../pages/bench/BenchPage').then((m) => m.BenchPage),
};
