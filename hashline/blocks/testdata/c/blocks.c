#include <stdio.h>

/* A point. */
struct point {
    int x;
    int y;
};

static int one(void) { return 1; }

int main(int argc, char **argv) {
    for (int i = 0; i < argc; i++) {
        printf("%s\n", argv[i]);
    }
    int table[] = {
        1,
        2,
    };
    return 0;
}

#ifdef DEBUG
#define LOG(x) \
    printf("%d", x)
#endif
