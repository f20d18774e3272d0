/* A C driver of the engine without Python: proof that _csolve.c builds and runs on its
 * C API (_csolve.h) alone. Not part of the extension; tests/solver/test_native.py builds
 * and runs it (when gcc is there):
 *
 *     gcc -O2 -std=c99 _csolve.c _csolve_check.c -o /tmp/csolve_check && /tmp/csolve_check
 *
 * It solves janko-0001 (10x10, seventeen 2s) with the native engine's settings (strong),
 * asks for a second solution, and checks the one found against the published solution.
 * Prints the solution and the counters; exits 0 when the puzzle is solved and unique.
 *
 * With the argument `count`, it reads puzzles from standard input instead, one a line:
 * rows, columns, the number of clues, then cell and value of each (-1 for `?`), and
 * prints for each the number of solutions (all of them, with learning on), whether the
 * search was complete, and the counters: nogoods learned, restarts, frames jumped,
 * nogoods checked. tests/solver/test_learning.py builds it with -DCSOLVE_CHECK_NOGOODS
 * (each nogood checked against a brute-force list of the solutions) and restarts after
 * every conflict, and compares the counts with tests/bruteforce.py.
 *
 * In `count` mode learning records reasons (decision cuts; see "reasons" in _csolve.c).
 * `count AFTER` starts learning only after AFTER nodes (CsolveOptions.learn_after), so
 * the hand-over from the search without learning is checked too; `count AFTER 1` learns
 * without reasons (nogoods over decision paths), `count AFTER 2 1` with reasons and
 * diversified restarts (CsolveOptions.diversify), `count AFTER 1 1` with both.
 *
 * With the arguments `time SECONDS LEARN` (LEARN 0, 1, or 2 with reasons), it reads the
 * same lines and
 * decides each puzzle as the native engine does (up to two solutions, SECONDS of CPU
 * time), printing the solutions found, whether the search was complete, the counters
 * and the CPU seconds: a way to time builds with other -D settings of _csolve.c without
 * rebuilding the extension (bench/results/solver-log.md, "The learning racer");
 * `time SECONDS LEARN AFTER` starts learning after AFTER nodes, `time SECONDS LEARN
 * AFTER 1` diversifies its restarts too. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "_csolve.h"

static const int CLUES[][3] = {
    {0, 4, 2}, {0, 6, 2}, {1, 0, 2}, {1, 8, 2}, {2, 3, 2}, {3, 1, 2}, {3, 6, 2}, {4, 5, 2}, {4, 7, 2},
    {5, 2, 2}, {6, 5, 2}, {6, 7, 2}, {7, 2, 2}, {7, 9, 2}, {8, 0, 2}, {8, 5, 2}, {9, 8, 2},
};

static const char *SOLUTION[] = {
    "###..#..##", "..######.#", "###..#.#.#", "#..###.###", "####..#..#",
    "#..#######", "####..#.#.", ".#.####.#.", ".#.#..####", "#######..#",
};

/* The `count` mode, or with `decide` the `time` mode (above): 0 when every line was read
 * and searched. */
static int count_lines(int decide, double seconds, int learn, long long after, int diversify) {
    /* count: learn 0 or 2 (with reasons, the default), 1 without */
    int R, C, K;
    while (scanf("%d %d %d", &R, &C, &K) == 3) {
        if (R < 1 || C < 1 || K < 0 || R * C > 400) return 2;
        int cell[400], value[400], error = 0;
        uint8_t start[400];
        for (int k = 0; k < K && k < 400; k++)
            if (scanf("%d %d", &cell[k], &value[k]) != 2) return 2;
        memset(start, CSOLVE_UNKNOWN, sizeof(start));
        CsolveOptions options = {.seconds = 60, .nodes = -1, .strong = 1, .learn = 1,
                                 .reasons = learn != 1, .learn_after = after,
                                 .diversify = diversify};
        if (decide) {
            options.seconds = seconds;
            options.cpu = 1;
            options.learn = learn > 0;
            options.reasons = learn > 1;
        }
        clock_t began = clock();
        Search *s = csolve_create(R, C, K, cell, value, start, NULL, &options, &error);
        if (!s) {
            printf("error %d\n", error);
            continue;
        }
        long count = 0, most = decide ? 2 : 100000;
        int found;
        while (count < most && (found = csolve_next(s)) == 1) count++;
        CsolveCounters n = csolve_counters(s);
        if (decide) {
            printf("%ld %d nodes %lld propagations %lld probes %lld learned %lld restarts %lld "
                   "jumps %lld cut %lld of %lld %.3f s\n",
                   count, csolve_complete(s), n.nodes, n.propagations, n.probes, n.learned,
                   n.restarts, n.jumps, n.cut_literals, n.path_literals,
                   (double)(clock() - began) / CLOCKS_PER_SEC);
            fflush(stdout);
            csolve_free(s);
            continue;
        }
        printf("%ld %d %lld %lld %lld %lld %lld %lld %lld\n", count, csolve_complete(s),
               n.learned, n.restarts, n.jumps, n.checked, n.reasons, n.cut_literals,
               n.path_literals);
        fflush(stdout);
        csolve_free(s);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "count"))
        return count_lines(0, 0, argc > 3 ? atoi(argv[3]) : 2, argc > 2 ? atoll(argv[2]) : 0,
                           argc > 4 && atoi(argv[4]));
    if (argc > 3 && !strcmp(argv[1], "time"))
        return count_lines(1, atof(argv[2]), atoi(argv[3]), argc > 4 ? atoll(argv[4]) : 0,
                           argc > 5 && atoi(argv[5]));
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
