import type { ComponentChildren } from 'preact';
import { Problem } from './Problem';

/**
 * What opens under a table's row (a question, a form), in a row of its own spanning the table's `columns`:
 * inside the row it would widen a column and reflow the table.
 */
export function RowBelow({ columns, children }: { columns: number; children: ComponentChildren }) {
  return (
    <tr>
      <td colSpan={columns}>{children}</td>
    </tr>
  );
}

/** A question under a row before a lasting act: the act's button (`yes`), Cancel, and why the act failed. */
export function QuestionRow(props: {
  columns: number;
  question: ComponentChildren;
  yes: string;
  problem?: string | undefined;
  onYes: () => void;
  onCancel: () => void;
}) {
  return (
    <RowBelow columns={props.columns}>
      <fieldset class="confirm">
        <legend>{props.question}</legend>
        <Problem text={props.problem} />
        <div class="bar">
          <button type="button" class="danger" onClick={props.onYes}>
            {props.yes}
          </button>
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        </div>
      </fieldset>
    </RowBelow>
  );
}
