/**
 * Documents add.
 */
function add(a, b) {
  return a + b;
}

/** Above decorators. */
@sealed
@logged({
  level: 'info',
})
class Greeter {
  /**
   * Documents greet.
   */
  greet() {
    return 'hi';
  }

  /** Above a decorated method. */
  @bound
  wave() {
    return 'wave';
  }
}

/** Separated by a blank line. */

function separated() {
  return 1;
}

// A line comment is no doc comment.
function plain() {
  return 1;
}

/* A plain block comment is no doc comment. */
function plainBlock() {
  return 1;
}

/** Above a one-line statement. */
const one = 1;

/** @type {Record<string, number>} */
const table = {
  a: 1,
};

/** A first doc block. */
/** A second one: the run holds both. */
function twoBlocks() {
  return 2;
}

/*** A banner is no doc comment. */
function banner() {
  return 3;
}

/** Doc and code share a line. */ function sameLine() {
  return 4;
}

function body() {
  /** An explanation above an if statement documents nothing. */
  if (one) {
    return 1;
  }
  return 0;
}

/**
 * A header directly above an import documents nothing.
 */
import {
  a,
} from 'a';
