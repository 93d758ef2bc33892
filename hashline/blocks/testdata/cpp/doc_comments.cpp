/// Documents the class.
class Shape {
public:
    /// Documents a one-line method.
    virtual double area() const = 0;
};

/**
 * Above an attribute.
 */
[[nodiscard]]
int answer() {
    return 42;
}

// A line comment is no doc comment.
int plain() {
    return 1;
}

/// Separated by a blank line.

int separated() {
    return 2;
}
