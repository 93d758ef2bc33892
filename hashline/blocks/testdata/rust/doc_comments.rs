//! Inner docs document the crate, never the item below.
//! A second inner line.
fn after_inner() {
    one();
}

/// Outer doc comment.
/// Its second line.
pub fn documented() {
    one();
}

/// Doc comment above attributes.
#[derive(Debug)]
#[allow(dead_code)]
struct WithAttrs {
    /// Field doc above a field attribute.
    #[allow(unused)]
    x: i32,
    /// Field doc above a one-line field.
    y: i32,
}

/**
 * A block doc comment.
 */
enum Block {
    A,
    B,
}

/// Separated by a blank line.

fn separated() {
    one();
}

// A plain comment is no doc comment.
fn plain() {
    one();
}

/* A plain block comment is no doc comment either. */
fn plain_block() {
    one();
}

/// Above a one-line item.
fn one() {}

/// The plain line below breaks the run.
// plain
/// Only this line documents the function.
fn mixed() {
    one();
}

//// Four slashes make a plain comment.
fn four() {
    one();
}

impl Block {
    /// A method's doc.
    fn method(&self) {
        one();
    }
}

/*! Inner block doc. */
mod m {
    fn f() {}
}

/** Doc and item share a line. */ fn same_line() {
    one();
}

fn body() {
    /// Above an if expression, which declares nothing.
    if true {
        one();
    }
    /// Above a let statement, which declares a binding.
    let v = vec![
        1,
    ];
}
