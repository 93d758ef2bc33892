#include <vector>

namespace geo {

/// A shape.
class Shape {
public:
    virtual ~Shape() = default;
    virtual double area() const = 0;
};

[[nodiscard]]
int answer() {
    return 42;
}

template <typename T>
T twice(T x) {
    return x * 2;
}

}  // namespace geo
