// Type annotations without the Flow pragma are not JavaScript.
const x: number = 1;
function f() {
  return x;
}
