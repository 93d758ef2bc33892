# A module.
module Demo
  class Thing < Base
    attr_reader :name

    def initialize(name)
      @name = name
    end

    def one = 1

    def each
      [1, 2].each do |i|
        yield i
      end
    end
  end

  def self.check(x)
    if x > 1
      :big
    elsif x == 1
      :one
    else
      :small
    end
  end
end

CONFIG = {
  a: 1,
  b: 2,
}.freeze
