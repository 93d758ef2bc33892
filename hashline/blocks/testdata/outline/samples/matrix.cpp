#include <cstddef>
#include <vector>

namespace linalg {

/// A dense matrix of doubles, row by row.
template <typename T>
class Matrix {
 public:
  Matrix(std::size_t rows, std::size_t cols) : rows_(rows), cols_(cols), data_(rows * cols) {}

  T& at(std::size_t r, std::size_t c) { return data_[r * cols_ + c]; }

  Matrix transpose() const {
    Matrix out(cols_, rows_);
    for (std::size_t r = 0; r < rows_; ++r)
      for (std::size_t c = 0; c < cols_; ++c)
        out.at(c, r) = data_[r * cols_ + c];
    return out;
  }

 private:
  std::size_t rows_, cols_;
  std::vector<T> data_;
};

struct Shape {
  std::size_t rows;
  std::size_t cols;
};

double trace(Matrix<double>& m, std::size_t n);

}  // namespace linalg

double linalg::trace(Matrix<double>& m, std::size_t n) {
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += m.at(i, i);
  return sum;
}

int main() {
  linalg::Matrix<double> m(2, 2);
  return static_cast<int>(linalg::trace(m, 2));
}
