import { createContext, useContext } from 'react';

/** What a card inside a page needs to name its exports: the page and its encoded state. */
export interface PageInfo {
  page: string;
  query: string;
}

export const PageContext = createContext<PageInfo>({ page: 'page', query: '' });

export function usePageInfo(): PageInfo {
  return useContext(PageContext);
}
