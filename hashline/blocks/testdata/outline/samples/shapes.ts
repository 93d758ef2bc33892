// Shapes and the areas they cover.
import { round } from "./math";

/** A point in the plane. */
export interface Point {
  x: number;
  y: number;
}

export type Unit = "px" | "em";

export enum Kind {
  Circle,
  Square,
}

/**
 * The base of every shape.
 */
export abstract class Shape {
  constructor(readonly origin: Point) {}

  abstract area(): number;

  /** The area, rounded for display. */
  describe(unit: Unit = "px"): string {
    return `${round(this.area())}${unit}²`;
  }
}

@sealed
export class Circle extends Shape {
  constructor(origin: Point, private radius: number) {
    super(origin);
  }

  area(): number {
    return Math.PI * this.radius ** 2;
  }
}

export const unitSquare = (origin: Point): Shape =>
  new (class extends Shape {
    area() {
      return 1;
    }
  })(origin);

export namespace Registry {
  const shapes: Shape[] = [];

  export function add(s: Shape): number {
    return shapes.push(s);
  }
}

function sealed(target: Function): void {
  Object.seal(target);
}
