# Documents the module.
# Its second line.
module Docs
  # Documents the class.
  class Thing
    # Documents the method.
    def run
      1
    end

    # Above a one-line method.
    def one = 1

    # Above a statement that is no definition.
    attr_reader :name
  end

  # Separated by a blank line.

  def self.check
    2
  end

  # Documents a singleton method.
  def self.other
    3
  end

  # Above a multi-line statement that is no definition.
  CONFIG = {
    a: 1,
  }
end
