/**
 * Documents the component.
 */
export default function App() {
  return (
    <main>
      <p>text</p>
    </main>
  );
}

// A line comment is no doc comment.
export function Other() {
  return <p>other</p>;
}
