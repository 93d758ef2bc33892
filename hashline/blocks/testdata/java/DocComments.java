package demo;

/**
 * Documents the class above its annotation.
 */
@SuppressWarnings("unchecked")
public class DocComments {
    /** Documents a one-line field. */
    private int x;

    /**
     * Documents the method above its annotations.
     */
    @Override
    @Deprecated
    public String toString() {
        return "docs";
    }

    /** Documents a method without annotations. */
    void run() {
        x++;
    }

    // A line comment is no doc comment.
    void plain() {
        x++;
    }

    /** Separated by a blank line. */

    void separated() {
        x++;
    }
}
