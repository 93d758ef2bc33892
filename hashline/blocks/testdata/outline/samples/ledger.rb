# frozen_string_literal: true

module Books
  VERSION = "1.2.0"

  # One account's entries.
  class Ledger < Base
    ZERO = 0

    def initialize(owner)
      @owner = owner
      @entries = []
    end

    # Records an amount.
    def post(amount, memo: nil)
      @entries << [amount, memo]
      self
    end

    def self.open(owner)
      new(owner)
    end

    def balance
      @entries.sum(&:first)
    end
  end
end

def main
  puts Books::Ledger.open("me").post(3).balance
end
