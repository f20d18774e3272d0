/* The C API of the exact engine, src/nurikabe/solver/_csolve.c (the rules, probing and the
 * search; no Python). Its callers: the CPython binding _csolve_py.c (the extension type
 * `_csolve.Search`) and any C driver (a test, a fuzzer).
 *
 * A search is made for one puzzle and hands back one solution per csolve_run(), as one
 * byte per cell (CSOLVE_BLACK, CSOLVE_WHITE), until none is left or a limit stops it. */
#ifndef NURIKABE_CSOLVE_H
#define NURIKABE_CSOLVE_H

#include <stdint.h>

#define CSOLVE_UNKNOWN 0
#define CSOLVE_BLACK 1
#define CSOLVE_WHITE 2

typedef struct Search Search;

typedef struct {
    double seconds;  /* search seconds over all calls, < 0: unbounded */
    long long nodes; /* search nodes in all, < 0: unbounded */
    int cpu;         /* seconds are CPU seconds of the searching thread */
    int strong;      /* the native engine's calls (the logic engine's pass 0) */
    int lean;        /* with strong: the least constraining color first */
    int learn;       /* with strong: learning from conflicts (nogoods, backjumps, restarts;
                        see "learning" in _csolve.c); NURIKABE_CSOLVE_OFF=learning turns it
                        off */
    int reasons;     /* with learn: the rules record reasons and a refuted leaf's nogood is
                        its decision cut, not its path (NURIKABE_CSOLVE_OFF=reasons: off) */
    long long learn_after; /* with learn: the search starts without learning and turns it
                              on once it has visited this many nodes (<= 0: from the
                              start), so that short searches keep learning-off speed */
    int diversify;   /* with learn: each restart branches on one of the best few cells,
                        drawn by a seeded generator (randomized restarts; the same tree on
                        every machine) */
} CsolveOptions;

/* Why csolve_create() failed. */
enum { CSOLVE_BAD_CLUE = 1, CSOLVE_NO_MEMORY = 2 };

/* Why a search stopped short (csolve_stop), 0 when it did not. */
enum { CSOLVE_STOP_SECONDS = 1, CSOLVE_STOP_NODES, CSOLVE_STOP_INTERRUPTED, CSOLVE_STOP_CANCELLED };

typedef struct {
    long long nodes, propagations, probes;
    unsigned long long trace; /* with -DCSOLVE_TRACE: hash of every fixpoint reached */
    long long learned, restarts, jumps; /* with learning: nogoods learned, restarts, frames
                                           a backjump skipped */
    long long checked; /* with -DCSOLVE_CHECK_NOGOODS: nogoods checked by brute force */
    long long cut_literals, path_literals; /* with learning and reasons: literals of the
                                              refuted leaves' nogoods, and of their paths */
    long long reasons; /* with -DCSOLVE_CHECK_NOGOODS: reasons checked by brute force */
} CsolveCounters;

/* A search of the rows x cols grid with `nclues` clues (cell, value; -1 for `?`) from
 * `start` (one byte per cell; clue cells are made white) and, unless NULL, `near` (a
 * position `start` extends: the root probes first near what `start` adds). NULL on
 * failure, with *error set. */
Search *csolve_create(int rows, int cols, int nclues, const int *clue_cell, const int *clue_val,
                      const uint8_t *start, const uint8_t *near, const CsolveOptions *options,
                      int *error);
void csolve_free(Search *s);

/* Called every so often while the search runs; nonzero stops it (CSOLVE_STOP_INTERRUPTED). */
void csolve_set_poll(Search *s, int (*poll)(void *), void *arg);

/* One step of the search, in three calls: csolve_idle() is nonzero when it has stopped
 * or finished (nothing to run); csolve_arm() sets the deadline of this call from the
 * seconds left, 0 when none are left (it stops); csolve_run() runs to the next solution:
 * 1 found (csolve_solution), 0 none left or a limit stopped it (csolve_stop), -1 out of
 * memory. csolve_next() is the three in one. */
int csolve_idle(Search *s);
int csolve_arm(Search *s);
int csolve_run(Search *s);
int csolve_next(Search *s);

int csolve_cells(const Search *s);
const uint8_t *csolve_solution(const Search *s);
int csolve_stop(const Search *s);
int csolve_complete(const Search *s);
int csolve_pending(const Search *s);
CsolveCounters csolve_counters(const Search *s);

/* Lets a search its node limit stopped go on, up to `nodes` in all (and, given
 * seconds >= 0, that many more seconds). */
void csolve_extend(Search *s, long long nodes, double seconds);
/* Stops the search soon; callable from any thread. */
void csolve_cancel(Search *s);
/* A memo of fixpoints shared by searches of one puzzle that run one after another, never
 * two at once (see "the memo" in _csolve.c): it holds at most `max_bytes`. NULL when out
 * of memory. */
typedef struct CsolveMemo CsolveMemo;
CsolveMemo *csolve_memo_new(long long max_bytes);
void csolve_memo_free(CsolveMemo *m);
/* Lets `s` use memo `m` (NULL: none); 0 when it cannot: `m` was first used by a search of
 * another puzzle or with other rules, `s` learns, or out of memory. Call before running
 * `s`; `m` must outlive its use by `s`. */
int csolve_set_memo(Search *s, CsolveMemo *m);
/* hits, misses, entries held and times it started again empty, in out[0..3]. */
void csolve_memo_stats(const CsolveMemo *m, long long *out);
/* Test hook: the stamp counters start again once they pass `limit`; 0: out of range. */
int csolve_restart_stamps_at(Search *s, long limit);

#endif
