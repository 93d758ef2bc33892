class A {
  void f( {
  }
}
