// @flow

type Exact = {|
  name: ?string,
|};

function f() {
  return 1;
}
