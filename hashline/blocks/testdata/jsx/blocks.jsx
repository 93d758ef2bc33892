export default function App({ items }) {
  return (
    <main>
      {items.map((item) => (
        <Item
          key={item.id}
          value={item.value}
        />
      ))}
      <footer>done</footer>
    </main>
  );
}
