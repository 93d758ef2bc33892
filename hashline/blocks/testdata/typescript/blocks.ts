/**
 * A service.
 */
@Injectable()
@Component({
  selector: "app",
})
export class Service {
  @Input() name: string;

  @Output()
  changed = new EventEmitter<string>();

  constructor(private readonly http: Http) {}

  @HostListener("click")
  @Other()
  onClick(): void {
    if (this.name) {
      this.changed.emit(this.name);
    } else {
      console.log("none");
    }
  }
}

// A standalone comment.
interface Shape {
  area(): number;
}

type Pair =
  | { kind: "a" }
  | { kind: "b" };

enum Color {
  Red,
  Green,
}

function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

const table = {
  a: 1,
  b: [
    2,
    3,
  ],
};

namespace NS {
  export const x = 1;
}

useEffect(() => {
  run();
}, [dep]);

promise.then(
  (value) => {
    use(value);
  }, (err) => {
    fail(err);
  });
