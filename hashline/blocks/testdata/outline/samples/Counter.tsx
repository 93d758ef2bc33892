import React, { useState } from "react";

type Props = {
  start?: number;
  label: string;
};

/** A button that counts its clicks. */
export function Counter({ start = 0, label }: Props) {
  const [count, setCount] = useState(start);
  return (
    <button onClick={() => setCount(count + 1)}>
      {label}: {count}
    </button>
  );
}

export const Reset = ({ onReset }: { onReset: () => void }) => (
  <button onClick={onReset}>reset</button>
);

export default class Panel extends React.Component<Props> {
  render() {
    return (
      <section>
        <Counter label={this.props.label} />
      </section>
    );
  }
}
