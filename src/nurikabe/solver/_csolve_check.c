/* A C driver of the engine without Python: proof that _csolve.c builds and runs on its
 * C API (_csolve.h) alone. Not part of the extension; tests/solver/test_native.py builds
 * and runs it (when gcc is there):
 *
 *     gcc -O2 -std=c99 _csolve.c _csolve_check.c -o /tmp/csolve_check && /tmp/csolve_check
 *
 * It solves janko-0001 (10x10, seventeen 2s) with the native engine's settings (strong),
 * asks for a second solution, and checks the one found against the published solution.
 * Prints the solution and the counters; exits 0 when the puzzle is solved and unique. */

#include <stdio.h>
#include <string.h>

#include "_csolve.h"

static const int CLUES[][3] = {
    {0, 4, 2}, {0, 6, 2}, {1, 0, 2}, {1, 8, 2}, {2, 3, 2}, {3, 1, 2}, {3, 6, 2}, {4, 5, 2}, {4, 7, 2},
    {5, 2, 2}, {6, 5, 2}, {6, 7, 2}, {7, 2, 2}, {7, 9, 2}, {8, 0, 2}, {8, 5, 2}, {9, 8, 2},
};

static const char *SOLUTION[] = {
    "###..#..##", "..######.#", "###..#.#.#", "#..###.###", "####..#..#",
    "#..#######", "####..#.#.", ".#.####.#.", ".#.#..####", "#######..#",
};

int main(void) {
    enum { R = 10, C = 10, K = sizeof(CLUES) / sizeof(CLUES[0]) };
    int cell[K], value[K], error = 0;
    for (int k = 0; k < K; k++) {
        cell[k] = CLUES[k][0] * C + CLUES[k][1];
        value[k] = CLUES[k][2];
    }
    uint8_t start[R * C];
    memset(start, CSOLVE_UNKNOWN, sizeof(start));
    CsolveOptions options = {.seconds = 60, .nodes = -1, .strong = 1};
    Search *s = csolve_create(R, C, K, cell, value, start, NULL, &options, &error);
    if (!s) {
        fprintf(stderr, "csolve_create failed: %d\n", error);
        return 2;
    }
    int found = csolve_next(s), wrong = 0;
    if (found == 1) {
        const uint8_t *col = csolve_solution(s);
        for (int r = 0; r < R; r++) {
            for (int x = 0; x < C; x++) {
                char mark = col[r * C + x] == CSOLVE_BLACK ? '#' : '.';
                wrong |= mark != SOLUTION[r][x];
                putchar(mark);
            }
            putchar('\n');
        }
    }
    int second = found == 1 ? csolve_next(s) : 0;
    CsolveCounters n = csolve_counters(s);
    printf("found %d, second %d, complete %d, stop %d, nodes %lld, propagations %lld, probes %lld\n",
           found, second, csolve_complete(s), csolve_stop(s), n.nodes, n.propagations, n.probes);
    int ok = found == 1 && !wrong && second == 0 && csolve_complete(s);
    csolve_free(s);
    return ok ? 0 : 1;
}
