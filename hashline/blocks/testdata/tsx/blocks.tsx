import React from "react";

type Props = {
  title: string;
};

export function Card({ title }: Props) {
  const [open, setOpen] = React.useState(false);
  return (
    <div className="card">
      <h1>{title}</h1>
      {open && (
        <p>
          Body
        </p>
      )}
      <button onClick={() => setOpen(!open)} />
    </div>
  );
}

export const List = <T,>(props: { items: T[] }) => (
  <ul>
    {props.items.map((item) => (
      <li key={String(item)}>{String(item)}</li>
    ))}
  </ul>
);
