function App() {
  return <div>;
}
