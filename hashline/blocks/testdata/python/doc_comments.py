#!/usr/bin/env python3
# Documents main; the interpreter line above stays out.
def main():
    pass


# Documents the function.
# Its second line.
def documented():
    return 1


# Above the decorators.
@decorator
@other(
    arg=1,
)
def decorated():
    pass


# Separated by a blank line.

def separated():
    pass


# Above a one-line statement.
value = 1

# Above a multi-line statement that is no definition.
data = [
    1,
]


class Thing:
    # Documents the method.
    def method(self):
        return 1

    # Above a decorated method.
    @property
    def name(self):
        return "x"


# Above a one-line definition.
def one(): pass
