class A {
  int x;
