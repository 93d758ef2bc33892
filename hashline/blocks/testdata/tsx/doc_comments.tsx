/**
 * Documents the component.
 */
export function Card({ title }: { title: string }) {
  return (
    <div>
      {/** A comment inside JSX is no declaration's doc. */}
      <h1>
        {title}
      </h1>
    </div>
  );
}

/** Separated by a blank line. */

export const List = () => (
  <ul>
    <li>one</li>
  </ul>
);
