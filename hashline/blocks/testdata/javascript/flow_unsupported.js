// @flow

// An inexact object type: Flow syntax the tsx grammar does not read.
type Props = {
  +name: string,
  ...
};

function f() {
  return 1;
}
