"""Module docstring
over two lines."""

import os


# Directly above the decorators, so it documents the definition.
@decorator
@other(
    arg=1,
)
def decorated(x):
    """Doc."""
    if x:
        return 1
    else:
        return 2


class Thing(Base):
    # comment inside the class
    value = 1

    @property
    def name(self):
        return "thing"

    def method(self):
        for i in range(3):
            print(i)
        # trailing comment in the body


def one(): pass

data = {
    "a": 1,
    "b": [
        1,
        2,
    ],
}
