function f(a: number {
  return a;
}
