//! Crate docs.

use std::fmt;

/// A point.
#[derive(Debug, Clone)]
#[serde(
    rename_all = "camelCase"
)]
pub struct Point {
    #[serde(default)]
    pub x: i32,
    pub y: i32,
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

fn one() {}

#[test]
fn check() {
    let p = Point { x: 1, y: 2 };
    match p.x {
        1 => {
            println!("one");
        }
        _ => {}
    }
    let v = vec![
        1,
        2,
    ];
}

enum Shape {
    Circle {
        r: f64,
    },
    Square(f64),
}

trait Area {
    fn area(&self) -> f64;
}

/* A block comment
   over two lines. */
mod inner {
    pub fn f() -> u8 {
        1
    }
}
