import { useMemo } from "react";

const EMPTY = [];

function Item({ name, done }) {
  return <li className={done ? "done" : ""}>{name}</li>;
}

export function TodoList({ items = EMPTY, filter }) {
  const shown = useMemo(
    () => items.filter((i) => !filter || i.name.includes(filter)),
    [items, filter],
  );
  return (
    <ul>
      {shown.map((i) => (
        <Item key={i.name} {...i} />
      ))}
    </ul>
  );
}

export class Footer extends React.Component {
  render() {
    return <footer>{this.props.count} left</footer>;
  }
}
