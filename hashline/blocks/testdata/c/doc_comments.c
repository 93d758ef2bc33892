#include <stdio.h>

/** Documents the struct. */
struct point {
    int x;
};

/// Doxygen line doc.
/// Its second line.
int add(int a, int b) {
    return a + b;
}

/* A plain block comment is no doc comment. */
int plain(void) {
    return 0;
}

/** Above a one-line declaration. */
static int one(void) { return 1; }

/** Separated by a blank line. */

int separated(void) {
    return 2;
}

/** @file Above a preprocessor conditional, which declares nothing. */
#ifdef DEBUG
int debug(void) {
    return 1;
}
#endif
