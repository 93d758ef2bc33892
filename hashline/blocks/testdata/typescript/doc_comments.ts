/// <reference types="node" />
/**
 * Documents the interface; the directive above stays out.
 */
export interface Shape {
  area(): number;
}

/** Above the class decorator. */
@Component({
  selector: "app",
})
export class Service {
  /** Documents the field. */
  @Input() name: string;

  /**
   * Above method decorators.
   */
  @HostListener("click")
  @Other()
  onClick(): void {
    run();
  }
}

/** Separated by a blank line. */

function separated(): number {
  return 1;
}

/** Above a one-line statement. */
type Id = string;

// A line comment is no doc comment.
enum Color {
  Red,
}
