'use strict';

/**
 * Adds.
 */
function add(a, b) {
  return a + b;
}

@sealed
@logged({
  level: 'info',
})
class Greeter {
  @bound
  greet() {
    return 'hi';
  }

  @readonly name = 'x';
}

const obj = {
  key: 'value',
  nested: {
    deep: true,
  },
};

for (let i = 0; i < 3; i++) {
  console.log(i);
}

switch (obj.key) {
  case 'value':
    add(1, 2);
    break;
  default:
    break;
}

module.exports = { add, Greeter };
