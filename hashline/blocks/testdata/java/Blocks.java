package demo;

import java.util.List;

/**
 * A demo.
 */
@SuppressWarnings("unchecked")
public class Blocks {
    private int x;

    @Override
    @Deprecated
    public String toString() {
        return "blocks";
    }

    @Override
    public int hashCode() { return 1; }

    @Override
    String name() {
        return "x";
    }

    void loop(List<String> items) {
        for (String item : items) {
            System.out.println(item);
        }
        switch (x) {
            case 1:
                x++;
                break;
            default:
                break;
        }
    }

    enum Kind {
        A,
        B
    }
}
