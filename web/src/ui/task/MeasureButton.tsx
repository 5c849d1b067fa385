/**
 * The "Measure on the engine" button of a card that runs an engine task, with the task's progress
 * while it is this card's, and its error.
 */
import type { ReactNode } from 'react';
import { TaskProgress } from './TaskProgress';
import { ErrorAlert } from '../layout/ErrorAlert';

export function MeasureButton(props: {
  /** This card's task is running. */
  mine: boolean;
  /** Any task is running (the engine does one at a time). */
  disabled: boolean;
  onClick: () => void;
  testId: string;
  error: string | null;
  /** Controls shown before the button (size selects and the like). */
  children?: ReactNode;
}) {
  return (
    <>
      <div className="growth-controls">
        {props.children}
        <button type="button" className="primary" onClick={props.onClick} disabled={props.disabled} data-testid={props.testId}>
          {props.mine ? 'Measuring…' : 'Measure on the engine'}
        </button>
      </div>
      {props.mine && <TaskProgress />}
      <ErrorAlert error={props.error} />
    </>
  );
}
