/**
 * The "Data set" group of a page's controls: entries, entry size and page size (plus whatever the
 * page adds, e.g. a write buffer), and the reason the data set cannot be used as a whole, if any.
 */
import type { ReactNode } from 'react';
import { ControlGroup } from './ControlGroup';
import { ParamControl } from './ParamControl';
import type { NumberParam, Schema } from '../../documents/url/params';
import type { UrlState } from '../state/useUrlState';

type DatasetSchema = Schema & Record<'entries' | 'entryBytes' | 'pageBytes', NumberParam>;

export function DatasetControls<S extends DatasetSchema>({
  url,
  problem,
  children,
}: {
  url: UrlState<S>;
  /** From datasetProblem (./dataset) or a page's stricter check; the page keeps the last valid data set meanwhile. */
  problem: string | null;
  /** Further controls of the group, after the page size. */
  children?: ReactNode;
}) {
  return (
    <ControlGroup title="Data set">
      <ParamControl {...url.bind('entries')} />
      <ParamControl {...url.bind('entryBytes')} />
      <ParamControl {...url.bind('pageBytes')} />
      {children}
      {problem && (
        <p className="field-msg field-error" role="alert" data-testid="dataset-problem">
          {problem} Still showing the last valid data set.
        </p>
      )}
    </ControlGroup>
  );
}
