/* The compiled core of the default exact engine: propagation to a fixpoint, failed-literal
 * probing and depth-first search over one byte per cell.
 *
 * The engine alone, in C without Python: its API is _csolve.h (create, free, run to the
 * next solution, counters), and the CPython binding _csolve_py.c makes it the extension
 * type `_csolve.Search`, driven by `solver/native.py` (which turns its answers into
 * `Board`s) and `solver/refuter.py`.
 *
 * A state is one byte per cell: UNKNOWN, BLACK or WHITE. Every rule below is a deduction
 * that holds in every solution extending the state it reads, so rules may be applied in
 * any order and a refuted state has no solution. The rules, in the order of the table
 * `rules[]` (section "propagation") that drives propagate(), cheapest first: islands,
 * pools and counting run as one round, and a change in that round starts the loop again
 * from the top; from areas on, a change by any rule starts it again at once. The names
 * are the table's (areas, crossings and sides are switched off by naming them in the
 * developer variable NURIKABE_CSOLVE_OFF, with the knobs of `knobs[]`):
 *
 *  islands   white components: two clues in one, an overfull island, an island or a
 *            clueless white component with no unknown neighbour are contradictions; a
 *            complete island gets a black border; one with a single exit grows through
 *            it; an unknown cell whose whitening would merge two clues or overfill an
 *            island is black;
 *  pools     a 2x2 block with three black cells has its fourth white;
 *  counting  (no `?` clue) the white cells number exactly the clue total;
 *  areas     each region of non-black cells holds exactly the islands of its clues:
 *            too little room is a contradiction, just enough makes it all white;
 *  crossings a 2x2 block with black cells on one diagonal and white on the other: the
 *            sea's path between the black cells walls in one of the white cells' islands
 *            (so they are two islands); an island too big for the whole sea to wall in
 *            (perimeter bounds) leaves the other walled in: off the edge of the grid, in
 *            a box of few enough rows plus columns, filled when just big enough;
 *  sea       black cells must stay connected through non-white cells: unknown cells cut
 *            off from the sea are white, so are cells farther from every black cell
 *            than the sea has cells left, a black component with one exit grows through
 *            it, and unknown cut vertices (Tarjan) between black cells are black
 *            (before reach, which costs more: medians about 10% lower than after it);
 *  reach     each incomplete island's shortest growth paths (unknown cells cost one,
 *            a clueless white component costs its size, cells touching another island
 *            are barred): a cell no island can reach within what it lacks is black, a
 *            white cell none can reach or an island with too few reachable cells is a
 *            contradiction; a reachable cell without which too few reachable cells stay
 *            connected to the island (Tarjan) is white;
 *  sides     (run last; sparse grids, no `?`; off for the logic engine's calls) a connected sea
 *            of S cells shows at most 2S + 2 sides to the islands and the edge; the
 *            islands' perimeters (at least 2 * (rows + columns) of their box) less their
 *            sides on the edge (each island's edge cells one arc of cells it may have)
 *            must fit: a contradiction, cells whose joining would widen an island's box
 *            too much are black, edge cells the island's bounds need are white, an
 *            island held in its box with just room fills it.
 *
 * Each rule has paid for itself on the corpus (search nodes on the hardest puzzles, with
 * the rule switched off by NURIKABE_CSOLVE_OFF=cuts,areas,seareach,crossings): island cut
 * cells 3-6x fewer nodes, areas and the sea's budget up to 1.5x; crossings prove
 * janko-0029 (clues 37 and 36, a sea of 27) at the root, which no search finished
 * before. Disjunctions over kept probe outcomes (an island's exits, a pool's cells) were
 * tried and never fired.
 *
 * At a search node where the rules stall, unknown cells are probed both ways (failed
 * literals): a color whose propagation fails forces the other, and cells both colors agree
 * on are forced. The root probes every cell (or, given `near`, a position the start
 * extends, first the cells near what the start adds); a child probes the cells near what
 * its branch changed, then near what each pass changed, until a pass changes nothing; a
 * cell both of whose colors another probe implied is skipped. The search branches on the
 * probed cell whose weaker color decides the most cells, white first (unless a cell whose
 * branch failed lately is still undecided: that one goes first; with `strong` and `lean`
 * the color whose probe decided fewer cells goes first, the least constraining, which
 * finds solutions of sparse grids sooner but makes the proofs of some unique puzzles
 * longer), depth first with an explicit stack of states, and hands back one solution per
 * call so that the caller (Python) can stop when it has enough.
 *
 * Soundness rests on one rule: a limit (time, nodes, Ctrl-C) stops the search with a
 * flag, never as a contradiction, so no state is ever refuted by running out of time.
 *
 * The logic engine counts the work of this core (nodes, propagations, probes) into its
 * grades, so a change meant to make it faster must leave every deduction as it was.
 * Speed-ups so far are of that kind: the white components are kept while the white cells
 * are the same, the sea's region is not walked again when only black cells were added
 * since it was whole, walks stop once nothing is left to find, Tarjan's walks step over
 * a black component or an island at once, pools and crossings skip rows without a
 * candidate block; on grids of at most 64 columns the sea's region, and without reasons
 * the sea's budget and black components, each island's reach and the regions of
 * rule_areas, are walked by rows of bits, and pools, crossings and the islands' test of
 * cells next to white cells find their candidates by bits (section "rows of bits"); an
 * island's cut cells are taken from one of its last cut walks when its cells and its
 * reach are the same (compared by rows after a walk by rows). Also skipped as having
 * nothing to decide: an island's cells next to no unknown cell, an unknown cell next to a
 * single white cell (it joins no clues), a 2x2 block holding a white cell, the exits of
 * a component past its second; a cell's row and bit come from tables, not a division.
 * bench/core_identity.py checks that two builds reach the same states:
 * built with -DCSOLVE_TRACE, the core hashes every fixpoint propagate() reaches, in order.
 */

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime, CLOCK_THREAD_CPUTIME_ID */
#endif
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(CSOLVE_CHECK_NOGOODS) || defined(CSOLVE_RULE_STATS)
#include <stdio.h>
#endif

#include "_csolve.h"

#define UNK CSOLVE_UNKNOWN
#define BLK CSOLVE_BLACK
#define WHT CSOLVE_WHITE

/* Probing at a child node starts with the cells within CHILD_RADIUS steps of what its
 * branch changed (the others keep their scores from the last probe), and each further
 * pass probes only the cells within PROBE_RADIUS steps of what the last pass changed
 * (-1: every unknown cell). Measured over the corpus against probing every cell on every
 * pass: total time 31.7 -> 23.8 s on the puzzles of <= 399 cells, janko-0940 13.5 ->
 * 0.5 s; janko-1091 and 1108 move either way (the search tree depends on the order). */
#ifndef CHILD_RADIUS
#define CHILD_RADIUS 4
#endif
#ifndef PROBE_RADIUS
#define PROBE_RADIUS 2
#endif

/* The stamp counters (marks compared with a counter that moves on, so that nothing is
   cleared between uses) start again from 0 once they pass this, well short of overflow. */
#define STAMP_LIMIT 0x70000000

#define FAIL 0
#define OK 1

/* Last-conflict branching (Lecoutre et al.): a cell whose branch was refuted is branched
 * on again first, as soon as the search is back above it, until it is decided; up to
 * LC_CAP such cells are kept, the latest first. Measured on the hardest corpus puzzles
 * against the probe score alone: janko-1091 16,347 -> 3,457 nodes (14.1 -> 4.0 s),
 * 1108 8,393 -> 1,809 nodes; keeping 1 cell gave half of that, 3 most of it, 8 or
 * more all of it; also re-branching on a cell whose whole subtree failed made 0940
 * time out. */
#ifndef LC_CAP
#define LC_CAP 16
#endif

/* With diversify: the restarts branch on one of this many best cells. Measured on random
 * sparse 15x15 grids (seeds 0-35, 10 s of CPU each, lean, learning from the first
 * node): 30 of 36 decided with it and without, in 80 s of CPU in all against 103 s. */
#ifndef DIVERSIFY_TOP
#define DIVERSIFY_TOP 4
#endif

/* island_cuts keeps each clue's last KEPT_WAYS cut walks (see there). */
#ifndef KEPT_WAYS
#define KEPT_WAYS 4
#endif

/* The rules, in the order of the table rules[] (section "propagation"). */
enum { RULE_ISLANDS, RULE_POOLS, RULE_COUNTING, RULE_AREAS, RULE_CROSSINGS, RULE_SEA, RULE_REACH,
       RULE_SIDES, NRULES };

/* ---- the state of a search, in structs by lifetime ---------------------------------- */

/* The grid and its clues: made once per puzzle, read by everything. */
typedef struct {
    int R, C, N;
    int *nb;         /* N*4 neighbours, -1 where there is none */
    int K;           /* number of clues */
    int *clue_cell;  /* K */
    int *clue_val;   /* K, -1 for '?' */
    int *cell_clue;  /* N: clue index or -1 */
    int has_q;       /* some clue is '?' */
    int total_white; /* sum of the clues (meaningful without '?') */
    int *ring, nring;    /* the edge cells in order round the grid (none with one row or
                            column) */
    int *min_perimeter;  /* N+1: the least perimeter of a set of that many cells */
    int *clue_excess;    /* K: free_excess of each clue (for the islands below SIDES_AREA
                            in rule_sides; strong only) */
    uint64_t *clue_rows; /* R (grids of at most 64 columns, else NULL): the clue cells of
                            each row as bits (areas_rows) */
    int *cell_row;       /* N (with clue_rows): the row of each cell, and its bit in the row */
    uint64_t *cell_bit;  /* as rows of bits: cell_bit[x] == 1 << (x % C), without a division */
} Grid;

/* The switches: set once per search (csolve_create, NURIKABE_CSOLVE_OFF). */
typedef struct {
    int rule_on[NRULES]; /* each rule of rules[] on (areas, crossings and sides may be off;
                            sides only on sparse grids, for the native engine's calls) */
    int cuts;          /* rule_reach: island cut cells on */
    int sea_reach;     /* rule_sea: the sea's budget bounds its reach */
    int dominance;     /* skip probing a cell both of whose colors some probe implied */
    int probe_order;   /* (strong) probe the cells with the most decided neighbours
                          first (see probe_order); off for the logic engine's calls */
    int probe_radius;  /* re-probe cells this near a change (-1: every cell) */
    int child_radius;  /* at a child, first probe cells this near its changes (-1: all) */
    int lean;          /* (strong and lean=True) try first the color whose probe decided
                          fewer cells, not white */
    int last_conflict; /* branch first on the cell whose branch failed last (on) */
    int learning;      /* learning from conflicts when the caller asks for it (section
                          "learning"); NURIKABE_CSOLVE_OFF=learning turns it off */
    int restarts;      /* with learning: restarts (NURIKABE_CSOLVE_OFF=restarts: none) */
    int diversify;     /* with restarts and CsolveOptions.diversify: restarts branch on
                          one of the best cells at random (section "learning") */
    int reasons;       /* with learning and CsolveOptions.reasons: the rules record reasons
                          and a refuted leaf's nogood is its decision cut (off: its path;
                          NURIKABE_CSOLVE_OFF=reasons turns it off whatever is asked) */
} Settings;

/* The white components of the state last labelled (white_components), which every rule
 * reads; kept while the white cells stay the same. */
typedef struct {
    int *comp;       /* white component of each cell, -1 for none */
    int *comp_size, *comp_clue, *comp_start, *comp_cells;
    uint8_t *comp_of;    /* N: the state white_components last labelled (its white cells) */
    int comp_count;      /* its answer then, -2 before the first */
    int bad_from, bad_to; /* when -1: comp_cells[bad_from..bad_to) is white, connected and
                             holds two clues */
} Components;

/* The marks and queue of the walks of every rule, probing and verify (stamps compared
 * with stamp_now, which moves on, so that nothing is cleared between uses). */
typedef struct {
    int *queue, *best, *seen, *done, *node_stamp;
    int stamp_now;
    int stamp_limit;     /* the stamp counters start again once they pass it (STAMP_LIMIT) */
} Walk;

/* Scans of pairs of rows and counts of black cells in boxes: rule_pools, rule_crossings,
 * rule_sides. */
typedef struct {
    uint8_t *pool_pair;  /* C: black cells per column of a pair of rows (rule_pools), or
                            the blocks of a pair of rows that cross (rule_crossings) */
    int *black_sum;      /* (R+1)*(C+1) prefix sums of black cells */
    uint64_t *area_rows; /* AREA_NROWS * R (grids of at most 64 columns, else NULL):
                            areas_rows's rows of bits */
    int *flood_stack;    /* R (with area_rows): flood_rows's rows to look at again */
    uint64_t *island_rows; /* 3 * R (grids of at most 64 columns, else NULL): rule_islands's
                            white and unknown cells, and the cells next to an unknown one */
    uint8_t *flood_pending; /* R (with area_rows): on flood_stack */
} Scan;

/* rule_crossings: the islands it walls in, which rule_reach then reads. */
typedef struct {
    int *comp_enclosed;  /* the sea must wall this component in, away from the edge: 0, or
                            1 + the most rows plus columns its island may span */
    int *comp_box;       /* 4 per component: its rows and columns, least and most */
    int *comp_frames, *frame_pool, nframes; /* boxes an enclosed island may span: from
                            comp_frames[2c] to comp_frames[2c+1] in frame_pool (4 each);
                            from == to: not listed (too many) */
} Crossings;

/* rule_sides. */
typedef struct {
    int *excess, *side_box; /* per component: rule_sides's bound and its cells' box */
    int *edge_black;     /* 4 * (R+C+2): prefix sums of black cells along each edge */
    int arc_cap;         /* sum_edges: the most sides on the edge the island may have */
    uint8_t *edge_gone;  /* sum_edges: edge cells the island cannot have */
    int run_from, run_to; /* sum_edges: ring positions (from + n...) of the island's run,
                             from < 0 when it has no cells on the edge */
} Sides;

/* rule_sea: its region and the black components it walked (for the cut vertices). */
typedef struct {
    uint8_t *sea_of;     /* N: a state whose non-white cells were all one region (rule_sea) */
    int sea_valid;       /* sea_of holds one */
    uint64_t *open, *flood, *black, *unknown, *front, *next; /* R (grids of at most 64
                            columns, else NULL), per row as bits (sea_rows): its non-white,
                            black and unknown cells, and the walks' (sea_region, sea_budget) */
    int *fresh;      /* cells blackened in the current pass of the sea rule */
    int *kcells, *kid, *kfrom, *kto; /* the black components rule_sea walked: cells, the
                        first cell of each cell's, and that cell's range in kcells */
    int *kex, *kefrom, *keto; /* their exits (unknown neighbours), from kefrom[k] */
} Sea;

/* Tarjan's walk for cut vertices (cut_weights), shared by rule_sea and rule_reach. */
typedef struct {
    int *disc, *low, *iter, *sub_black, *stk, *scomp;
} Tarjan;

/* rule_reach: its bucket queue (Dial's algorithm) and how many islands reach each cell. */
typedef struct {
    int *reach_count;
    int *bucket_head, *entry_node, *entry_next;
    int bucket_top;      /* rule_reach: the highest cost in a bucket */
    int nentries;        /* rule_reach: entries of the last island walked */
    int *order;          /* N: the cells the island walked last reached, in order */
    int **kept;          /* K * KEPT_WAYS: per clue, its island's last cut walks (island_cuts),
                            the latest first: its cells, the cells it reached in order and
                            the candidates, or NULL */
    int *kept_size, *kept_reached, *kept_cand, *kept_room; /* K * KEPT_WAYS: how many of
                            each, and the room of kept[] */
    uint8_t *kept_rows;  /* K * KEPT_WAYS: the walk was by rows of bits, and kept[] holds
                            after its lists the rows of the island and of its reach */
    int rows_on;         /* this call walks by rows of bits (reach_rows) */
    uint64_t *rows;      /* 10 * R (grids of at most 64 columns, else NULL): reach_rows's */
    int *pend_cost, *pend_comp; /* N: reach_rows's clueless components, when they arrive */
} Reach;

/* Failed-literal probing (probe) and its branching scores. */
typedef struct {
    uint8_t *probe_a, *probe_b, *probe_before;
    int probing;         /* propagating a probe (rule_sides skips its costlier part) */
    int *zone;           /* cells to probe again in the next pass */
    int zone_now;        /* the last stamp given to zone[]: its own counter, because a
                            probe pass holds one across the propagations that may start
                            stamp_now again */
    int *safe_b, *safe_w; /* == safe_stamp: that color was implied by a probe that held */
    int safe_stamp;      /* moves on with every pass and every change of the probed state */
    long long *score;    /* branching score of each cell's last probe */
    int *order;          /* the cells of a probe pass, in the order it takes them */
    uint8_t *lean_color; /* (lean) the color whose probe decided fewer cells, per cell */
} Probe;

/* The search's stack of states (the trail) and where it stands. */
typedef struct {
    uint8_t *frames;   /* depth * N */
    int *frame_cell;   /* branching cell of each frame */
    int *frame_tried;  /* 0, 1 or 2 colors tried */
    uint8_t *frame_first; /* color tried first */
    int depth, cap;
    int started, finished;
    int complete;      /* the space was exhausted */
    uint8_t *start;    /* N */
    uint8_t *near;     /* N, or NULL: a position `start` extends, whose changes the root's
                          probing starts near (as at a child node); clue cells white */
    uint8_t *solution; /* N */
    int lc[LC_CAP], nlc; /* the last cells whose branch failed, latest first */
} Trail;

/* Learning from conflicts (section "learning"): the nogood store, the conflict sets of the
 * frames on the trail, restarts and saved phases. A literal is cell * 2 + (color == WHT). */
typedef struct {
    int on;              /* learning (strong calls that asked for it, Settings.learning) */
    int waiting;         /* learning is asked for but starts later (learn_begin) */
    long long after;     /* with waiting: the nodes after which it starts */
    int *lit, nlit, caplit; /* the store's literals, one nogood after the other */
    int *ng_from, *ng_len, *ng_w1, *ng_w2; /* per nogood: its literals from lit[ng_from],
                            how many, and the positions of its two watched literals */
    uint8_t *ng_keep;    /* 1: never pruned (it blocks a solution handed back) */
    int count, cap;      /* nogoods stored, room for */
    int *cs, ncs, capcs; /* the conflict sets of frames whose first child is closed (a
                            stack, as the frames are) */
    int *frame_cs, *frame_ncs; /* N+2: per frame, where its set starts in cs (-1: none) */
    int *path, *path2;   /* N+2: scratch nogoods */
    int *mark, mark_now; /* N: stamps for the union of two nogoods */
    uint8_t *test;       /* N: the state of a minimization test */
    uint8_t *phase;      /* N: each cell's color on the path at the last restart (UNK: none) */
    int witness;         /* the cell whose probes failed both ways at the last refuted node */
    int pending;         /* a solution was handed back: its leaf is still to close */
    int restart_due;     /* a restart a limit cut short is still to finish */
    long long conflicts, next_restart, solutions;
    long long restart_solutions; /* the periodic restarts run while at most this many
                            solutions were handed back (LEARN_RESTART_SOLUTIONS; learning
                            that starts late: LEARN_LATE_RESTART_SOLUTIONS, at most that) */
    int luby;            /* index into the Luby sequence of the next restart */
    long long learned, restarts, jumps;
    int diversify;       /* CsolveOptions.diversify: after the first restart, the search
                            branches on one of the DIVERSIFY_TOP best probed cells, chosen
                            by `rng` (see pick_diverse) */
    unsigned long long rng; /* xorshift state, the same seed in every search */
    /* reasons (section "reasons"): per cell set in the state being searched, the level
       it was set at and why; valid for every cell set in the current path's states
       (each write is made when the cell is set, and no state of another branch is
       propagated until the search leaves this one) */
    int reasons;         /* learning with reasons (Settings.reasons) */
    int rec;             /* reasons are recorded now (reasons, and level > 0) */
    int level;           /* the level of the state being propagated (decisions it stands on;
                            a probe's state one more) */
    int *rlev, *rfrom, *rlen; /* N: level, and the reason: rlen[i] cells from rbuf[rfrom[i]],
                            or R_COARSE / R_DECISION / R_PROBE */
    int *rbuf, rtop, rcap; /* the reasons' cells, level after level (rtop: the next free) */
    int rbad;            /* a reason being written did not fit (it is then R_COARSE) */
    int *lvl_top;        /* N+2: rtop where the records of each level start */
    int *rmark, rmark_now; /* N: cells given a reason by the rule running now */
    uint8_t *snap;       /* N: the state before the rule running now */
    int cfrom, clen;     /* the reason of the last refutation (clen R_COARSE: every decision) */
    int *astack, *amark, amark_now, *adec; /* analyse(): its stack, marks, decision levels met */
    int *wmark, wmark_now, ncells; /* N: marks of the reasons' walks (wall_stamp) */
    int wall_coarse;     /* reach_walls met a wall without a reason */
    int *front, nfront;  /* N: the frontier of a refuted probe (probe_state), -1: none */
    int rpeak;           /* rtop after the last probe's propagation (probe_state) */
    int *front2, *agree; /* N: probe_agreed's frontier of the probe `b`, the cells agreed */
    long long cut_lits, path_lits; /* literals of the refuted leaves' nogoods, of their paths */
#ifdef CSOLVE_RULE_STATS
    long long set_by[NRULES + 3][2]; /* cells set per rule (+ nogoods, probes, decisions):
                                        [0] with a reason of cells, [1] R_COARSE */
#endif
#ifdef CSOLVE_CHECK_NOGOODS
    long long rchecked;  /* reasons checked against the brute-force solutions */
    uint8_t *brute;      /* every solution (N bytes each), by brute force on small grids */
    uint8_t *reported;   /* per solution: handed back already */
    int nbrute;          /* how many; -1: the grid is too big to check */
    long long checked;
#endif
} Learn;

/* The work done, which the logic engine counts into its grades. */
typedef struct {
    long long nodes;
    long long propagations, probes;
    unsigned long long trace; /* (CSOLVE_TRACE) hash of every fixpoint propagate()
                                 reached, in order */
} Counters;

/* The limits: time, nodes, cancellation and the caller's poll hook. */
typedef struct {
    long long max_nodes; /* < 0: unbounded */
    double deadline;   /* seconds on the search's clock, <= 0: none */
    double cpu_seen, wall_seen; /* with cpu_clock: the last CPU time read, and the wall
                                   time then (see past_deadline); cpu_seen < 0: none */
    double remaining;  /* search seconds left over all calls, < 0: unbounded */
    double began;      /* the search's clock when this call of csolve_run began */
    int cpu_clock;     /* time limits in CPU time of the searching thread, not wall time */
    int stop;          /* 1 time, 2 nodes, 3 interrupted, 4 cancelled */
    atomic_int cancelled; /* cancel() was called (from any thread) */
    int checks;
    int (*poll)(void *); /* called every so often: nonzero stops the search (interrupted) */
    void *poll_arg;
} Limits;

struct Search {
    Grid g;
    Settings set;
    Components wc;
    Walk walk;
    Scan scan;
    Crossings cross;
    Sides side;
    Sea sea;
    Tarjan cut;
    Reach reach;
    Probe prb;
    Trail trail;
    Counters count;
    Limits lim;
    Learn lrn;
    CsolveMemo *memo;  /* borrowed (csolve_set_memo), or NULL */
};

static double clock_seconds(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double wall_seconds(void) { return clock_seconds(CLOCK_MONOTONIC); }

/* Wall time, or with cpu_clock the CPU time of the calling thread (the search runs in
   the thread that called csolve_run()), so that a caller that budgets CPU time (the logic
   engine) gets the same work from the core on a busy machine as on an idle one. */
static double now_seconds(const Search *s) {
    return s->lim.cpu_clock ? clock_seconds(CLOCK_THREAD_CPUTIME_ID) : wall_seconds();
}

/* Whether the search's clock has passed s->lim.deadline. Reading a thread's CPU time is a
   system call, and the propagation asks at every round; the wall clock is cheap to read
   and a thread's CPU time grows no faster than it, so while the last CPU reading plus
   the wall time since is within the deadline, the answer is no without a new reading
   (the answer is always the exact one). Measured on janko 1108's walkthrough, where
   the logic engine's guide asks the core some 11,000 questions: 4% of its time was
   spent reading the CPU clock. */
static int past_deadline(Search *s) {
    if (!s->lim.cpu_clock) return now_seconds(s) > s->lim.deadline;
    double wall = wall_seconds();
    if (s->lim.cpu_seen >= 0 && s->lim.cpu_seen + (wall - s->lim.wall_seen) <= s->lim.deadline)
        return 0;
    s->lim.cpu_seen = now_seconds(s);
    s->lim.wall_seen = wall;
    return s->lim.cpu_seen > s->lim.deadline;
}

/* Polls the clock and the caller's poll hook (the binding's: Python's signal handlers)
 * every so often; sets s->lim.stop. */
static int limit_reached(Search *s) {
    if (s->lim.stop) return 1;
    if (atomic_load_explicit(&s->lim.cancelled, memory_order_relaxed)) {
        s->lim.stop = 4;
        return 1;
    }
    if (s->lim.deadline > 0 && past_deadline(s)) {
        s->lim.stop = 1;
        return 1;
    }
    if (++s->lim.checks < 16) return 0;
    s->lim.checks = 0;
    if (s->lim.poll && s->lim.poll(s->lim.poll_arg)) {
        s->lim.stop = 3;
        return 1;
    }
    return 0;
}

static int assign(uint8_t *col, int cell, int color, int *changed) {
    if (col[cell] == color) return OK;
    if (col[cell] != UNK) return FAIL;
    col[cell] = (uint8_t)color;
    (*changed)++;
    return OK;
}

/* ---- reasons ------------------------------------------------------------------------
 *
 * With learning (section "learning") the search records, for every cell set in a state
 * at level L > 0 (L decisions above it), the level and the reason: the cells whose colors
 * in that state imply the cell's color (a list in rbuf, written by the rule that set it
 * with rgive()), R_DECISION (the decision of level L), R_PROBE (the assumption of a probe)
 * or R_COARSE, "the decisions at levels <= L", which is always sound. A rule that knows a
 * short reason gives it; every other cell a rule sets gets R_COARSE after the rule
 * (rsweep). A rule that refutes a state names the cells involved (rconflict) or leaves
 * the refutation R_COARSE. analyse() (section "learning") walks the reasons back from a
 * refutation to the decisions it needs.
 *
 * A state here is a copy, not a trail, so the records are never undone: a cell keeps the
 * record written when it was set in the current path's states, because no state where it
 * is unknown is propagated until the search leaves that path (probes propagate copies
 * that hold it; the deletion tests of LEARN_TESTS, which propagate older states, record
 * nothing). rbuf is a stack by level: a child of level L writes from lvl_top[L] on,
 * over whatever a discarded sibling wrote. Level 0 (the root) records nothing: its cells
 * need no reason. */

enum { R_COARSE = -1, R_DECISION = -2, R_PROBE = -3 };

#ifdef CSOLVE_CHECK_NOGOODS
static void check_reason(Search *s, const uint8_t *col, int cell, const int *cells, int n,
                         int all);
#endif

static int rgrow(Learn *L) {
    int cap = L->rcap ? L->rcap * 2 : 1024;
    int *buf = realloc(L->rbuf, sizeof(int) * (size_t)cap);
    if (!buf) return 0;
    L->rbuf = buf;
    L->rcap = cap;
    return 1;
}

/* A reason is written as rbegin(), radd() of each cell, rlength(). */
static inline int rbegin(Learn *L) {
    L->rbad = 0;
    return L->rtop;
}

static inline void radd(Learn *L, int cell) {
    if (L->rtop == L->rcap && !rgrow(L)) {
        L->rbad = 1;
        return;
    }
    L->rbuf[L->rtop++] = cell;
}

/* The length of the reason begun at `from`, or R_COARSE when it did not fit. */
static inline int rlength(const Learn *L, int from) { return L->rbad ? R_COARSE : L->rtop - from; }

static int rpush(Learn *L, const int *cells, int n, int *from) {
    *from = rbegin(L);
    for (int j = 0; j < n; j++) radd(L, cells[j]);
    return rlength(L, *from);
}

/* Cell `cell`, just set in `col`, has the reason of n cells from rbuf[from] (n < 0:
 * R_COARSE). `all`: the reason holds in every solution (a rule's), not only in those not
 * yet handed back (a nogood's, a probe's). */
static void rgive(Search *s, const uint8_t *col, int cell, int from, int n, int all) {
    Learn *L = &s->lrn;
    L->rlev[cell] = L->level;
    L->rfrom[cell] = from;
    L->rlen[cell] = n < 0 ? R_COARSE : n;
    L->rmark[cell] = L->rmark_now;
#ifdef CSOLVE_CHECK_NOGOODS
    if (n >= 0) check_reason(s, col, cell, L->rbuf + from, n, all);
#else
    (void)col;
    (void)all;
#endif
}

/* The state `col` is refuted by the n cells from rbuf[from] (n < 0: R_COARSE). */
static void rconflict(Search *s, const uint8_t *col, int from, int n, int all) {
    Learn *L = &s->lrn;
    L->cfrom = from;
    L->clen = n < 0 ? R_COARSE : n;
#ifdef CSOLVE_CHECK_NOGOODS
    if (n >= 0) check_reason(s, col, -1, L->rbuf + from, n, all);
#else
    (void)col;
    (void)all;
#endif
}

/* A new stamp for rmark: the marks given so far are old. */
static void rmark_next(Search *s) {
    Learn *L = &s->lrn;
    if (++L->rmark_now > STAMP_LIMIT) {
        memset(L->rmark, 0, sizeof(int) * (size_t)s->g.N);
        L->rmark_now = 1;
    }
}

/* A new stamp for the walks of the reasons (wmark, their own marks: the rules'
 * are in use while they run). */
static int wall_stamp(Learn *L) {
    if (L->wmark_now >= STAMP_LIMIT) {
        memset(L->wmark, 0, sizeof(int) * (size_t)L->ncells);
        L->wmark_now = 0;
    }
    return ++L->wmark_now;
}

/* After a rule: the cells it set without a reason get R_COARSE. */
static void rsweep(Search *s, const uint8_t *col, int rule) {
    Learn *L = &s->lrn;
    int N = s->g.N;
    for (int i = 0; i < N; i++) {
        if (col[i] == L->snap[i]) continue;
        int coarse = L->rmark[i] != L->rmark_now;
        if (coarse) {
            L->rlev[i] = L->level;
            L->rlen[i] = R_COARSE;
        }
#ifdef CSOLVE_RULE_STATS
        L->set_by[rule][coarse]++;
#else
        (void)rule;
#endif
        L->snap[i] = col[i];
    }
    rmark_next(s);
}

/* assign() with a reason (rgive): n cells from rbuf[from], R_COARSE when n < 0. On a
 * contradiction the refutation is the reason and the cell. */
static int assign_r(Search *s, uint8_t *col, int cell, int color, int *changed, int from, int n) {
    if (col[cell] == color) return OK;
    if (col[cell] != UNK) {
        if (s->lrn.rec) {
            Learn *L = &s->lrn;
            int f = rbegin(L);
            for (int j = 0; n >= 0 && j < n; j++) radd(L, L->rbuf[from + j]);
            radd(L, cell);
            rconflict(s, col, f, n < 0 ? R_COARSE : rlength(L, f), 1);
        }
        return FAIL;
    }
    col[cell] = (uint8_t)color;
    (*changed)++;
    if (s->lrn.rec) rgive(s, col, cell, from, n, 1);
    return OK;
}

/* ---- rows of bits -------------------------------------------------------------------
 *
 * On grids of at most 64 columns several rules read the grid as one word per row (bit c:
 * column c): a few word operations per row rather than four neighbours per cell. */

/* Row r of `x` (rows of bits, grids of at most 64 columns) and its neighbours in the rows
 * above and below. */
static inline uint64_t spread(const uint64_t *x, int r, int R) {
    return x[r] | x[r] << 1 | x[r] >> 1 | (r > 0 ? x[r - 1] : 0) | (r + 1 < R ? x[r + 1] : 0);
}

/* The index of the lowest set bit of x (not 0). */
static inline int lowest_bit(uint64_t x) {
#if defined(__GNUC__)
    return __builtin_ctzll(x);
#else
    int b = 0;
    for (; !(x & 1); x >>= 1) b++;
    return b;
#endif
}

/* The number of set bits of x (without a popcount instruction the builtin is a call). */
static inline int bits_in(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* The runs of set bits of row `m` that hold a bit of `x` (x within m): upwards through
 * the carries of m + x, downwards a bit at a time (the runs between black cells are
 * short: fewer instructions than shifts of doubling length, by callgrind). */
static inline uint64_t row_runs(uint64_t x, uint64_t m) {
    uint64_t up = (((m + x) ^ m) & m) | x, down = x;
    for (uint64_t next; (next = down | ((down >> 1) & m)) != down;) down = next;
    return up | down;
}

/* The unknown, black and white cells of row r of `col` (a grid of at most 64 columns), as
 * rows of bits in out[UNK], out[BLK], out[WHT]: eight bytes at a time (past the row's end
 * while the grid goes on; the bits past its last column are dropped), the low bit and
 * the high bit of each byte (the colors are 0, 1 and 2) gathered by a multiplication. */
static inline void row_colors(const Search *s, const uint8_t *col, int r, uint64_t *out) {
    const uint64_t ones = 0x0101010101010101ULL, gather = 0x0102040810204080ULL;
    int C = s->g.C, avail = s->g.N - r * C, c = 0;
    const uint8_t *row = col + (size_t)r * C;
    uint64_t black = 0, white = 0, all = C == 64 ? ~(uint64_t)0 : ((uint64_t)1 << C) - 1;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; c < C && c + 8 <= avail; c += 8) {
        uint64_t v;
        memcpy(&v, row + c, 8);
        black |= ((v & ones) * gather >> 56) << c;
        white |= (((v >> 1) & ones) * gather >> 56) << c;
    }
#endif
    for (; c < C; c++) {
        black |= (uint64_t)(row[c] == BLK) << c;
        white |= (uint64_t)(row[c] == WHT) << c;
    }
    black &= all;
    white &= all;
    out[UNK] = all & ~(black | white);
    out[BLK] = black;
    out[WHT] = white;
}

/* ---- white components ------------------------------------------------------------- */

/* Labels the white components (comp[], and their cells contiguous in comp_cells from
 * comp_start[c]); returns their number, or -1 when two clues share one. The labels are a
 * function of the white cells alone, so a state with the same white cells as the last
 * one labelled keeps them (no rule writes them). */
static int white_components(Search *s, const uint8_t *col) {
    int N = s->g.N, n = 0, fill = 0;
    if (s->wc.comp_count != -2) {
        int differ = 0; /* WHT is the only state with bit 1 */
        for (int i = 0; i < N; i++) differ |= (col[i] ^ s->wc.comp_of[i]) & 2;
        if (!differ) return s->wc.comp_count;
    }
    memcpy(s->wc.comp_of, col, N);
    s->wc.comp_count = -1;
    const int *nb = s->g.nb, *cell_clue = s->g.cell_clue;
    int *comp = s->wc.comp, *cells = s->wc.comp_cells;
    for (int i = 0; i < N; i++) comp[i] = -1;
    for (int i = 0; i < N; i++) {
        if (col[i] != WHT || comp[i] >= 0) continue;
        int start = fill, clue = -1;
        s->wc.comp_start[n] = start;
        cells[fill++] = i;
        comp[i] = n;
        for (int q = start; q < fill; q++) {
            int v = cells[q];
            if (cell_clue[v] >= 0) {
                if (clue >= 0) {
                    s->wc.bad_from = start;
                    s->wc.bad_to = fill;
                    return -1;
                }
                clue = cell_clue[v];
            }
            for (int d = 0; d < 4; d++) {
                int w = nb[v * 4 + d];
                if (w >= 0 && col[w] == WHT && comp[w] < 0) {
                    comp[w] = n;
                    cells[fill++] = w;
                }
            }
        }
        s->wc.comp_size[n] = fill - start;
        s->wc.comp_clue[n] = clue;
        n++;
    }
    s->wc.comp_start[n] = fill;
    s->wc.comp_count = n;
    return n;
}

/* Unknown cell i of rule_islands: black when whitening it would join two clues or
 * overfill an island (its white neighbours as labelled; a cell whitened since is not
 * counted). */
static void join_guard(Search *s, uint8_t *col, int i, int *changed) {
    int seen[4], ns = 0, clue = s->g.cell_clue[i], total = 1, bad = 0;
    for (int d = 0; d < 4; d++) {
        int w = s->g.nb[i * 4 + d];
        if (w < 0 || col[w] != WHT) continue;
        int c = s->wc.comp[w];
        if (c < 0) continue; /* whitened during this pass */
        int dup = 0;
        for (int j = 0; j < ns; j++) dup |= seen[j] == c;
        if (dup) continue;
        seen[ns++] = c;
        total += s->wc.comp_size[c];
        int k = s->wc.comp_clue[c];
        if (k >= 0) {
            if (clue >= 0) bad = 1;
            clue = k;
        }
    }
    if (ns == 0) return;
    if (!bad && clue >= 0 && s->g.clue_val[clue] > 0 && total > s->g.clue_val[clue]) bad = 1;
    if (!bad) return;
    col[i] = BLK;
    (*changed)++;
    if (s->lrn.rec) { /* the cells of the components it touches */
        Learn *L = &s->lrn;
        int f = rbegin(L);
        for (int j = 0; j < ns; j++)
            for (int q = s->wc.comp_start[seen[j]]; q < s->wc.comp_start[seen[j] + 1]; q++)
                radd(L, s->wc.comp_cells[q]);
        rgive(s, col, i, f, rlength(L, f), 1);
    }
}

/* Islands: contradictions, borders of complete islands, single exits, and unknown cells
 * whose whitening would join two clues or overfill an island. */
static int rule_islands(Search *s, uint8_t *col, int ncomp, int *changed) {
    int N = s->g.N, R = s->g.R, before = *changed;
    const int *nb = s->g.nb, *comp = s->wc.comp, *cells = s->wc.comp_cells;
    int *seen = s->walk.seen;
    /* (at most 64 columns) the white and unknown cells as rows of bits, and the cells next
       to an unknown cell: the cells of an island next to none have no neighbour to wall
       in or to grow through (a cell set in this pass was unknown before it) */
    uint64_t *white = s->scan.island_rows, *unknown = white ? white + R : NULL;
    uint64_t *near = white ? unknown + R : NULL;
    const int *cell_row = s->g.cell_row;
    const uint64_t *cell_bit = s->g.cell_bit;
    if (white) {
        for (int r = 0; r < R; r++) {
            uint64_t by[3];
            row_colors(s, col, r, by);
            white[r] = by[WHT];
            unknown[r] = by[UNK];
        }
        for (int r = 0; r < R; r++) near[r] = spread(unknown, r, R);
    }
    for (int c = 0; c < ncomp; c++) {
        int from = s->wc.comp_start[c], to = s->wc.comp_start[c + 1];
        int k = s->wc.comp_clue[c], size = s->wc.comp_size[c], val = k >= 0 ? s->g.clue_val[k] : 0;
        if (k >= 0 && val <= 0) continue; /* '?': any size */
        if (k >= 0 && size > val) {
            if (s->lrn.rec) { /* the island's cells */
                int f, n = rpush(&s->lrn, cells + from, size, &f);
                rconflict(s, col, f, n, 1);
            }
            return FAIL;
        }
        if (k >= 0 && size == val) {
            int rf = 0, rn = R_COARSE; /* the reason of its border: the island's cells */
            for (int q = from; q < to; q++) {
                int v = cells[q];
                if (near && !(near[cell_row[v]] & cell_bit[v])) continue;
                for (int d = 0; d < 4; d++) {
                    int w = nb[v * 4 + d];
                    if (w < 0 || col[w] != UNK) continue;
                    if (s->lrn.rec && rn == R_COARSE) rn = rpush(&s->lrn, cells + from, size, &rf);
                    assign_r(s, col, w, BLK, changed, rf, rn);
                }
            }
            continue;
        }
        /* an incomplete island or a clueless white component: its exits (a second one
           ends the look: only none or one exit decides anything) */
        int stamp = ++s->walk.stamp_now, exits = 0, one = -1;
        for (int q = from; q < to && exits < 2; q++) {
            int v = cells[q];
            if (near && !(near[cell_row[v]] & cell_bit[v])) continue;
            for (int d = 0; d < 4; d++) {
                int w = nb[v * 4 + d];
                /* a neighbour whitened earlier in this pass (comp -1) is an exit too */
                if (w >= 0 && (col[w] == UNK || (col[w] == WHT && comp[w] < 0)) &&
                    seen[w] != stamp) {
                    seen[w] = stamp;
                    exits++;
                    one = w;
                }
            }
        }
        if (exits > 1) continue;
        int rf = 0, rn = R_COARSE;
        if (s->lrn.rec) { /* the component's cells and its black neighbours */
            Learn *L = &s->lrn;
            rf = rbegin(L);
            for (int q = from; q < to; q++) {
                int v = cells[q];
                radd(L, v);
                for (int d = 0; d < 4; d++) {
                    int w = nb[v * 4 + d];
                    if (w >= 0 && col[w] == BLK) radd(L, w);
                }
            }
            rn = rlength(L, rf);
        }
        if (exits == 0) {
            if (s->lrn.rec) rconflict(s, col, rf, rn, 1);
            return FAIL;
        }
        if (!assign_r(s, col, one, WHT, changed, rf, rn)) return FAIL;
    }
    if (s->scan.island_rows) {
        /* the unknown cells next to two white cells or more, or next to one and a clue
           themselves, in the order of the cells, by rows of bits (only the cell looked at
           changes, so the rows read first hold). A cell next to a single white cell joins
           no two clues, and overfills no island: the complete ones are walled in above */
        int C = s->g.C;
        const uint64_t *clue_rows = s->g.clue_rows;
        for (int r = 0; r < R && *changed != before; r++) { /* read again if need be */
            uint64_t by[3];
            row_colors(s, col, r, by);
            white[r] = by[WHT];
            unknown[r] = by[UNK];
        }
        for (int r = 0; r < R; r++) {
            uint64_t up = r > 0 ? white[r - 1] : 0, down = r + 1 < R ? white[r + 1] : 0;
            uint64_t left = white[r] << 1, right = white[r] >> 1;
            uint64_t two = (up & (down | left | right)) | (down & (left | right)) | (left & right);
            uint64_t any = up | down | left | right;
            for (uint64_t m = (two | (any & clue_rows[r])) & unknown[r]; m; m &= m - 1)
                join_guard(s, col, r * C + lowest_bit(m), changed);
        }
        return OK;
    }
    for (int i = 0; i < N; i++)
        if (col[i] == UNK) join_guard(s, col, i, changed);
    return OK;
}

/* ---- pools -------------------------------------------------------------------------- */

/* The block whose top left cell is `a`, which has three black cells or more: its fourth
 * cell is white, four black cells a contradiction. */
static int pool_block(Search *s, uint8_t *col, int a, int *changed) {
    int C = s->g.C;
    int cells[4] = {a, a + 1, a + C, a + C + 1};
    int black = 0, nunk = 0, unknown = -1;
    for (int j = 0; j < 4; j++) {
        uint8_t v = col[cells[j]];
        if (v == BLK) {
            black++;
        } else if (v == UNK) {
            nunk++;
            unknown = cells[j];
        }
    }
    if (black < 3 || (black == 3 && nunk != 1)) return OK;
    int rf = 0, rn = R_COARSE;
    if (s->lrn.rec) { /* the block's black cells */
        rf = rbegin(&s->lrn);
        for (int j = 0; j < 4; j++)
            if (col[cells[j]] == BLK) radd(&s->lrn, cells[j]);
        rn = rlength(&s->lrn, rf);
    }
    if (black == 4) {
        if (s->lrn.rec) rconflict(s, col, rf, rn, 1);
        return FAIL;
    }
    assign_r(s, col, unknown, WHT, changed, rf, rn);
    return OK;
}

/* Scans the blocks of each pair of rows only where one has three black cells or more:
 * on grids of at most 64 columns found by bits from the rows' black cells (the blocks
 * with two black cells on top and one below or the other way round), else from the
 * black cells per column of the pair (a block's count is two columns' sum), by bits
 * less the blocks with a white cell (nothing left to do). Blocks in the order of the
 * cells either way. The rule only whitens, so the black cells read first hold for the
 * whole scan, and so does a white cell. */
static int rule_pools(Search *s, uint8_t *col, int ncomp, int *changed) {
    (void)ncomp;
    int R = s->g.R, C = s->g.C;
    if (C <= 64) {
        uint64_t by[3], blocks = ((uint64_t)1 << (C - 1)) - 1; /* x < C - 1 */
        row_colors(s, col, 0, by);
        for (int r = 0; r + 1 < R; r++) {
            uint64_t top = by[BLK], wtop = by[WHT];
            row_colors(s, col, r + 1, by);
            uint64_t bottom = by[BLK], wbottom = by[WHT];
            /* a block with a white cell is done with: three black cells and a white one */
            uint64_t white = wtop | wtop >> 1 | wbottom | wbottom >> 1;
            uint64_t hot = ((top & top >> 1 & (bottom | bottom >> 1)) |
                            (bottom & bottom >> 1 & (top | top >> 1))) & ~white & blocks;
            for (; hot; hot &= hot - 1)
                if (!pool_block(s, col, r * C + lowest_bit(hot), changed)) return FAIL;
        }
        return OK;
    }
    uint8_t *pair = s->scan.pool_pair;
    for (int r = 0; r + 1 < R; r++) {
        const uint8_t *top = col + (size_t)r * C, *bottom = top + C;
        for (int x = 0; x < C; x++) pair[x] = (uint8_t)((top[x] == BLK) + (bottom[x] == BLK));
        int hot = 0;
        for (int x = 0; x + 1 < C; x++) hot |= pair[x] + pair[x + 1] >= 3;
        if (!hot) continue;
        for (int x = 0; x + 1 < C; x++)
            if (pair[x] + pair[x + 1] >= 3 && !pool_block(s, col, r * C + x, changed)) return FAIL;
    }
    return OK;
}

/* ---- counting ----------------------------------------------------------------------- */

static int rule_counting(Search *s, uint8_t *col, int ncomp, int *changed) {
    (void)ncomp;
    if (s->g.has_q) return OK;
    int N = s->g.N, white = 0, unknown = 0;
    for (int i = 0; i < N; i++) {
        white += col[i] == WHT;
        unknown += col[i] == UNK;
    }
    int want = s->g.total_white;
    int bad = white > want || white + unknown < want;
    if (!bad && (unknown == 0 || (white != want && white + unknown != want))) return OK;
    /* too many white cells, or all of them placed: the white cells; too few cells left
       for the white ones, or just enough: the black cells */
    uint8_t fill = white >= want ? BLK : WHT;
    int rf = 0, rn = R_COARSE;
    if (s->lrn.rec) {
        rf = rbegin(&s->lrn);
        for (int i = 0; i < N; i++)
            if (col[i] == (fill == BLK ? WHT : BLK)) radd(&s->lrn, i);
        rn = rlength(&s->lrn, rf);
    }
    if (bad) {
        if (s->lrn.rec) rconflict(s, col, rf, rn, 1);
        return FAIL;
    }
    for (int i = 0; i < N; i++) {
        if (col[i] == UNK) {
            col[i] = fill;
            (*changed)++;
            if (s->lrn.rec) rgive(s, col, i, rf, rn, 1);
        }
    }
    return OK;
}

/* ---- areas -------------------------------------------------------------------------- */

/* The rows of bits of areas_rows (scan.area_rows): the non-black, white and unknown cells,
 * the cells in no region looked at yet, and the region's flood. */
enum { AREA_OPEN, AREA_WHITE, AREA_UNKNOWN, AREA_LEFT, AREA_FLOOD, AREA_NROWS };

/* The verdict of rule_areas on a region of `tail` cells, `white` of them white, holding
 * `clues` clues that add up to `sum` (q: one of them is `?`): AREA_QUIET (nothing),
 * AREA_BAD (a contradiction), else the color its unknown cells take. */
enum { AREA_QUIET = -1, AREA_BAD = -2 };
static int area_verdict(int tail, int white, int clues, int sum, int q) {
    if (clues == 0) return white > 0 ? AREA_BAD : BLK;
    if (q || white == tail || (sum < tail && white < sum)) return AREA_QUIET;
    if (sum > tail || white > sum) return AREA_BAD;
    return sum == tail ? WHT : BLK;
}

/* The region of open cells (rows of bits) that holds the cells of `flood` (within open,
 * each row's runs whole; rows outside [*lo, *hi] are 0 on entry): a row whose cells
 * changed puts the rows next to it on a stack (pending: on it), which takes each row's
 * new cells from the rows next to it, until the stack is empty. */
static void flood_rows(Search *s, uint64_t *flood, const uint64_t *open, int *lo, int *hi) {
    int R = s->g.R, *stack = s->scan.flood_stack, n = 0;
    uint8_t *pending = s->scan.flood_pending;
    for (int r = *lo > 0 ? *lo - 1 : 0; r <= *hi + 1 && r < R; r++) {
        stack[n++] = r;
        pending[r] = 1;
    }
    while (n > 0) {
        int r = stack[--n];
        pending[r] = 0;
        uint64_t x = (flood[r] | (r > 0 ? flood[r - 1] : 0) |
                      (r + 1 < R ? flood[r + 1] : 0)) & open[r];
        if (x == flood[r]) continue;
        flood[r] = row_runs(x, open[r]);
        if (r < *lo) *lo = r;
        if (r > *hi) *hi = r;
        if (r > 0 && !pending[r - 1]) {
            stack[n++] = r - 1;
            pending[r - 1] = 1;
        }
        if (r + 1 < R && !pending[r + 1]) {
            stack[n++] = r + 1;
            pending[r + 1] = 1;
        }
    }
}

/* (at most 64 columns, without reasons) rule_areas by rows of bits: each region of
 * non-black cells with an unknown cell a flood fill of the rows, its cells and white
 * cells counted by bits, its clues read off the rows of clue cells. The regions are
 * disjoint and each bounded by black cells, so a region's fill changes no other region:
 * the same cells as the walk below sets, in another order. A region of white cells alone
 * (most often a complete island) is quiet when it holds a clue and a contradiction when
 * not, so those are flooded all at once from the clues: a white cell the flood misses
 * refutes the state. */
static int areas_rows(Search *s, uint8_t *col, int *changed) {
    int R = s->g.R, C = s->g.C;
    uint64_t *rows = s->scan.area_rows;
    uint64_t *open = rows + AREA_OPEN * R, *white = rows + AREA_WHITE * R;
    uint64_t *unknown = rows + AREA_UNKNOWN * R, *left = rows + AREA_LEFT * R;
    uint64_t *flood = rows + AREA_FLOOD * R;
    const uint64_t *clue_rows = s->g.clue_rows;
    const int *cell_clue = s->g.cell_clue, *clue_val = s->g.clue_val;
    for (int r = 0; r < R; r++) {
        uint64_t by[3];
        row_colors(s, col, r, by);
        white[r] = by[WHT];
        unknown[r] = by[UNK];
        open[r] = left[r] = by[WHT] | by[UNK];
        flood[r] = 0;
    }
    for (int r0 = 0; r0 < R; r0++) {
        while (left[r0] & unknown[r0]) {
            uint64_t u = left[r0] & unknown[r0];
            int lo = r0, hi = r0;
            flood[r0] = row_runs(u & (~u + 1), open[r0]);
            flood_rows(s, flood, open, &lo, &hi);
            int tail = 0, nwhite = 0, clues = 0, sum = 0, q = 0;
            for (int r = lo; r <= hi; r++) {
                tail += bits_in(flood[r]);
                nwhite += bits_in(flood[r] & white[r]);
                left[r] &= ~flood[r];
                for (uint64_t m = flood[r] & clue_rows[r]; m; m &= m - 1) {
                    int k = cell_clue[r * C + lowest_bit(m)];
                    clues++;
                    if (clue_val[k] > 0) sum += clue_val[k];
                    else q = 1;
                }
            }
            int verdict = area_verdict(tail, nwhite, clues, sum, q);
            if (verdict == AREA_BAD) return FAIL;
            for (int r = lo; r <= hi; r++) {
                if (verdict != AREA_QUIET)
                    for (uint64_t m = flood[r] & unknown[r]; m; m &= m - 1) {
                        col[r * C + lowest_bit(m)] = (uint8_t)verdict;
                        (*changed)++;
                    }
                flood[r] = 0;
            }
        }
    }
    /* the regions of white cells alone, from their clues */
    int lo = R, hi = -1;
    for (int r = 0; r < R; r++) {
        flood[r] = left[r] & clue_rows[r];
        if (flood[r] && r < lo) lo = r;
        if (flood[r]) hi = r;
        flood[r] = row_runs(flood[r], left[r]);
    }
    if (hi >= 0) flood_rows(s, flood, left, &lo, &hi);
    for (int r = 0; r < R; r++)
        if (left[r] & ~flood[r]) return FAIL;
    return OK;
}

/* Every island lies inside one region of non-black cells, so a region holds exactly the
 * white cells of the clues inside it: more clue cells than room is a contradiction, just
 * enough room makes it all white, and a region whose white cells already number its clue
 * total has the rest black. */
static int rule_areas(Search *s, uint8_t *col, int ncomp, int *changed) {
    (void)ncomp;
    if (s->scan.area_rows && !s->lrn.rec) return areas_rows(s, col, changed);
    int N = s->g.N, stamp = ++s->walk.stamp_now;
    const int *nb = s->g.nb, *cell_clue = s->g.cell_clue, *clue_val = s->g.clue_val;
    int *seen = s->walk.seen, *queue = s->walk.queue;
    for (int i = 0; i < N; i++) {
        if (col[i] == BLK || seen[i] == stamp) continue;
        int head = 0, tail = 0, white = 0, clues = 0, sum = 0, q = 0;
        queue[tail++] = i;
        seen[i] = stamp;
        while (head < tail) {
            int v = queue[head++];
            if (col[v] == WHT) white++;
            int k = cell_clue[v];
            if (k >= 0) {
                clues++;
                if (clue_val[k] > 0) sum += clue_val[k];
                else q = 1;
            }
            for (int d = 0; d < 4; d++) {
                int w = nb[v * 4 + d];
                if (w >= 0 && col[w] != BLK && seen[w] != stamp) {
                    seen[w] = stamp;
                    queue[tail++] = w;
                }
            }
        }
        int verdict = area_verdict(tail, white, clues, sum, q);
        if (verdict == AREA_QUIET) continue;
        int bad = verdict == AREA_BAD;
        uint8_t fill = bad ? BLK : (uint8_t)verdict;
        int rf = 0, rn = R_COARSE;
        if (s->lrn.rec) {
            /* the black cells round the region, and its white cells when they count
               (white cells without a clue, or more or all of the clues' cells) */
            Learn *L = &s->lrn;
            int whites = clues == 0 || white > sum || (!bad && fill == BLK);
            int bstamp = wall_stamp(L), *mark = L->wmark;
            rf = rbegin(L);
            for (int j = 0; j < tail; j++) {
                int v = queue[j];
                if (whites && col[v] == WHT) radd(L, v);
                for (int d = 0; d < 4; d++) {
                    int w = nb[v * 4 + d];
                    if (w >= 0 && col[w] == BLK && mark[w] != bstamp) {
                        mark[w] = bstamp;
                        radd(L, w);
                    }
                }
            }
            rn = rlength(L, rf);
        }
        if (bad) {
            if (s->lrn.rec) rconflict(s, col, rf, rn, 1);
            return FAIL;
        }
        for (int j = 0; j < tail; j++) {
            int v = s->walk.queue[j];
            if (col[v] == UNK) {
                col[v] = fill;
                (*changed)++;
                if (s->lrn.rec) rgive(s, col, v, rf, rn, 1);
            }
        }
    }
    return OK;
}

/* ---- crossings ---------------------------------------------------------------------- */

/* Whether the cells of white component c include one on the edge of the grid. */
static int on_edge(const Search *s, int c) {
    for (int q = s->wc.comp_start[c]; q < s->wc.comp_start[c + 1]; q++) {
        int v = s->wc.comp_cells[q];
        for (int d = 0; d < 4; d++)
            if (s->g.nb[v * 4 + d] < 0) return 1;
    }
    return 0;
}

/* Widens the bounding box (rows least, most, columns least, most) to hold cell v. */
static void widen(const Search *s, int *box, int v) {
    int r = v / s->g.C, c = v % s->g.C;
    if (r < box[0]) box[0] = r;
    if (r > box[1]) box[1] = r;
    if (c < box[2]) box[2] = c;
    if (c > box[3]) box[3] = c;
}

/* Rows plus columns spanned by the box widened to hold cell v (-1: none). */
static int span(const Search *s, const int *box, int v) {
    int b[4] = {box[0], box[1], box[2], box[3]};
    if (v >= 0) widen(s, b, v);
    return (b[1] - b[0] + 1) + (b[3] - b[2] + 1);
}

/* Whether a path of `sea` black cells joining two diagonal neighbours can, closed by
 * their diagonal, enclose a region of `area` cells. The path's cells have 2 * sea + 2
 * sides not shared along the path; those facing inside are the perimeter of the region,
 * those facing outside the perimeter of region and path together, and n cells have a
 * perimeter of at least 2 * ceil(2 * sqrt(n)). */
static int enclosable(const Search *s, int area, int sea) {
    return sea >= 3 && s->g.min_perimeter[area] + s->g.min_perimeter[area + sea] <= 2 * sea + 2;
}

/* Prefix sums of the black cells, for counting them in any box. */
static void sum_black(Search *s, const uint8_t *col) {
    int R = s->g.R, C = s->g.C, W = C + 1;
    for (int x = 0; x <= C; x++) s->scan.black_sum[x] = 0;
    for (int r = 0; r < R; r++) {
        s->scan.black_sum[(r + 1) * W] = 0;
        for (int x = 0; x < C; x++)
            s->scan.black_sum[(r + 1) * W + x + 1] = s->scan.black_sum[r * W + x + 1] +
                                                 s->scan.black_sum[(r + 1) * W + x] -
                                                 s->scan.black_sum[r * W + x] +
                                                 (col[r * C + x] == BLK);
    }
}

/* Black cells in rows r0..r1, columns c0..c1. */
static int black_in(const Search *s, int r0, int r1, int c0, int c1) {
    int W = s->g.C + 1;
    return s->scan.black_sum[(r1 + 1) * W + c1 + 1] - s->scan.black_sum[r0 * W + c1 + 1] -
           s->scan.black_sum[(r1 + 1) * W + c0] + s->scan.black_sum[r0 * W + c0];
}

#define FRAME_CAP 256   /* boxes listed over all enclosed islands */
#define FRAME_WORK 20000 /* boxes examined for one island; beyond, it is left unframed */

/* The boxes an enclosed island of n cells may span: h rows and w columns with h + w
 * within its limit and h * w >= n, holding its cells, clear of the edge of the grid, with
 * at least n cells that are not black. None: a contradiction. When every such box has
 * exactly n, the island fills whichever it is, so the cells all of them share are white.
 * The boxes are listed for the reach rule when there are few. */
static int frame_island(Search *s, uint8_t *col, int c, int n, int *changed) {
    int R = s->g.R, C = s->g.C, limit = s->cross.comp_enclosed[c] - 1;
    const int *box = s->cross.comp_box + 4 * c;
    int found = 0, all_full = 1, listed = 1, from = s->cross.nframes, work = 0;
    int meet[4] = {0, R, 0, C}; /* rows and columns every box shares */
    for (int h = box[1] - box[0] + 1; h <= R - 2 && h < limit; h++) {
        for (int w = box[3] - box[2] + 1; w <= C - 2 && h + w <= limit; w++) {
            if (h * w < n) continue;
            if (++work > FRAME_WORK) {
                s->cross.nframes = from;
                return OK;
            }
            int rlo = box[1] - h + 1 > 1 ? box[1] - h + 1 : 1;
            int rhi = box[0] < R - 1 - h ? box[0] : R - 1 - h;
            int clo = box[3] - w + 1 > 1 ? box[3] - w + 1 : 1;
            int chi = box[2] < C - 1 - w ? box[2] : C - 1 - w;
            for (int r0 = rlo; r0 <= rhi; r0++) {
                for (int c0 = clo; c0 <= chi; c0++) {
                    if (++work > FRAME_WORK) {
                        s->cross.nframes = from; /* too many boxes to say anything */
                        return OK;
                    }
                    int room = h * w - black_in(s, r0, r0 + h - 1, c0, c0 + w - 1);
                    if (room < n) continue;
                    found++;
                    all_full &= room == n;
                    if (r0 > meet[0]) meet[0] = r0;
                    if (r0 + h - 1 < meet[1]) meet[1] = r0 + h - 1;
                    if (c0 > meet[2]) meet[2] = c0;
                    if (c0 + w - 1 < meet[3]) meet[3] = c0 + w - 1;
                    if (listed && s->cross.nframes < FRAME_CAP) {
                        int *f = s->cross.frame_pool + 4 * s->cross.nframes++;
                        f[0] = r0;
                        f[1] = r0 + h - 1;
                        f[2] = c0;
                        f[3] = c0 + w - 1;
                    } else {
                        listed = 0;
                    }
                }
            }
        }
    }
    if (!found) return FAIL;
    if (listed) {
        s->cross.comp_frames[2 * c] = from;
        s->cross.comp_frames[2 * c + 1] = s->cross.nframes;
    } else {
        s->cross.nframes = from;
    }
    if (all_full) {
        for (int r = meet[0]; r <= meet[1]; r++)
            for (int x = meet[2]; x <= meet[3]; x++)
                if (col[r * C + x] == UNK && !assign(col, r * C + x, WHT, changed)) return FAIL;
    }
    return OK;
}

/* Whether cell v lies in a box that enclosed island c may span (or its boxes are not
 * listed). */
static int in_frames(const Search *s, int c, int v) {
    int from = s->cross.comp_frames[2 * c], to = s->cross.comp_frames[2 * c + 1];
    if (from == to) return 1;
    int r = v / s->g.C, x = v % s->g.C;
    for (int q = from; q < to; q++) {
        const int *f = s->cross.frame_pool + 4 * q;
        if (r >= f[0] && r <= f[1] && x >= f[2] && x <= f[3]) return 1;
    }
    return 0;
}

/* Marks component c walled in, its island spanning fewer than `limit` rows plus columns. */
static void wall_in(Search *s, int c, int limit) {
    if (!s->cross.comp_enclosed[c] || limit < s->cross.comp_enclosed[c])
        s->cross.comp_enclosed[c] = limit;
}

/* A 2x2 block with black cells on one diagonal and white cells on the other: the sea
 * joins the two black cells by a path that, closed through the block, walls in one of
 * the two white cells with its whole island. So the two white cells are in different
 * islands, and an island too big to be walled in by the whole sea leaves the other to
 * be walled in, away from the edge of the grid (marked in comp_enclosed for the reach
 * rule). */
static int rule_crossings(Search *s, uint8_t *col, int ncomp, int *changed) {
    int R = s->g.R, C = s->g.C, sea = s->g.has_q ? -1 : s->g.N - s->g.total_white;
    for (int c = 0; c < ncomp; c++) s->cross.comp_enclosed[c] = 0;
    uint64_t by[3] = {0, 0, 0}, top_black = 0, top_white = 0;
    if (C <= 64) row_colors(s, col, 0, by);
    for (int r = 0; r + 1 < R; r++) {
        /* the blocks of the pair of rows that cross, as bits (x: the block's left column)
           on grids of at most 64 columns, else per column (bit 0: black, 1: white) */
        const uint8_t *top = col + (size_t)r * C, *bottom = top + C;
        uint64_t hot = 0;
        uint8_t *hit = s->scan.pool_pair, any = 0;
        if (C <= 64) {
            top_black = by[BLK];
            top_white = by[WHT];
            row_colors(s, col, r + 1, by);
            hot = (top_black & by[BLK] >> 1 & top_white >> 1 & by[WHT]) |
                  (top_white & by[WHT] >> 1 & top_black >> 1 & by[BLK]);
            if (!hot) continue;
        } else {
            for (int x = 0; x + 1 < C; x++) {
                hit[x] = (uint8_t)(((top[x] & bottom[x + 1] & (top[x + 1] >> 1) &
                                     (bottom[x] >> 1)) |
                                    ((top[x] >> 1) & (bottom[x + 1] >> 1) & top[x + 1] &
                                     bottom[x])) &
                                   1);
                any |= hit[x];
            }
            if (!any) continue;
        }
        for (int x = 0; x + 1 < C; x++) {
            if (C <= 64) { /* on to the next block found (its bit) */
                if (!(hot >> x)) break;
                x += lowest_bit(hot >> x);
            } else if (!hit[x]) {
                continue;
            }
            int a = r * C + x, w1, w2;
            if (col[a] == BLK && col[a + C + 1] == BLK && col[a + 1] == WHT &&
                col[a + C] == WHT) {
                w1 = a + 1;
                w2 = a + C;
            } else if (col[a] == WHT && col[a + C + 1] == WHT && col[a + 1] == BLK &&
                       col[a + C] == BLK) {
                w1 = a;
                w2 = a + C + 1;
            } else {
                continue;
            }
            int c1 = s->wc.comp[w1], c2 = s->wc.comp[w2];
            if (c1 < 0 || c2 < 0) continue; /* whitened during this pass */
            if (c1 == c2) return FAIL;
            if (sea < 0) continue;
            int k1 = s->wc.comp_clue[c1], k2 = s->wc.comp_clue[c2];
            int n1 = k1 >= 0 && s->g.clue_val[k1] > 0 ? s->g.clue_val[k1] : s->wc.comp_size[c1];
            int n2 = k2 >= 0 && s->g.clue_val[k2] > 0 ? s->g.clue_val[k2] : s->wc.comp_size[c2];
            /* the bounds only loosen with a longer path: try the longest there is room for */
            int sea1 = sea < s->g.N - n1 ? sea : s->g.N - n1;
            int sea2 = sea < s->g.N - n2 ? sea : s->g.N - n2;
            int ok1 = enclosable(s, n1, sea1), ok2 = enclosable(s, n2, sea2);
            if (!ok1 && !ok2) return FAIL;
            /* a region of n cells spanning h rows and w columns has a perimeter of at
               least 2 * (h + w), so h + w <= sea + 1 - min_perimeter[n + sea] / 2 */
            if (!ok1) wall_in(s, c2, 2 + sea2 - s->g.min_perimeter[n2 + sea2] / 2);
            if (!ok2) wall_in(s, c1, 2 + sea1 - s->g.min_perimeter[n1 + sea1] / 2);
        }
    }
    int sums = 0;
    s->cross.nframes = 0;
    for (int c = 0; c < ncomp; c++) {
        s->cross.comp_frames[2 * c] = s->cross.comp_frames[2 * c + 1] = 0;
        if (!s->cross.comp_enclosed[c]) continue;
        if (on_edge(s, c)) return FAIL;
        int *box = s->cross.comp_box + 4 * c;
        box[0] = box[2] = s->g.N;
        box[1] = box[3] = -1;
        for (int q = s->wc.comp_start[c]; q < s->wc.comp_start[c + 1]; q++)
            widen(s, box, s->wc.comp_cells[q]);
        if (span(s, box, -1) >= s->cross.comp_enclosed[c]) return FAIL;
        int k = s->wc.comp_clue[c];
        if (k < 0 || s->g.clue_val[k] <= 0) continue;
        if (!sums) {
            sum_black(s, col);
            sums = 1;
        }
        int r = frame_island(s, col, c, s->g.clue_val[k], changed);
        if (r != OK) return r;
    }
    return OK;
}

/* ---- sides -------------------------------------------------------------------------- */

/* Cells of the edge of the grid that are not black: along the top row (side 0), the
 * bottom row (1), the left column (2) or the right column (3), between positions lo and
 * hi (clipped to the grid), from the prefix sums s->side.edge_black. */
static int edge_room(const Search *s, int side, int lo, int hi) {
    int len = side < 2 ? s->g.C : s->g.R;
    if (lo < 0) lo = 0;
    if (hi > len - 1) hi = len - 1;
    if (lo > hi) return 0;
    const int *sum = s->side.edge_black + side * (s->g.R + s->g.C + 2);
    return (hi - lo + 1) - (sum[hi + 1] - sum[lo]);
}

/* Lower bounds, over the islands of `area` cells whose bounding box holds `box`, of
 * p - 2b (out[0]) and p - b (out[1]), where p is the island's perimeter and b how many
 * of its sides lie on the edge of the grid. An island spanning h rows and w columns has
 * p >= 2 * (h + w) (and >= the least perimeter of its area); along the top or bottom
 * edge, if its box can reach it, it has at most w sides there and no more than the
 * cells of that edge it may have within w columns of its cells; along the left or right
 * edge the same with h rows, and at most s->side.arc_cap in all (sum_edges). A box the island
 * already spans needs room for it (black cells counted from s->scan.black_sum). */
static void side_excess(const Search *s, const int *box, int area, int *out) {
    int R = s->g.R, C = s->g.C;
    int hmax = R < area ? R : area;
    out[0] = out[1] = 1 << 30;
    for (int h = box[1] - box[0] + 1; h <= hmax; h++) {
        int wmin = (area + h - 1) / h, wcap = area - h + 1 < C ? area - h + 1 : C;
        if (wmin < box[3] - box[2] + 1) wmin = box[3] - box[2] + 1;
        for (int w = wmin; w <= wcap; w++) {
            /* the island's own box, when just as big, must have room for it */
            if (h == box[1] - box[0] + 1 && w == box[3] - box[2] + 1 &&
                h * w - black_in(s, box[0], box[1], box[2], box[3]) < area)
                continue;
            int lo = box[3] - w + 1, hi = box[2] + w - 1, vert;
            int top = box[1] <= h - 1 ? edge_room(s, 0, lo, hi) : 0;
            int bottom = box[0] >= R - h ? edge_room(s, 1, lo, hi) : 0;
            if (top > w) top = w;
            if (bottom > w) bottom = w;
            vert = h == R ? top + bottom : (top > bottom ? top : bottom);
            int rlo = box[1] - h + 1, rhi = box[0] + h - 1, horiz;
            int left = box[3] <= w - 1 ? edge_room(s, 2, rlo, rhi) : 0;
            int right = box[2] >= C - w ? edge_room(s, 3, rlo, rhi) : 0;
            if (left > h) left = h;
            if (right > h) right = h;
            horiz = w == C ? left + right : (left > right ? left : right);
            int p = 2 * (h + w);
            int b = vert + horiz < s->side.arc_cap ? vert + horiz : s->side.arc_cap;
            if (p < s->g.min_perimeter[area]) p = s->g.min_perimeter[area];
            if (p - 2 * b < out[0]) out[0] = p - 2 * b;
            if (p - b < out[1]) out[1] = p - b;
        }
    }
}

/* Whether island c cannot have cell `cell`: black, of another island or next to one. */
static int barred_for(const Search *s, const uint8_t *col, int cell, int c) {
    if (col[cell] == BLK) return 1;
    for (int d = -1; d < 4; d++) {
        int w = d < 0 ? cell : s->g.nb[cell * 4 + d];
        if (w < 0 || col[w] != WHT) continue;
        int cw = s->wc.comp[w];
        if (cw >= 0 && cw != c && s->wc.comp_clue[cw] >= 0) return 1;
    }
    return 0;
}

/* Prefix sums, along the four edges of the grid, of the cells island c cannot have, for
 * edge_room; and in s->side.arc_cap the most sides on the edge it may have. Its cells on the
 * edge form one unbroken arc round the grid (a gap between two of its arcs that holds a
 * cell not its own is walled off by it from the rest of the grid, so it holds sea, and
 * the sea is connected), so they lie within one run of cells it may have (barred_for
 * bars the others), the run holding its cells there already: the edge cells outside
 * that run are barred too. FAIL: its cells there lie in two runs. */
static void edge_sums(Search *s);

static int sum_edges(Search *s, const uint8_t *col, int c) {
    int R = s->g.R, C = s->g.C, stride = R + C + 2, n = s->g.nring;
    uint8_t *gone = s->side.edge_gone;
    for (int side = 0; side < 4; side++) {
        int len = side < 2 ? C : R;
        for (int j = 0; j < len; j++) {
            int cell = side == 0   ? j
                       : side == 1 ? (R - 1) * C + j
                       : side == 2 ? j * C
                                   : j * C + C - 1;
            gone[cell] = (uint8_t)barred_for(s, col, cell, c);
        }
    }
    s->side.arc_cap = 2 * (R + C);
    s->side.run_from = -1;
    int start = -1;
    for (int j = 0; j < n && start < 0; j++)
        if (gone[s->g.ring[j]]) start = j;
    if (start >= 0) {
        /* the runs of cells c may have between barred ones: the one holding c's cells
           (cells of the others are barred too), or without any, the longest */
        int best = 0, own = -1, run = 0, mine = 0, from = start + 1, own_from = -1, own_to = -1;
        for (int t = 1; t <= n; t++) {
            int v = s->g.ring[(start + t) % n];
            if (t == n || gone[v]) {
                if (mine) {
                    if (own >= 0) return FAIL;
                    own = run;
                    own_from = from;
                    own_to = start + t;
                }
                if (run > best) best = run;
                run = mine = 0;
                from = start + t + 1;
                continue;
            }
            for (int d = 0; d < 4; d++) run += s->g.nb[v * 4 + d] < 0;
            mine |= col[v] == WHT && s->wc.comp[v] == c;
        }
        s->side.arc_cap = own >= 0 ? own : best;
        if (own >= 0) {
            for (int t = start + 1; t < start + n; t++)
                if (t < own_from || t >= own_to) gone[s->g.ring[t % n]] = 1;
            s->side.run_from = own_from;
            s->side.run_to = own_to;
        }
    }
    edge_sums(s);
    return OK;
}

/* The prefix sums of s->side.edge_gone along the four edges. */
static void edge_sums(Search *s) {
    int R = s->g.R, C = s->g.C, stride = R + C + 2;
    const uint8_t *gone = s->side.edge_gone;
    for (int side = 0; side < 4; side++) {
        int *sum = s->side.edge_black + side * stride, len = side < 2 ? C : R;
        sum[0] = 0;
        for (int j = 0; j < len; j++) {
            int cell = side == 0   ? j
                       : side == 1 ? (R - 1) * C + j
                       : side == 2 ? j * C
                                   : j * C + C - 1;
            sum[j + 1] = sum[j] + gone[cell];
        }
    }
}

/* Islands of fewer cells count in rule_sides with clue_excess, the bound of side_excess
 * for an island anywhere on the grid, and are not grown by it; and the rule runs only
 * where the islands have SIDES_SPARSE cells or more on average. Measured on the hardest
 * corpus puzzles (islands of 3-11 cells on average), the rule cost 20-40% more time for
 * no fewer nodes (janko-1091, 11 on average: 1.9-2.0 -> 2.3-3.2 s, the machine shared);
 * on the thesis's corner family (research/families.py) it proves every odd n from 9 to
 * 51 at the root in at most a few ms (before: 7x7 in 1,327 nodes, 9x9 not in 60 s), the
 * two-clue family up to 51x51 likewise (before: 12x12 not in 10 s). */
#ifndef SIDES_AREA
#define SIDES_AREA 8
#endif
#ifndef SIDES_SPARSE
#define SIDES_SPARSE 12
#endif

/* side_excess for an island of `area` cells anywhere on the grid, every edge free. */
static void free_excess(const Search *s, int area, int *out) {
    int R = s->g.R, C = s->g.C;
    out[0] = out[1] = 1 << 30;
    for (int h = 1; h <= R && h <= area; h++) {
        int wcap = area - h + 1 < C ? area - h + 1 : C;
        for (int w = (area + h - 1) / h; w <= wcap; w++) {
            int p = 2 * (h + w);
            if (p < s->g.min_perimeter[area]) p = s->g.min_perimeter[area];
            int b = (h == R ? 2 : 1) * w + (w == C ? 2 : 1) * h;
            if (p - 2 * b < out[0]) out[0] = p - 2 * b;
            if (p - b < out[1]) out[1] = p - b;
        }
    }
}

/* How many sides of sea cells lie on the edge of the grid, at least: walking round the
 * edge, the black cells' sides, and between two cells of different islands one side
 * even where no cell is black yet (were the cells between them all white, the two
 * would be one island). Grids of one row or column count the black cells' sides. */
static int edge_sea(const Search *s, const uint8_t *col) {
    int n = s->g.nring, total = 0;
    const int *ring = s->g.ring;
    if (n == 0) {
        for (int i = 0; i < s->g.N; i++)
            if (col[i] == BLK)
                for (int d = 0; d < 4; d++) total += s->g.nb[i * 4 + d] < 0;
        return total;
    }
    int first = -1;
    for (int j = 0; j < n && first < 0; j++) {
        int v = ring[j];
        if (col[v] == WHT && s->wc.comp[v] >= 0 && s->wc.comp_clue[s->wc.comp[v]] >= 0) first = j;
    }
    if (first < 0) {
        for (int j = 0; j < n; j++)
            if (col[ring[j]] == BLK)
                for (int d = 0; d < 4; d++) total += s->g.nb[ring[j] * 4 + d] < 0;
        return total;
    }
    int label = s->wc.comp[ring[first]], gap = 0;
    for (int t = 1; t <= n; t++) {
        int v = ring[(first + t) % n];
        if (col[v] == BLK) {
            for (int d = 0; d < 4; d++) gap += s->g.nb[v * 4 + d] < 0;
        } else if (col[v] == WHT && s->wc.comp[v] >= 0 && s->wc.comp_clue[s->wc.comp[v]] >= 0) {
            int c = s->wc.comp[v];
            total += c != label && gap < 1 ? 1 : gap;
            gap = 0;
            label = c;
        }
    }
    return total;
}

/* Whether island c, with the cells of its run round the edge outside ring positions
 * [f, t) barred too, stays within the slack of rule_sides (its bounds `ex` before). */
static int trunc_fits(Search *s, const int *box, int val, const int *ex, const int *slack,
                      int f, int t) {
    int n = s->g.nring, cap = 0, g[2];
    uint8_t *gone = s->side.edge_gone;
    for (int u = s->side.run_from; u < s->side.run_to; u++) {
        int v = s->g.ring[u % n];
        if (u < f || u >= t) gone[v] = 1;
        else
            for (int d = 0; d < 4; d++) cap += s->g.nb[v * 4 + d] < 0;
    }
    edge_sums(s);
    int saved = s->side.arc_cap;
    s->side.arc_cap = cap;
    side_excess(s, box, val, g);
    s->side.arc_cap = saved;
    for (int u = s->side.run_from; u < s->side.run_to; u++) gone[s->g.ring[u % n]] = 0;
    return g[0] - ex[0] <= slack[0] && g[1] - ex[1] <= slack[1];
}

/* Edge cells of island c's run (sum_edges) that must be its own: those between two of
 * its cells there (its cells on the edge form one arc), and those whose blackening would
 * cut the run so short that the island's bounds exceed the slack (fewest cells first:
 * a shorter run only raises them). Leaves s->side.edge_gone as sum_edges made it. */
static int ring_cells(Search *s, uint8_t *col, int c, const int *box, int val, const int *ex,
                      const int *slack, int *changed) {
    int n = s->g.nring, from = s->side.run_from, to = s->side.run_to, a = -1, b = -1;
    for (int u = from; u < to; u++) {
        int v = s->g.ring[u % n];
        if (col[v] == WHT && s->wc.comp[v] == c) {
            if (a < 0) a = u;
            b = u;
        }
    }
    if (a < 0) return OK;
    for (int u = a + 1; u < b; u++)
        if (col[s->g.ring[u % n]] == UNK && !assign(col, s->g.ring[u % n], WHT, changed))
            return FAIL;
    int lo = b + 1, hi = to; /* the first position whose blackening the bounds allow */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (trunc_fits(s, box, val, ex, slack, from, mid)) hi = mid;
        else lo = mid + 1;
    }
    for (int u = b + 1; u < lo; u++)
        if (!assign(col, s->g.ring[u % n], WHT, changed)) return FAIL;
    lo = from - 1;
    hi = a - 1; /* the last position before a whose blackening the bounds allow */
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (trunc_fits(s, box, val, ex, slack, mid + 1, to)) lo = mid;
        else hi = mid - 1;
    }
    for (int u = lo + 1; u < a; u++)
        if (!assign(col, s->g.ring[u % n], WHT, changed)) return FAIL;
    return OK;
}

/* Every side of a sea cell faces the sea, an island or the edge of the grid, and a
 * connected sea of S cells shares at least S - 1 sides within itself, so the sides its
 * cells show to the islands (X) and to the edge (B) number at most 2S + 2. X is the
 * islands' perimeters p less their sides b on the edge, B the grid's 2(R + C) less the
 * islands' b: so the islands' p - 2b add up to at most 2S + 2 - 2(R + C), and their
 * p - b to at most 2S + 2 less a lower bound of B (edge_sea). Each island's p - 2b and
 * p - b are bounded from below (side_excess, from its clue and the box of its cells so
 * far): a total above its budget is a contradiction, and an unknown cell next to one
 * island only, whose joining would widen the island's box so much that a total exceeds
 * its budget, is black. (No `?` clue: the sea's size must be known and every island
 * has a clue.) */
static int rule_sides(Search *s, uint8_t *col, int ncomp, int *changed) {
    int R = s->g.R, C = s->g.C, sea = s->g.N - s->g.total_white;
    if (s->g.has_q || sea < 1) return OK;
    int budget[2] = {2 * sea + 2 - 2 * (R + C), 2 * sea + 2 - edge_sea(s, col)};
    sum_black(s, col);
    int total[2] = {0, 0};
    for (int c = 0; c < ncomp; c++) {
        int k = s->wc.comp_clue[c];
        if (k < 0) continue;
        int *box = s->side.side_box + 4 * c, *ex = s->side.excess + 2 * c;
        box[0] = box[2] = s->g.N;
        box[1] = box[3] = -1;
        for (int q = s->wc.comp_start[c]; q < s->wc.comp_start[c + 1]; q++)
            widen(s, box, s->wc.comp_cells[q]);
        int val = s->g.clue_val[k];
        if (val < SIDES_AREA) { /* small islands: the bound that holds anywhere (cheaper) */
            ex[0] = s->g.clue_excess[2 * k];
            ex[1] = s->g.clue_excess[2 * k + 1];
        } else {
            /* the edges matter only to an island that can reach one (a box of h rows
               and w columns has h + w - 1 <= val) */
            s->side.arc_cap = 0;
            if ((box[0] < val || box[2] < val || R - 1 - box[1] < val ||
                 C - 1 - box[3] < val) &&
                !sum_edges(s, col, c))
                return FAIL;
            side_excess(s, box, val, ex);
            if (ex[0] > s->g.N * 4) return FAIL; /* no box holds the island */
        }
        total[0] += ex[0];
        total[1] += ex[1];
    }
    int slack[2] = {budget[0] - total[0], budget[1] - total[1]};
    if (slack[0] < 0 || slack[1] < 0) return FAIL;
    for (int c = 0; c < ncomp; c++) {
        int k = s->wc.comp_clue[c];
        if (k < 0 || s->wc.comp_size[c] >= s->g.clue_val[k] || s->g.clue_val[k] < SIDES_AREA)
            continue;
        const int *box = s->side.side_box + 4 * c, *ex = s->side.excess + 2 * c;
        int val = s->g.clue_val[k];
        s->side.arc_cap = 0;
        if ((box[0] < val || box[2] < val || R - 1 - box[1] < val || C - 1 - box[3] < val) &&
            !sum_edges(s, col, c))
            return FAIL;
        int over[4]; /* whether the box one row up, down, one column left, right is too big */
        for (int d = 0; d < 4; d++) {
            int b[4] = {box[0], box[1], box[2], box[3]}, g[2];
            if (d == 0) b[0]--;
            else if (d == 1) b[1]++;
            else if (d == 2) b[2]--;
            else b[3]++;
            int fits = b[0] >= 0 && b[1] < R && b[2] >= 0 && b[3] < C &&
                       (b[1] - b[0] + 1) + (b[3] - b[2] + 1) - 1 <= val;
            if (fits) side_excess(s, b, val, g);
            over[d] = !fits || g[0] - ex[0] > slack[0] || g[1] - ex[1] > slack[1];
        }
        if (!s->prb.probing && s->side.run_from >= 0 &&
            !ring_cells(s, col, c, box, val, ex, slack, changed))
            return FAIL;
        if (over[0] && over[1] && over[2] && over[3]) {
            /* the island stays in its box: with just room for it there, it fills it */
            int room = (box[1] - box[0] + 1) * (box[3] - box[2] + 1) -
                       black_in(s, box[0], box[1], box[2], box[3]);
            if (room < val) return FAIL;
            if (room == val)
                for (int r = box[0]; r <= box[1]; r++)
                    for (int x = box[2]; x <= box[3]; x++)
                        if (col[r * C + x] == UNK && !assign(col, r * C + x, WHT, changed))
                            return FAIL;
        }
        if (!over[0] && !over[1] && !over[2] && !over[3]) continue;
        for (int q = s->wc.comp_start[c]; q < s->wc.comp_start[c + 1]; q++) {
            int v = s->wc.comp_cells[q];
            for (int d = 0; d < 4; d++) {
                int w = s->g.nb[v * 4 + d];
                if (w < 0 || col[w] != UNK) continue;
                int r = w / C, x = w % C, o;
                if (r < box[0]) o = over[0];
                else if (r > box[1]) o = over[1];
                else if (x < box[2]) o = over[2];
                else if (x > box[3]) o = over[3];
                else continue;
                if (o && !assign(col, w, BLK, changed)) return FAIL;
            }
        }
    }
    return OK;
}

/* ---- reach -------------------------------------------------------------------------- */

/* The rows of bits of reach_rows: unknown cells (less those cut cells made white), white
 * cells of clued and of clueless components, and the walk's. */
enum { ROW_UNKNOWN, ROW_CLUED, ROW_CLUELESS, ROW_UNION, ROW_ISLAND, ROW_OPEN, ROW_SEEN,
       ROW_FRONT, ROW_NEXT, ROW_GOT, NROWS };

/* Whether unknown cell v touches a white cell of a clued component other than `comp`. */
static int barred(const Search *s, const uint8_t *col, int v, int comp) {
    for (int d = 0; d < 4; d++) {
        int w = s->g.nb[v * 4 + d];
        if (w < 0 || col[w] != WHT) continue;
        int c = s->wc.comp[w];
        if (c >= 0 && c != comp && s->wc.comp_clue[c] >= 0) return 1;
    }
    return 0;
}

static int edge_cell(const Search *s, int v) {
    return s->g.nb[v * 4] < 0 || s->g.nb[v * 4 + 1] < 0 || s->g.nb[v * 4 + 2] < 0 ||
           s->g.nb[v * 4 + 3] < 0;
}

/* Whether cell v may belong to island c, which the sea walls in. */
static int may_join(const Search *s, int c, int v) {
    return !edge_cell(s, v) && span(s, s->cross.comp_box + 4 * c, v) < s->cross.comp_enclosed[c] &&
           in_frames(s, c, v);
}

/* Offers node (a cell, or N + a clueless component) to the bucket queue at `cost`. */
static void offer(Search *s, int node, int cost, int stamp, int *nentries) {
    int *seen = s->walk.seen, *best = s->walk.best;
    if (seen[node] == stamp && best[node] <= cost) return;
    seen[node] = stamp;
    best[node] = cost;
    int e = (*nentries)++;
    s->reach.entry_node[e] = node;
    s->reach.entry_next[e] = s->reach.bucket_head[cost];
    s->reach.bucket_head[cost] = e;
    if (cost > s->reach.bucket_top) s->reach.bucket_top = cost;
}

/* Relaxes the neighbours of cell v, finalised at cost `base`, for island `c`. */
static void relax(Search *s, const uint8_t *col, int v, int base, int c, int need, int stamp,
                  int *nentries) {
    int N = s->g.N, enclosed = s->cross.comp_enclosed[c];
    const int *nb = s->g.nb + v * 4, *done = s->walk.done, *comp = s->wc.comp;
    for (int d = 0; d < 4; d++) {
        int w = nb[d];
        if (w < 0 || done[w] == stamp) continue;
        if (col[w] == UNK) {
            if (base + 1 > need || barred(s, col, w, c)) continue;
            if (enclosed && !may_join(s, c, w)) continue;
            offer(s, w, base + 1, stamp, nentries);
        } else if (col[w] == WHT) {
            int cw = comp[w];
            if (cw < 0 || cw == c || s->wc.comp_clue[cw] >= 0) continue;
            if (enclosed && (on_edge(s, cw) || !may_join(s, c, w))) continue;
            int cost = base + s->wc.comp_size[cw];
            if (cost > need || done[N + cw] == stamp) continue;
            offer(s, N + cw, cost, stamp, nentries);
        }
    }
}

/* Tarjan's walk for cut vertices, shared by the island and sea rules, over a graph in
 * which a connected set of cells counts as one node (named by its first cell), so that
 * the walk steps over it at once; contracting a connected set leaves every other cell's
 * cuts as they were. Island mode: the cells island c reached (rule_reach, done ==
 * stamp), the island one node (`root`, its first cell), weight 1 for a reached cell
 * outside it. Sea mode: the non-white cells, each black component one node (kid[], its
 * size kto[] - kfrom[] and its exits kex[] from kefrom[] to keto[], as rule_sea's single
 * exits left them) with its weight its size.
 * Gives every visited node v in best[v] the weight of what only hangs on v (seen from
 * `root`), which depends on the graph alone, not on the walk. Returns the number of
 * nodes visited, listed in s->walk.queue in the order they were finished. */
enum { WALK_ISLAND, WALK_SEA };

static int cut_weights(Search *s, const uint8_t *col, int root, int mode, int c, int stamp) {
    /* the arrays in locals: the compiler cannot tell that stores to them leave s alone */
    const int *nb = s->g.nb, *done = s->walk.done, *comp = s->wc.comp;
    const int *kex = s->sea.kex, *kid = s->sea.kid, *kfrom = s->sea.kfrom, *kto = s->sea.kto;
    const int *kefrom = s->sea.kefrom, *keto = s->sea.keto;
    const int *island = s->wc.comp_cells + s->wc.comp_start[c < 0 ? 0 : c];
    int size = c < 0 ? 0 : s->wc.comp_size[c];
    int *disc = s->cut.disc, *low = s->cut.low, *iter = s->cut.iter, *sub = s->cut.sub_black;
    int *best = s->walk.best, *parent = s->cut.scomp, *mark = s->walk.node_stamp, *stk = s->cut.stk;
    int *queue = s->walk.queue;
    int time = 0, sp = 0, nvisit = 0, vstamp = ++s->walk.stamp_now;
    if (mode == WALK_SEA) root = kid[root];
    mark[root] = vstamp;
    disc[root] = low[root] = ++time;
    iter[root] = 0;
    sub[root] = mode == WALK_SEA ? kto[root] - kfrom[root] : 0;
    best[root] = 0;
    parent[root] = -1;
    stk[sp++] = root;
    while (sp > 0) {
        int v = stk[sp - 1], it = iter[v], pushed = 0;
        int group = mode == WALK_SEA ? col[v] == BLK : v == root;
        int end = !group ? 4 : mode == WALK_SEA ? keto[v] - kefrom[v] : 4 * size;
        while (it < end) {
            int w;
            if (mode == WALK_SEA && group) {
                w = kex[kefrom[v] + it++]; /* its exits: unknown cells */
            } else {
                int cell = group ? island[it >> 2] : v;
                w = nb[cell * 4 + (it & 3)];
                it++;
                if (w < 0) continue;
            }
            if (mode == WALK_SEA) {
                if (col[w] == WHT) continue;
                if (col[w] == BLK) w = kid[w];
            } else {
                if (done[w] != stamp) continue;
                if (comp[w] == c) {
                    if (group) continue; /* a cell of the island itself */
                    w = root;
                }
            }
            if (mark[w] != vstamp) {
                mark[w] = vstamp;
                parent[w] = v;
                disc[w] = low[w] = ++time;
                iter[w] = 0;
                sub[w] = mode == WALK_ISLAND ? 1 : col[w] == BLK ? kto[w] - kfrom[w] : 0;
                best[w] = 0;
                stk[sp++] = w;
                pushed = 1;
                break;
            } else if (w != parent[v] && disc[w] < low[v]) {
                low[v] = disc[w];
            }
        }
        iter[v] = it;
        if (pushed) continue;
        sp--;
        queue[nvisit++] = v;
        int p = parent[v];
        if (p < 0) continue;
        if (low[v] < low[p]) low[p] = low[v];
        sub[p] += sub[v];
        if (low[v] >= disc[p]) best[p] += sub[v];
    }
    return nvisit;
}

static void walls_of(Search *s, const uint8_t *col, int c, int x, int stamp, int *marks,
                     int mstamp, void (*add)(Learn *, int));

/* (reasons) Calls add(cell) for the cells that bound island c's reach (the cells with
 * done == stamp, from rule_reach): the island's cells, the white cells it reached, the
 * black cells next to what it reached, and the cells of every other white component next
 * to it or barring an unknown cell next to it (a clueless one by its size, a clued one by
 * its clue), and for a cell whitened since the components were labelled (a cut cell of
 * an island walked before, which the walk takes for a wall) the cells of its reason
 * (lrn.wall_coarse set when it has none). In every solution with those colors, island c
 * lies within its reach. Each
 * cell once: marks[cell] == mstamp once added. */
static void reach_walls(Search *s, const uint8_t *col, int c, int stamp, int *marks, int mstamp,
                        void (*add)(Learn *, int)) {
    int N = s->g.N;
    const int *done = s->walk.done;
    /* the island's cells, then the nodes rule_reach offered (cells, or N + a component)
       that it reached; a node offered twice is looked at twice */
    int from = s->wc.comp_start[c], ncells = s->wc.comp_start[c + 1] - from;
    for (int e = -ncells; e < s->reach.nentries; e++) {
        int node = e < 0 ? s->wc.comp_cells[from + ncells + e] : s->reach.entry_node[e];
        if (done[node] != stamp) continue;
        if (node >= N) { /* a clueless component: its cells */
            for (int q = s->wc.comp_start[node - N]; q < s->wc.comp_start[node - N + 1]; q++)
                walls_of(s, col, c, s->wc.comp_cells[q], stamp, marks, mstamp, add);
            continue;
        }
        walls_of(s, col, c, node, stamp, marks, mstamp, add);
    }
}

/* reach_walls for one cell x it reached. */
static void walls_of(Search *s, const uint8_t *col, int c, int x, int stamp, int *marks,
                     int mstamp, void (*add)(Learn *, int)) {
    const int *nb = s->g.nb, *done = s->walk.done, *comp = s->wc.comp;
    if (col[x] == WHT && marks[x] != mstamp) {
        marks[x] = mstamp;
        add(&s->lrn, x);
    }
    for (int d = 0; d < 4; d++) {
        int y = nb[x * 4 + d];
        if (y < 0 || done[y] == stamp) continue;
        for (int e = -1; e < 4; e++) { /* y itself, and when unknown its neighbours */
            int z = e < 0 ? y : nb[y * 4 + e];
            if (z < 0 || (e >= 0 && col[y] != UNK)) continue;
            if (col[z] == WHT && comp[z] < 0 && e < 0) {
                /* whitened since the labels (a cut cell of an island walked before): a
                   wall, because that island must have it, which its reason says */
                const Learn *L = &s->lrn;
                if (L->rlen[z] < 0) s->lrn.wall_coarse = 1;
                for (int j = 0; j < L->rlen[z]; j++) {
                    int r = L->rbuf[L->rfrom[z] + j];
                    if (marks[r] == mstamp) continue;
                    marks[r] = mstamp;
                    add(&s->lrn, r);
                }
            } else if (col[z] == BLK && e < 0 && marks[z] != mstamp) {
                marks[z] = mstamp;
                add(&s->lrn, z);
            } else if (col[z] == WHT && comp[z] >= 0 && comp[z] != c && marks[z] != mstamp) {
                int cz = comp[z];
                for (int q = s->wc.comp_start[cz]; q < s->wc.comp_start[cz + 1]; q++) {
                    marks[s->wc.comp_cells[q]] = mstamp;
                    add(&s->lrn, s->wc.comp_cells[q]);
                }
            }
        }
    }
}

/* The next stamp of lrn.amark (analyse's marks, free while a rule runs). */
static int amark_stamp(Search *s) {
    Learn *L = &s->lrn;
    if (L->amark_now >= STAMP_LIMIT) {
        memset(L->amark, 0, sizeof(int) * (size_t)s->g.N);
        memset(L->adec, 0, sizeof(int) * ((size_t)s->g.N + 2));
        L->amark_now = 0;
    }
    return ++L->amark_now;
}

/* add() of reach_walls: to the reason being written, or to the list in lrn.front. */
static void add_reason(Learn *L, int cell) { radd(L, cell); }
static void add_front(Learn *L, int cell) { L->front[L->nfront++] = cell; }

/* The reason of island c's reach (reach_walls) written to rbuf; R_COARSE when the sea
 * walls the island in (rule_crossings: its bounds are not reasoned about). */
static int reach_reason(Search *s, const uint8_t *col, int c, int stamp, int *from) {
    Learn *L = &s->lrn;
    *from = rbegin(L);
    if (s->cross.comp_enclosed[c]) return R_COARSE;
    L->wall_coarse = 0;
    reach_walls(s, col, c, stamp, L->wmark, wall_stamp(L), add_reason);
    return L->wall_coarse ? R_COARSE : rlength(L, *from);
}

/* Moves island_cuts's kept walk `j` of clue k to the front (the latest). */
static void kept_to_front(Reach *rk, int k, int j) {
    int at = k * KEPT_WAYS, *walk = rk->kept[at + j];
    int size = rk->kept_size[at + j], reached = rk->kept_reached[at + j];
    int cand = rk->kept_cand[at + j], room = rk->kept_room[at + j];
    uint8_t rows = rk->kept_rows[at + j];
    for (; j > 0; j--) {
        rk->kept_rows[at + j] = rk->kept_rows[at + j - 1];
        rk->kept[at + j] = rk->kept[at + j - 1];
        rk->kept_size[at + j] = rk->kept_size[at + j - 1];
        rk->kept_reached[at + j] = rk->kept_reached[at + j - 1];
        rk->kept_cand[at + j] = rk->kept_cand[at + j - 1];
        rk->kept_room[at + j] = rk->kept_room[at + j - 1];
    }
    rk->kept_rows[at] = rows;
    rk->kept[at] = walk;
    rk->kept_size[at] = size;
    rk->kept_reached[at] = reached;
    rk->kept_cand[at] = cand;
    rk->kept_room[at] = room;
}

/* (after reach_rows) The kept walk of clue k of an island of `size` cells in the rows
 * `irows` that reached the `reached` cells of the rows `grows`, or -1. */
static int kept_by_rows(const Reach *rk, int R, int k, int size, int reached,
                        const uint64_t *irows, const uint64_t *grows) {
    int at = k * KEPT_WAYS;
    for (int j = 0; j < KEPT_WAYS && rk->kept[at + j]; j++) {
        if (!rk->kept_rows[at + j] || rk->kept_size[at + j] != size ||
            rk->kept_reached[at + j] != reached)
            continue;
        const int *rows = rk->kept[at + j] + size + reached + rk->kept_cand[at + j];
        if (!memcmp(rows, irows, sizeof(uint64_t) * (size_t)R) &&
            !memcmp(rows + 2 * R, grows, sizeof(uint64_t) * (size_t)R))
            return j;
    }
    return -1;
}

/* Cells every completion of island c (clue k) must use: an unknown cell whose removal
 * cuts off so much of the island's reach (the cells finalised in rule_reach, marked done
 * == stamp, listed in reach.order) that fewer than `need` cells stay connected to it.
 *
 * The cut weights are a function of the island's cells and the cells it reached alone
 * (the graph Tarjan's walk reads), and most calls find the island and its reach as they
 * were at one of its last few calls (a change far from it changes neither; a probe's two
 * colors and the next cell's alternate), so the cells whose weight is enough (candidates,
 * unknown or not) of its last KEPT_WAYS walks are kept per clue with both lists, and a
 * call with the same lists takes them instead of walking again. On janko-1091 turned 3,
 * 44% of the calls meet the last walk, 13% the one before, 5% the two before that.
 * After the walk by rows (reach_rows) the kept walks are compared by rows (kept_by_rows,
 * `hit`: which matched, or -1), and the lists and marks are only made for a new walk;
 * else (`hit` -2) by the lists. The lists of the island and the rows are functions of the
 * same sets of cells, so both meet the same walks. */
static int island_cuts(Search *s, uint8_t *col, int c, int k, int need, int reached,
                       int stamp, int *changed, int hit, const uint64_t *irows,
                       const uint64_t *grows) {
    Reach *rk = &s->reach;
    int N = s->g.N, R = s->g.R, size = s->wc.comp_size[c], ncand = 0;
    const int *island = s->wc.comp_cells + s->wc.comp_start[c];
    int at = k * KEPT_WAYS, *cand = s->walk.queue;
    for (int j = 0; j < KEPT_WAYS && rk->kept[at + j] && hit == -2; j++) {
        const int *kept = rk->kept[at + j];
        if (rk->kept_size[at + j] == size && rk->kept_reached[at + j] == reached &&
            !memcmp(kept, island, sizeof(int) * (size_t)size) &&
            !memcmp(kept + size, rk->order, sizeof(int) * (size_t)reached))
            hit = j;
    }
    if (hit >= 0) {
        kept_to_front(rk, k, hit);
        cand = rk->kept[at] + size + reached;
        ncand = rk->kept_cand[at];
    } else {
        int n = cut_weights(s, col, island[0], WALK_ISLAND, c, stamp);
        for (int q = 0; q < n; q++) { /* in place: the order of the walk */
            int v = s->walk.queue[q];
            if (reached - 1 - s->walk.best[v] < need) cand[ncand++] = v;
        }
        /* in the place of the oldest walk, made the latest */
        int last = at + KEPT_WAYS - 1, lists = size + reached + ncand;
        int want = lists + (irows ? 4 * R : 0), most = 2 * N + 1 + 4 * R;
        if (rk->kept_room[last] < want) {
            int room = want + want / 2 < most ? want + want / 2 : most;
            int *grown = realloc(rk->kept[last], sizeof(int) * (size_t)room);
            if (grown) {
                rk->kept[last] = grown;
                rk->kept_room[last] = room;
            }
        }
        if (rk->kept[last] && rk->kept_room[last] >= want) {
            int *kept = rk->kept[last];
            memcpy(kept, island, sizeof(int) * (size_t)size);
            memcpy(kept + size, rk->order, sizeof(int) * (size_t)reached);
            memcpy(kept + size + reached, cand, sizeof(int) * (size_t)ncand);
            if (irows) {
                memcpy(kept + lists, irows, sizeof(uint64_t) * (size_t)R);
                memcpy(kept + lists + 2 * R, grows, sizeof(uint64_t) * (size_t)R);
            }
            rk->kept_rows[last] = irows != NULL;
            rk->kept_size[last] = size;
            rk->kept_reached[last] = reached;
            rk->kept_cand[last] = ncand;
            kept_to_front(rk, k, KEPT_WAYS - 1);
        }
    }
    int rf = 0, rn = R_COARSE - 1; /* the reason of the island's reach, once needed */
    for (int q = 0; q < ncand; q++) {
        int v = cand[q];
        if (col[v] == UNK) {
            /* the reason first: the reach as it was walked, v unknown */
            if (s->lrn.rec && rn < R_COARSE) rn = reach_reason(s, col, c, stamp, &rf);
            col[v] = WHT;
            (*changed)++;
            if (s->lrn.rec) rgive(s, col, v, rf, rn, 1);
            if (rk->rows_on) /* no longer unknown to the islands walked next */
                rk->rows[ROW_UNKNOWN * s->g.R + s->g.cell_row[v]] &= ~s->g.cell_bit[v];
        }
    }
    return OK;
}

/* (at most 64 columns, without reasons, island c not walled in) The walk of rule_reach by
 * rows of bits, layer after layer: the unknown cells one step on that no other island
 * bars, and a clueless component `size` layers after the layer next to it. The same cells
 * as the bucket walk finds within `need`, in rows[ROW_GOT]; returns how many. */
static int reach_rows(Search *s, int c, int need, int stamp) {
    int R = s->g.R, C = s->g.C, N = s->g.N;
    uint64_t *rows = s->reach.rows, *unknown = rows + ROW_UNKNOWN * R;
    uint64_t *island = rows + ROW_ISLAND * R, *open = rows + ROW_OPEN * R;
    uint64_t *seen = rows + ROW_SEEN * R, *front = rows + ROW_FRONT * R;
    uint64_t *got = rows + ROW_GOT * R;
    const uint64_t *clued = rows + ROW_CLUED * R, *clueless = rows + ROW_CLUELESS * R;
    int *pend_cost = s->reach.pend_cost, *pend_comp = s->reach.pend_comp, npend = 0, last = 0;
    int *marked = s->walk.seen; /* == stamp at N + a component once it is pending */
    const int *cell_row = s->g.cell_row;
    const uint64_t *cell_bit = s->g.cell_bit;
    for (int r = 0; r < R; r++) island[r] = 0;
    int lo = R, hi = -1; /* the rows of the front (outside them it is 0) */
    for (int q = s->wc.comp_start[c]; q < s->wc.comp_start[c + 1]; q++) {
        int x = s->wc.comp_cells[q], r = cell_row[x];
        island[r] |= cell_bit[x];
        if (r < lo) lo = r;
        if (r > hi) hi = r;
    }
    /* not barred: an unknown cell next to a clued component other than this island */
    for (int r = 0; r < R; r++) {
        uint64_t others = clued[r] & ~island[r];
        others |= others << 1 | others >> 1;
        if (r > 0) others |= clued[r - 1] & ~island[r - 1];
        if (r + 1 < R) others |= clued[r + 1] & ~island[r + 1];
        open[r] = unknown[r] & ~others;
        seen[r] = front[r] = island[r];
        got[r] = 0;
    }
    int glo = R, ghi = -1; /* the rows of got */
    for (int layer = 1; layer <= need; layer++) {
        /* the front one layer on, in place (prev: the last row's front before) */
        int from = lo > 0 ? lo - 1 : 0, to = hi + 1 < R ? hi + 1 : R - 1;
        uint64_t prev = 0, moved = 0;
        lo = R;
        hi = -1;
        for (int r = from; r <= to; r++) {
            uint64_t cur = front[r];
            uint64_t around = cur | cur << 1 | cur >> 1 | prev | (r + 1 < R ? front[r + 1] : 0);
            prev = cur;
            uint64_t next = around & open[r] & ~seen[r];
            front[r] = next;
            if (next) {
                moved = 1;
                if (r < lo) lo = r;
                hi = r;
            }
            /* clueless components next to the last layer: pending until they arrive */
            for (uint64_t t = around & clueless[r] & ~seen[r]; t; t &= t - 1) {
                int cw = s->wc.comp[r * C + lowest_bit(t)];
                if (marked[N + cw] == stamp) continue;
                marked[N + cw] = stamp;
                int cost = layer - 1 + s->wc.comp_size[cw];
                if (cost > need) continue;
                pend_cost[npend] = cost;
                pend_comp[npend++] = cw;
                if (cost > last) last = cost;
            }
        }
        for (int p = 0; p < npend; p++) {
            if (pend_cost[p] != layer) continue;
            int cw = pend_comp[p];
            for (int q = s->wc.comp_start[cw]; q < s->wc.comp_start[cw + 1]; q++) {
                int x = s->wc.comp_cells[q], r = cell_row[x];
                front[r] |= cell_bit[x];
                if (r < lo) lo = r;
                if (r > hi) hi = r;
            }
            moved = 1;
        }
        if (!moved) {
            if (layer >= last) break;
            continue; /* an empty front until a pending component arrives */
        }
        for (int r = lo; r <= hi; r++) {
            seen[r] |= front[r];
            got[r] |= front[r];
        }
        if (lo < glo) glo = lo;
        if (hi > ghi) ghi = hi;
    }
    int reached = 0;
    for (int r = glo; r <= ghi; r++) reached += bits_in(got[r]);
    return reached;
}

/* Shortest growth of every incomplete island; unreachable unknown cells are black. */
static int rule_reach(Search *s, uint8_t *col, int ncomp, int *changed) {
    int N = s->g.N, R = s->g.R, C = s->g.C;
    int *reach = s->reach.reach_count;
    /* by rows of bits (reach_rows) where it can; the reasons need the bucket walk's marks */
    int rows_on = s->reach.rows_on = s->reach.rows && !s->lrn.rec;
    uint64_t *rows = s->reach.rows, *reach_union = rows ? rows + ROW_UNION * R : NULL;
    if (rows_on) {
        for (int r = 0; r < R; r++) {
            uint64_t by[3];
            row_colors(s, col, r, by);
            rows[ROW_UNKNOWN * R + r] = by[UNK];
            rows[ROW_CLUED * R + r] = rows[ROW_CLUELESS * R + r] = reach_union[r] = 0;
        }
        for (int c = 0; c < ncomp; c++) { /* the labelled white cells, by their components */
            uint64_t *to = rows + (s->wc.comp_clue[c] >= 0 ? ROW_CLUED : ROW_CLUELESS) * R;
            for (int q = s->wc.comp_start[c]; q < s->wc.comp_start[c + 1]; q++) {
                int x = s->wc.comp_cells[q];
                to[s->g.cell_row[x]] |= s->g.cell_bit[x];
            }
        }
    } else {
        for (int i = 0; i < N; i++) reach[i] = 0;
    }
    /* (reasons) the union of what bounds every island, in lrn.front */
    int ustamp = 0, ucoarse = 0;
    if (s->lrn.rec) {
        ustamp = amark_stamp(s);
        s->lrn.nfront = 0;
    }
    for (int c = 0; c < ncomp; c++) {
        int k = s->wc.comp_clue[c];
        if (k < 0) continue;
        int val = s->g.clue_val[k];
        int need = val > 0 ? val - s->wc.comp_size[c] : N;
        if (need <= 0) {
            if (s->lrn.rec) /* a complete island: its cells, all it will ever have */
                for (int q = s->wc.comp_start[c]; q < s->wc.comp_start[c + 1]; q++) {
                    int x = s->wc.comp_cells[q];
                    if (s->lrn.amark[x] != ustamp) {
                        s->lrn.amark[x] = ustamp;
                        s->lrn.front[s->lrn.nfront++] = x;
                    }
                }
            continue;
        }
        if (need > 64 && limit_reached(s)) return OK; /* the caller sees s->lim.stop */
        int stamp = ++s->walk.stamp_now, nentries = 0, reached = 0;
        if (rows_on && !s->cross.comp_enclosed[c]) {
            reached = reach_rows(s, c, need, stamp);
            const uint64_t *got = rows + ROW_GOT * R;
            for (int r = 0; r < R; r++) reach_union[r] |= got[r];
            if (reached < need && val > 0) return FAIL;
            if (val > 0 && need > 1 && s->set.cuts) {
                const uint64_t *irows = rows + ROW_ISLAND * R;
                int hit = kept_by_rows(&s->reach, R, k, s->wc.comp_size[c], reached, irows, got);
                /* a new walk: island_cuts reads the walk's marks, and its cells in order */
                for (int q = s->wc.comp_start[c]; hit < 0 && q < s->wc.comp_start[c + 1]; q++)
                    s->walk.done[s->wc.comp_cells[q]] = stamp;
                for (int r = 0, n = 0; hit < 0 && r < R; r++)
                    for (uint64_t t = got[r]; t; t &= t - 1) {
                        int x = r * C + lowest_bit(t);
                        s->walk.done[x] = stamp;
                        s->reach.order[n++] = x;
                    }
                int ok = island_cuts(s, col, c, k, need, reached, stamp, changed, hit, irows, got);
                if (ok != OK) return ok;
            }
            continue;
        }
        for (int b = 0; b <= need; b++) s->reach.bucket_head[b] = -1;
        s->reach.bucket_top = 0; /* the highest cost offered: the buckets above it are empty */
        int from = s->wc.comp_start[c], to = s->wc.comp_start[c + 1];
        for (int q = from; q < to; q++) s->walk.done[s->wc.comp_cells[q]] = stamp;
        s->walk.done[N + c] = stamp;
        for (int q = from; q < to; q++)
            relax(s, col, s->wc.comp_cells[q], 0, c, need, stamp, &nentries);
        for (int b = 1; b <= need && b <= s->reach.bucket_top; b++) {
            while (s->reach.bucket_head[b] >= 0) {
                int e = s->reach.bucket_head[b];
                s->reach.bucket_head[b] = s->reach.entry_next[e];
                int node = s->reach.entry_node[e];
                if (s->walk.done[node] == stamp || s->walk.best[node] != b) continue;
                s->walk.done[node] = stamp;
                if (node < N) {
                    reach[node]++;
                    s->reach.order[reached++] = node;
                    relax(s, col, node, b, c, need, stamp, &nentries);
                } else {
                    int cw = node - N;
                    int f2 = s->wc.comp_start[cw], t2 = s->wc.comp_start[cw + 1];
                    for (int q = f2; q < t2; q++) {
                        int x = s->wc.comp_cells[q];
                        s->walk.done[x] = stamp;
                        reach[x]++;
                        s->reach.order[reached + q - f2] = x;
                    }
                    reached += t2 - f2;
                    for (int q = f2; q < t2; q++)
                        relax(s, col, s->wc.comp_cells[q], b, c, need, stamp, &nentries);
                }
            }
        }
        s->reach.nentries = nentries;
        for (int q = 0; rows_on && q < reached; q++) { /* (walled in) into the rows' union */
            int x = s->reach.order[q];
            reach_union[s->g.cell_row[x]] |= s->g.cell_bit[x];
        }
        if (s->lrn.rec) { /* what bounds this island, for the cells no island reaches */
            s->lrn.wall_coarse = 0;
            if (!s->cross.comp_enclosed[c])
                reach_walls(s, col, c, stamp, s->lrn.amark, ustamp, add_front);
            if (s->cross.comp_enclosed[c] || s->lrn.wall_coarse) ucoarse = 1;
        }
        if (reached < need && val > 0) {
            if (s->lrn.rec) {
                int rf, rn = reach_reason(s, col, c, stamp, &rf);
                rconflict(s, col, rf, rn, 1);
            }
            return FAIL;
        }
        if (val > 0 && need > 1 && s->set.cuts) {
            int r = island_cuts(s, col, c, k, need, reached, stamp, changed, -2, NULL, NULL);
            if (r != OK) return r;
        }
    }
    if (rows_on) { /* the unknown cells and clueless white cells no island reaches, in order */
        const uint64_t *unknown = rows + ROW_UNKNOWN * R, *clueless = rows + ROW_CLUELESS * R;
        for (int r = 0; r < R; r++)
            for (uint64_t t = (unknown[r] | clueless[r]) & ~reach_union[r]; t; t &= t - 1) {
                int i = r * C + lowest_bit(t);
                if (col[i] != UNK) return FAIL; /* white: it needs an island */
                col[i] = BLK;
                (*changed)++;
            }
        return OK;
    }
    int rf = 0, rn = R_COARSE - 1; /* the reason of the cells no island reaches, once needed */
    for (int i = 0; i < N; i++) {
        if (reach[i] || col[i] == BLK) continue;
        int bad = col[i] == WHT && s->wc.comp_clue[s->wc.comp[i]] < 0;
        if (col[i] != UNK && !bad) continue;
        if (s->lrn.rec && (rn < R_COARSE || bad)) {
            int n = s->lrn.nfront;
            if (bad) /* the cell's component is white: it needs an island */
                for (int q = s->wc.comp_start[s->wc.comp[i]];
                     q < s->wc.comp_start[s->wc.comp[i] + 1]; q++)
                    if (s->lrn.amark[s->wc.comp_cells[q]] != ustamp)
                        s->lrn.front[n++] = s->wc.comp_cells[q];
            rn = ucoarse ? R_COARSE : rpush(&s->lrn, s->lrn.front, n, &rf);
        }
        if (bad) {
            if (s->lrn.rec) rconflict(s, col, rf, rn, 1);
            return FAIL;
        }
        col[i] = BLK;
        (*changed)++;
        if (s->lrn.rec) rgive(s, col, i, rf, rn, 1);
    }
    return OK;
}

/* ---- sea ---------------------------------------------------------------------------- */

/* (reasons) Starts a reason of the sea rule: the black cell `root` and the white cells
 * round the `n` non-white cells listed in `cells` (every black cell that stays connected
 * to root stays among those cells). */
static int sea_walls(Search *s, const uint8_t *col, int root, const int *cells, int n) {
    Learn *L = &s->lrn;
    int stamp = wall_stamp(L), *mark = L->wmark, f = rbegin(L);
    radd(L, root);
    for (int q = 0; q < n; q++)
        for (int d = 0; d < 4; d++) {
            int w = s->g.nb[cells[q] * 4 + d];
            if (w >= 0 && col[w] == WHT && mark[w] != stamp) {
                mark[w] = stamp;
                radd(L, w);
            }
        }
    return f;
}

/* (reasons) A black cell that every path of non-white cells from `root` to it passes
 * through cell v (-1: none), found by a walk from root that avoids v. */
static int sea_beyond(Search *s, const uint8_t *col, int root, int v) {
    int N = s->g.N, *queue = s->lrn.astack, *mark = s->lrn.wmark, stamp = wall_stamp(&s->lrn);
    int h = 0, t = 0;
    queue[t++] = root;
    mark[root] = stamp;
    while (h < t) {
        int x = queue[h++];
        for (int d = 0; d < 4; d++) {
            int w = s->g.nb[x * 4 + d];
            if (w >= 0 && w != v && col[w] != WHT && mark[w] != stamp) {
                mark[w] = stamp;
                queue[t++] = w;
            }
        }
    }
    for (int i = 0; i < N; i++)
        if (col[i] == BLK && mark[i] != stamp && i != v) return i;
    return -1;
}

/* (reasons) The reason of the sea's budget: every black cell (their number is what the
 * budget leaves) and the white cells next to a black cell or to one of the `n` unknown
 * cells the budget's walk reached (listed in `cells`): a path of black cells from a black
 * cell to a cell the walk missed takes more unknown cells than the sea has left. */
static int budget_reason(Search *s, const uint8_t *col, const int *cells, int n, int *from) {
    Learn *L = &s->lrn;
    int N = s->g.N, stamp = wall_stamp(L);
    *from = rbegin(L);
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < (pass ? n : N); k++) {
            int x = pass ? cells[k] : k;
            if (!pass && col[x] != BLK) continue;
            if (!pass) radd(L, x);
            for (int d = 0; d < 4; d++) {
                int w = s->g.nb[x * 4 + d];
                if (w >= 0 && col[w] == WHT && L->wmark[w] != stamp) {
                    L->wmark[w] = stamp;
                    radd(L, w);
                }
            }
        }
    return rlength(L, *from);
}

/* (reasons) The non-white cells connected to cell x without passing through cell v
 * (-1: none), listed in lrn.front; returns how many. */
static int pocket(Search *s, const uint8_t *col, int x, int v) {
    int *queue = s->lrn.front, *mark = s->lrn.wmark, stamp = wall_stamp(&s->lrn), h = 0, t = 0;
    queue[t++] = x;
    mark[x] = stamp;
    while (h < t) {
        int y = queue[h++];
        for (int d = 0; d < 4; d++) {
            int w = s->g.nb[y * 4 + d];
            if (w >= 0 && w != v && col[w] != WHT && mark[w] != stamp) {
                mark[w] = stamp;
                queue[t++] = w;
            }
        }
    }
    return t;
}

/* (at most 64 columns) The rows of `col` as bits, for sea_region and sea_budget. */
static void sea_rows(Search *s, const uint8_t *col) {
    int R = s->g.R, C = s->g.C;
    for (int r = 0; r < R; r++) {
        uint64_t by[3];
        row_colors(s, col, r, by);
        s->sea.black[r] = by[BLK];
        s->sea.unknown[r] = by[UNK];
        s->sea.open[r] = by[BLK] | by[UNK];
    }
}

/* (at most 64 columns, after sea_rows) Whether the non-white cells are all connected to
 * cell `root`: a flood fill of the rows as bits from the root's run of its row, by
 * flood_rows's stack of rows to look at again. A few words per row rather than four
 * neighbours per cell: the same answer as rule_sea's walk gives for most states, which
 * are whole, in less time. */
static int sea_region(Search *s, int root) {
    int R = s->g.R, r0 = s->g.cell_row[root], lo = r0, hi = r0;
    uint64_t *open = s->sea.open, *flood = s->sea.flood;
    for (int r = 0; r < R; r++) flood[r] = 0;
    flood[r0] = row_runs(s->g.cell_bit[root], open[r0]);
    flood_rows(s, flood, open, &lo, &hi);
    for (int r = 0; r < R; r++)
        if (flood[r] != open[r]) return 0;
    return 1;
}

/* (at most 64 columns, after sea_rows, without reasons) The sea's budget of rule_sea by
 * rows of bits: the unknown cells one cell from a black cell, then the unknown cells next
 * to those, layer after layer up to `budget` layers; the unknown cells left out are white,
 * in the order of the cells, as the walk's. */
static void sea_budget(Search *s, uint8_t *col, int budget, int *changed) {
    int R = s->g.R, C = s->g.C;
    const uint64_t *unknown = s->sea.unknown;
    uint64_t *seen = s->sea.flood, *front = s->sea.front, *next = s->sea.next;
    for (int r = 0; r < R; r++)
        seen[r] = front[r] = budget >= 1 ? spread(s->sea.black, r, R) & unknown[r] : 0;
    for (int layer = 1; layer < budget; layer++) {
        uint64_t moved = 0;
        for (int r = 0; r < R; r++) {
            next[r] = spread(front, r, R) & unknown[r] & ~seen[r];
            moved |= next[r];
        }
        if (!moved) break;
        for (int r = 0; r < R; r++) seen[r] |= next[r];
        uint64_t *t = front;
        front = next;
        next = t;
    }
    for (int r = 0; r < R; r++) {
        uint64_t out = unknown[r] & ~seen[r];
        for (int c = 0; out; c++, out >>= 1)
            if (out & 1) {
                col[r * C + c] = WHT;
                (*changed)++;
            }
    }
}

/* The black cells must connect through non-white cells. */
static int rule_sea(Search *s, uint8_t *col, int ncomp, int *changed) {
    (void)ncomp;
    /* the counts, and (one pass for both) whether `col` only adds black cells to sea_of
       (below): bit 1 white, bit 0 black in sea_of and not in col */
    int N = s->g.N, nblack = 0, nunknown = 0, differ = 0;
    const uint8_t *sea_of = s->sea.sea_of;
    for (int i = 0; i < N; i++) {
        nblack += col[i] == BLK;
        nunknown += col[i] == UNK;
        differ |= ((col[i] ^ sea_of[i]) & 2) | (sea_of[i] & ~col[i] & 1);
    }
    int want = s->g.has_q ? -1 : N - s->g.total_white; /* sea size, when known */
    if (nblack == 0) return OK;
    int root = (int)((const uint8_t *)memchr(col, BLK, N) - col); /* the first black cell */

    /* the region of non-white cells around the root must hold every black cell. When it
       held them all and every unknown cell in a state (kept in sea_of) that `col` only
       adds black cells to, it still does: the non-white cells are the same */
    int same = s->sea.sea_valid && !differ;
    const int *nb = s->g.nb;
    int *seen = s->walk.seen, *queue = s->walk.queue, *done = s->walk.done, *best = s->walk.best;
    int rows = 0; /* sea_rows has read `col` */
    /* whole and big enough: what the walk below would find, without its walk */
    if (!same && s->sea.open && !(want >= 0 && nblack + nunknown < want)) {
        sea_rows(s, col);
        rows = 1;
        if (sea_region(s, root)) goto whole;
    }
    if (!same) {
        int stamp = ++s->walk.stamp_now, head = 0, tail = 0, blacks = 1; /* the root */
        queue[tail++] = root;
        seen[root] = stamp;
        /* once every non-white cell is in, the rest of the queue adds nothing */
        while (head < tail && tail < nblack + nunknown) {
            int v = queue[head++];
            for (int d = 0; d < 4; d++) {
                int w = nb[v * 4 + d];
                if (w >= 0 && col[w] != WHT && seen[w] != stamp) {
                    seen[w] = stamp;
                    queue[tail++] = w;
                    blacks += col[w] == BLK; /* the black cells in the region */
                }
            }
        }
        int bad = blacks < nblack || (want >= 0 && tail < want);
        if (!bad && tail == nblack + nunknown) goto whole;
        /* the region is all there is to the sea. The reason of a refutation: a black
           cell outside it, the white walls of its pocket and the root; or too small a
           region, its walls and the root. Of a cell outside it: the walls of its pocket
           and the root */
        if (bad) {
            if (s->lrn.rec) {
                int rf = 0, b = -1;
                for (int i = 0; i < N && blacks < nblack && b < 0; i++)
                    if (col[i] == BLK && seen[i] != stamp) b = i;
                if (b >= 0) {
                    rf = sea_walls(s, col, root, s->lrn.front, pocket(s, col, b, -1));
                    radd(&s->lrn, b);
                } else {
                    rf = sea_walls(s, col, root, queue, tail);
                }
                rconflict(s, col, rf, rlength(&s->lrn, rf), 1);
            }
            return FAIL;
        }
        for (int i = 0; i < N; i++) {
            if (col[i] != UNK || seen[i] == stamp) continue;
            if (!s->lrn.rec) {
                col[i] = WHT;
                (*changed)++;
                continue;
            }
            /* the whole pocket at once (all unknown: no black cell is outside the region) */
            int n = pocket(s, col, i, -1), rf = sea_walls(s, col, root, s->lrn.front, n);
            int rn = rlength(&s->lrn, rf);
            for (int q = 0; q < n; q++) {
                int x = s->lrn.front[q];
                col[x] = WHT;
                (*changed)++;
                rgive(s, col, x, rf, rn, 1);
            }
        }
        if (*changed) return OK;
    }
    if (!same) {
    whole:
        memcpy(s->sea.sea_of, col, N);
        s->sea.sea_valid = 1;
    }

    /* the sea's budget: an unknown cell whose shortest link to a black cell takes more
       unknown cells (itself included) than the sea has left cannot be black */
    if (want >= 0 && s->set.sea_reach && want - nblack < nunknown && s->sea.open &&
        !s->lrn.rec) {
        if (!rows) sea_rows(s, col);
        rows = 1;
        sea_budget(s, col, want - nblack, changed);
        if (*changed) return OK;
    } else if (want >= 0 && s->set.sea_reach && want - nblack < nunknown) {
        int budget = want - nblack, h = 0, t = 0, rstamp = ++s->walk.stamp_now;
        /* the walk starts from the unknown cells next to a black cell (one cell from the
           sea), which are fewer than the black cells late in a search */
        for (int i = 0; budget >= 1 && i < N; i++) {
            if (col[i] != UNK) continue;
            const int *a = nb + i * 4;
            int next = (a[0] >= 0 && col[a[0]] == BLK) | (a[1] >= 0 && col[a[1]] == BLK) |
                       (a[2] >= 0 && col[a[2]] == BLK) | (a[3] >= 0 && col[a[3]] == BLK);
            if (!next) continue;
            queue[t++] = i;
            done[i] = rstamp;
            best[i] = 1;
        }
        /* once every unknown cell is in (t == nunknown), none is whitened */
        while (h < t && t < nunknown) {
            int v = queue[h++];
            if (best[v] >= budget) continue;
            for (int d = 0; d < 4; d++) {
                int w = nb[v * 4 + d];
                if (w >= 0 && col[w] == UNK && done[w] != rstamp) {
                    done[w] = rstamp;
                    best[w] = best[v] + 1;
                    queue[t++] = w;
                }
            }
        }
        int rf = 0, rn = R_COARSE - 1; /* the reason, once needed */
        for (int i = 0; t < nunknown && i < N; i++) {
            if (col[i] == UNK && done[i] != rstamp) {
                if (s->lrn.rec && rn < R_COARSE) rn = budget_reason(s, col, queue, t, &rf);
                col[i] = WHT;
                (*changed)++;
                if (s->lrn.rec) rgive(s, col, i, rf, rn, 1);
            }
        }
        if (*changed) return OK;
    }

    /* black components with a single exit; a component that touches a cell blackened
       here (marked in fresh[]) is only partly walked, so it waits for the next pass */
    int bstamp = ++s->walk.stamp_now, fstamp = ++s->walk.stamp_now, fill = 0, efill = 0;
    int *fresh = s->sea.fresh, *kcells = s->sea.kcells, *kid = s->sea.kid, *kfrom = s->sea.kfrom;
    int *kex = s->sea.kex;
    /* the black cells in order, on grids of at most 64 columns from the rows of black
       cells as they are now (sea_rows): a cell blackened below is not among them, and
       touches the component that reaches it, which waits as it would have; the cut
       vertices are only looked for when no cell was blackened */
    const uint64_t *brow = NULL;
    if (s->sea.open) {
        if (!rows) sea_rows(s, col);
        brow = s->sea.black;
    }
    int R = s->g.R, C = s->g.C, r = 0;
    /* without reasons, by rows of bits: each component a flood of the black cells not in
       one before (avail, with the cells blackened here), its exits the unknown cells next
       to it; the same components in the same order, their cells and exits in the order
       of the cells (the cut vertices come in another order, the same cells) */
    int walked = brow && !s->lrn.rec;
    if (walked) {
        uint64_t *avail = s->sea.open, *fr = s->sea.next, *unk = s->sea.front;
        uint64_t *kr = s->sea.flood;
        for (int q = 0; q < R; q++) {
            avail[q] = brow[q];
            fr[q] = kr[q] = 0;
            unk[q] = s->sea.unknown[q];
        }
        for (int r0 = 0; r0 < R; r0++)
            for (uint64_t t; (t = brow[r0] & avail[r0]) != 0;) {
                int i = r0 * C + lowest_bit(t), lo = r0, hi = r0, size = 0, exits = 0, one = -1;
                uint64_t touched = 0;
                kr[r0] = row_runs(t & (~t + 1), avail[r0]);
                flood_rows(s, kr, avail, &lo, &hi);
                kfrom[i] = fill;
                s->sea.kefrom[i] = efill;
                for (int q = lo; q <= hi; q++) {
                    touched |= kr[q] & fr[q];
                    for (uint64_t x = kr[q]; x; x &= x - 1) {
                        int v = q * C + lowest_bit(x);
                        kid[v] = i;
                        kcells[fill++] = v;
                    }
                }
                size = fill - kfrom[i];
                for (int q = lo > 0 ? lo - 1 : 0; q <= hi + 1 && q < R; q++)
                    for (uint64_t e = spread(kr, q, R) & unk[q]; e; e &= e - 1) {
                        one = q * C + lowest_bit(e);
                        kex[efill++] = one;
                        exits++;
                    }
                s->sea.kto[i] = fill;
                s->sea.keto[i] = efill;
                for (int q = lo; q <= hi; q++) {
                    avail[q] &= ~kr[q];
                    kr[q] = 0;
                }
                if (touched) continue;
                if (size < nblack || (want >= 0 && size < want)) {
                    if (exits > 1) continue;
                    if (exits == 0) return FAIL;
                    uint64_t b = s->g.cell_bit[one];
                    int q = s->g.cell_row[one];
                    col[one] = BLK;
                    fr[q] |= b;
                    avail[q] |= b;
                    unk[q] &= ~b;
                    nblack++;
                    (*changed)++;
                }
            }
    }
    uint64_t m = brow ? brow[0] : 0;
    for (int i = -1; !walked;) {
        if (brow) {
            while (!m && ++r < R) m = brow[r];
            if (!m) break;
            i = r * C + lowest_bit(m);
            m &= m - 1;
        } else {
            while (++i < N && col[i] != BLK) {
            }
            if (i >= N) break;
        }
        if (done[i] == bstamp) continue;
        /* the component's cells go to kcells from kfrom[i], each with kid = i (its first
           cell), its exits to kex from kefrom[i], for the cut vertices below */
        int h = fill, exits = 0, one = -1, estamp = ++s->walk.stamp_now, touched = 0;
        kfrom[i] = fill;
        s->sea.kefrom[i] = efill;
        kcells[fill++] = i;
        kid[i] = i;
        done[i] = bstamp;
        while (h < fill) {
            int v = kcells[h++];
            touched |= fresh[v] == fstamp;
            for (int d = 0; d < 4; d++) {
                int w = nb[v * 4 + d];
                if (w < 0) continue;
                if (col[w] == BLK && done[w] != bstamp) {
                    done[w] = bstamp;
                    kid[w] = i;
                    kcells[fill++] = w;
                } else if (col[w] == BLK && fresh[w] == fstamp) {
                    touched = 1;
                } else if (col[w] == UNK && seen[w] != estamp) {
                    seen[w] = estamp;
                    exits++;
                    one = w;
                    kex[efill++] = w;
                }
            }
        }
        s->sea.kto[i] = fill;
        s->sea.keto[i] = efill;
        if (touched) continue;
        int t = fill - kfrom[i];
        if (t < nblack || (want >= 0 && t < want)) {
            if (exits > 1) continue;
            int rf = 0, rn = R_COARSE;
            if (s->lrn.rec) { /* the component, its white walls and a black cell outside */
                rf = sea_walls(s, col, i, kcells + kfrom[i], t);
                for (int q = kfrom[i]; q < fill; q++) radd(&s->lrn, kcells[q]);
                if (!(want >= 0 && t < want))
                    for (int x = 0; x < N; x++)
                        if (col[x] == BLK && (done[x] != bstamp || kid[x] != i)) {
                            radd(&s->lrn, x);
                            break;
                        }
                rn = rlength(&s->lrn, rf);
            }
            if (exits == 0) {
                if (s->lrn.rec) rconflict(s, col, rf, rn, 1);
                return FAIL;
            }
            col[one] = BLK;
            s->sea.fresh[one] = fstamp;
            nblack++;
            (*changed)++;
            if (s->lrn.rec) rgive(s, col, one, rf, rn, 1);
        }
    }
    if (*changed) return OK;

    /* unknown cut vertices between black cells (Tarjan from the black root, which is on
       the other side of every cut); every black component was walked whole above */
    int n = cut_weights(s, col, root, WALK_SEA, -1, 0);
    for (int q = 0; q < n; q++) {
        int v = s->walk.queue[q];
        if (col[v] == UNK && s->walk.best[v] > 0) {
            col[v] = BLK;
            (*changed)++;
            if (s->lrn.rec) { /* a black cell beyond v, the white walls of its side, the root */
                int b = sea_beyond(s, col, root, v), rf = 0, rn = R_COARSE;
                if (b >= 0) {
                    int n = pocket(s, col, b, v);
                    rf = sea_walls(s, col, root, s->lrn.front, n);
                    radd(&s->lrn, b);
                    rn = rlength(&s->lrn, rf);
                }
                rgive(s, col, v, rf, rn, 1);
            }
        }
    }
    return OK;
}

/* ---- propagation -------------------------------------------------------------------- */

/* Applies the rules to a fixpoint. FAIL: no solution extends `col`. On OK, check
 * s->lim.stop: a limit may have cut the work short (the state is then merely unfinished). */
static int propagate_rules(Search *s, uint8_t *col);
static int nogood_sweep(Search *s, uint8_t *col, int *changed);

/* The rules to a fixpoint, and with learning the learned nogoods after them. */
static int propagate_fix(Search *s, uint8_t *col) {
    int ok = propagate_rules(s, col);
    /* with learning, the learned nogoods are one more rule, run after the others: what
       they decide starts the rules again */
    while (ok && s->lrn.on && s->lrn.count > 0 && !s->lim.stop) {
        int changed = 0;
        if (!nogood_sweep(s, col, &changed)) ok = FAIL;
        else if (!changed) break;
        else ok = propagate_rules(s, col);
    }
    return ok;
}

static int memo_propagate(Search *s, CsolveMemo *m, uint8_t *col);

static int propagate(Search *s, uint8_t *col) {
    /* a memo of fixpoints (section "the memo") answers a state propagated before */
    int ok = s->memo && !s->lrn.on && !s->lrn.rec && !s->lim.stop ? memo_propagate(s, s->memo, col)
                                                                   : propagate_fix(s, col);
#ifdef CSOLVE_TRACE
    /* a developer build (bench/core_identity.py) hashes every fixpoint reached (a
       refuted state is discarded, so only the refutation counts), so that two builds
       can be shown to deduce the same states in the same order */
    uint64_t h = (s->count.trace ^ (uint64_t)(ok + 1)) * 1099511628211ULL;
    for (int i = 0; ok && i < s->g.N; i++) h = (h ^ col[i]) * 1099511628211ULL;
    s->count.trace = h;
#endif
    return ok;
}

/* The rules, in the order propagate() applies them (the catalogue at the top). A rule
 * reads `col` and the white components (`ncomp` of them, labelled at the top of the
 * round), may decide cells (counting them in *changed) and returns FAIL on a
 * contradiction. `restart`: a change so far in the round starts the loop again from the
 * top after this rule (islands, pools and counting are one round, every later rule on its
 * own). `switchable`: NURIKABE_CSOLVE_OFF may name it (set.rule_on[] off). */
typedef int (*RuleFn)(Search *s, uint8_t *col, int ncomp, int *changed);

static const struct {
    const char *name;
    RuleFn fn;
    int switchable;
    int restart;
} rules[] = {
    [RULE_ISLANDS] = {"islands", rule_islands, 0, 0},
    [RULE_POOLS] = {"pools", rule_pools, 0, 0},
    [RULE_COUNTING] = {"counting", rule_counting, 0, 1},
    [RULE_AREAS] = {"areas", rule_areas, 1, 1},
    [RULE_CROSSINGS] = {"crossings", rule_crossings, 1, 1},
    [RULE_SEA] = {"sea", rule_sea, 0, 1},
    [RULE_REACH] = {"reach", rule_reach, 0, 1},
    [RULE_SIDES] = {"sides", rule_sides, 1, 1},
};

/* The other words of NURIKABE_CSOLVE_OFF: parts of a rule and of the search, each an int
 * of the switches (Settings) set to 0. */
static const struct {
    const char *name;
    size_t offset;
} knobs[] = {
    {"cuts", offsetof(Search, set.cuts)},                  /* reach: island cut cells */
    {"seareach", offsetof(Search, set.sea_reach)},         /* sea: the sea's budget */
    {"lastconflict", offsetof(Search, set.last_conflict)}, /* search: last-conflict branching */
    {"dominance", offsetof(Search, set.dominance)},        /* probing: skip dominated cells */
    {"probeorder", offsetof(Search, set.probe_order)},     /* probing: hemmed-in cells first */
    {"learning", offsetof(Search, set.learning)},          /* search: learning from conflicts */
    {"restarts", offsetof(Search, set.restarts)},          /* learning: restarts */
    {"reasons", offsetof(Search, set.reasons)},            /* learning: decision cuts */
};

static int propagate_rules(Search *s, uint8_t *col) {
    s->count.propagations++;
    if (s->walk.stamp_now > s->walk.stamp_limit) {
        /* stamps would overflow: start them again (nothing holds an old one here) */
        memset(s->walk.seen, 0, sizeof(int) * (2 * (size_t)s->g.N + 2));
        memset(s->walk.done, 0, sizeof(int) * (2 * (size_t)s->g.N + 2));
        memset(s->sea.fresh, 0, sizeof(int) * (size_t)s->g.N);
        memset(s->walk.node_stamp, 0, sizeof(int) * (size_t)s->g.N);
        s->walk.stamp_now = 0;
    }
    int rec = s->lrn.rec;
    if (rec) { /* marks given outside a rule (nogoods, probes) are not the next rule's */
        memcpy(s->lrn.snap, col, (size_t)s->g.N);
        rmark_next(s);
    }
    for (;;) {
        if (limit_reached(s)) return OK;
        int changed = 0;
        int n = white_components(s, col);
        if (n < 0) {
            if (rec) { /* a white path between two clues */
                int f, k = rpush(&s->lrn, s->wc.comp_cells + s->wc.bad_from,
                                 s->wc.bad_to - s->wc.bad_from, &f);
                rconflict(s, col, f, k, 1);
            }
            return FAIL;
        }
        for (int r = 0; r < NRULES; r++) {
            if (!s->set.rule_on[r]) continue;
            if (!rec) {
                if (!rules[r].fn(s, col, n, &changed)) return FAIL;
            } else {
                int before = changed;
                s->lrn.clen = R_COARSE;
                int ok = rules[r].fn(s, col, n, &changed);
                if (!ok || changed != before) rsweep(s, col, r);
                if (!ok) return FAIL;
            }
            if (rules[r].restart && changed) goto again;
        }
        return OK;
    again:;
    }
}

/* Whether a full board obeys every rule (independent of the propagation above). */
static int verify(Search *s, const uint8_t *col) {
    int N = s->g.N, R = s->g.R, C = s->g.C;
    for (int i = 0; i < N; i++)
        if (col[i] == UNK) return 0;
    int n = white_components(s, col);
    if (n < 0) return 0;
    for (int c = 0; c < n; c++) {
        int k = s->wc.comp_clue[c];
        if (k < 0) return 0;
        if (s->g.clue_val[k] > 0 && s->wc.comp_size[c] != s->g.clue_val[k]) return 0;
    }
    for (int r = 0; r + 1 < R; r++)
        for (int c = 0; c + 1 < C; c++) {
            int a = r * C + c;
            if (col[a] == BLK && col[a + 1] == BLK && col[a + C] == BLK && col[a + C + 1] == BLK)
                return 0;
        }
    int root = -1, nblack = 0;
    for (int i = 0; i < N; i++)
        if (col[i] == BLK) {
            if (root < 0) root = i;
            nblack++;
        }
    if (root < 0) return 1;
    int stamp = ++s->walk.stamp_now, head = 0, tail = 0;
    s->walk.queue[tail++] = root;
    s->walk.seen[root] = stamp;
    while (head < tail) {
        int v = s->walk.queue[head++];
        for (int d = 0; d < 4; d++) {
            int w = s->g.nb[v * 4 + d];
            if (w >= 0 && col[w] == BLK && s->walk.seen[w] != stamp) {
                s->walk.seen[w] = stamp;
                s->walk.queue[tail++] = w;
            }
        }
    }
    return tail == nblack;
}

/* ---- probing ------------------------------------------------------------------------ */

/* Failed literals to a fixpoint. FAIL: refuted. On OK (and no s->lim.stop), *cell is the
 * unknown cell to branch on (-1 when none is left) and *first the color to try first. */
static void mark_zone(Search *s, const uint8_t *col, const uint8_t *before, int zstamp);

/* Lists in s->prb.order the cells a probe pass takes, in the order it takes them: the unknown
 * cells (those marked zone[i] == zstamp only, unless zstamp < 0). In index order; with
 * s->set.probe_order, those with the most decided neighbours (a grid edge counts as one)
 * first, index order within each count: a cell hemmed in is likelier to be forced, and
 * what a probe decides shapes the probes after it in the pass. Measured on the corpus in
 * its 8 orientations (bench/tail.py --orientations), the native engine: 59.2 -> 51.7 s
 * of CPU in all, medians 0.19 / 1.00 / 14.3 -> 0.18 / 0.86 / 7.5 ms per size class,
 * the slowest 3.16 -> 2.72 s (janko-1091), 4 -> 1 over 2 s. Returns how many. */
static int probe_order(Search *s, const uint8_t *col, int zstamp) {
    int N = s->g.N, n = 0, *order = s->prb.order;
    const int *zone = s->prb.zone;
    for (int k = s->set.probe_order ? 4 : 0; k >= 0; k--) {
        for (int i = 0; i < N; i++) {
            if (col[i] != UNK || (zstamp >= 0 && zone[i] != zstamp)) continue;
            if (s->set.probe_order) {
                const int *a = s->g.nb + i * 4;
                int m = (a[0] < 0 || col[a[0]] != UNK) + (a[1] < 0 || col[a[1]] != UNK) +
                        (a[2] < 0 || col[a[2]] != UNK) + (a[3] < 0 || col[a[3]] != UNK);
                if (m != k) continue;
            }
            order[n++] = i;
        }
    }
    return n;
}

static int analyse(Search *s, const uint8_t *base, int f, int *out);

/* Propagates the probe `t` of cell i in state `col`. With reasons, its cells are recorded
 * one level below col's (i an assumption, R_PROBE), and when it is refuted the cells of
 * `col` the refutation stands on are left in s->lrn.front (their number in
 * s->lrn.nfront, -1 when a R_COARSE record was met); its records are then dropped. */
static int probe_state(Search *s, const uint8_t *col, uint8_t *t, int i) {
    Learn *L = &s->lrn;
    if (!L->rec) return propagate(s, t);
    int top = L->rtop;
    L->level++;
    L->rlev[i] = L->level;
    L->rlen[i] = R_PROBE;
    int ok = propagate(s, t);
    L->level--;
    if (!ok) L->nfront = analyse(s, col, -1, L->front);
    L->rpeak = L->rtop; /* the probe's records stay below it until the next is written */
    L->rtop = top;
    return ok;
}

/* Cell i, just set in `col` because its probe of the other color was refuted: its
 * reason is that refutation's frontier (probe_state), R_COARSE when there is none. */
static void probe_forced(Search *s, const uint8_t *col, int i) {
    Learn *L = &s->lrn;
    int f = 0, n = L->nfront < 0 ? R_COARSE : rpush(L, L->front, L->nfront, &f);
    rgive(s, col, i, f, n, 0);
#ifdef CSOLVE_RULE_STATS
    L->set_by[NRULES + 1][n < 0]++;
#endif
}

/* The na cells lrn.agree[] both probes of cell i set to one color, just set so in `col`:
 * their reason is the union of their frontiers in the two probes (as in probe_state),
 * those of the probe `b` from its records, which are the last written, those of `a`
 * after propagating it again. R_COARSE when a frontier meets R_COARSE. */
static void probe_agreed(Search *s, uint8_t *col, int i, int na) {
    Learn *L = &s->lrn;
    const int *agree = L->agree;
    int N = s->g.N, top = L->rtop, nfa = -1, nfb = -1;
    for (int k = 0; k < na; k++) col[agree[k]] = UNK; /* col as the probes saw it */
    L->rtop = L->rpeak; /* above the records of `b` */
    if (rpush(L, agree, na, &L->cfrom) == na) {
        L->clen = na;
        nfb = analyse(s, col, -1, L->front2);
    }
    if (nfb >= 0) {
        uint8_t *a = s->prb.probe_a;
        memcpy(a, col, (size_t)N);
        a[i] = BLK;
        L->level++;
        L->rlev[i] = L->level;
        L->rlen[i] = R_PROBE;
        s->prb.probing = 1;
        int ok = propagate(s, a);
        s->prb.probing = 0;
        L->level--;
        for (int k = 0; ok && k < na; k++) ok = a[agree[k]] == s->prb.probe_b[agree[k]];
        if (ok && !s->lim.stop) {
            L->clen = na; /* the list of agree is still at cfrom, below the records of a */
            nfa = analyse(s, col, -1, L->front);
        }
    }
    L->rtop = top;
    for (int k = 0; k < na; k++) col[agree[k]] = s->prb.probe_b[agree[k]];
    int f = 0, n = R_COARSE;
    if (nfa >= 0) {
        int stamp = wall_stamp(L);
        f = rbegin(L);
        for (int side = 0; side < 2; side++) {
            const int *q = side ? L->front2 : L->front;
            for (int k = 0; k < (side ? nfb : nfa); k++) {
                if (L->wmark[q[k]] == stamp) continue;
                L->wmark[q[k]] = stamp;
                radd(L, q[k]);
            }
        }
        n = rlength(L, f);
    }
    for (int k = 0; k < na; k++) {
        rgive(s, col, agree[k], f, n, 0);
#ifdef CSOLVE_RULE_STATS
        L->set_by[NRULES + 1][n < 0]++;
#endif
    }
}

/* With learning that diversifies (after a restart): one of the DIVERSIFY_TOP unknown
 * cells of `col` with the best probe scores, drawn by the search's xorshift generator. */
static int pick_diverse(Search *s, const uint8_t *col) {
    const long long *score = s->prb.score;
    int top[DIVERSIFY_TOP], n = 0;
    for (int i = 0; i < s->g.N; i++) {
        if (col[i] != UNK) continue;
        int k;
        if (n < DIVERSIFY_TOP) k = n++;
        else if (score[i] <= score[top[DIVERSIFY_TOP - 1]]) continue;
        else k = DIVERSIFY_TOP - 1;
        while (k > 0 && score[top[k - 1]] < score[i]) { /* ties keep the lower cell first */
            top[k] = top[k - 1];
            k--;
        }
        top[k] = i;
    }
    unsigned long long x = s->lrn.rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    s->lrn.rng = x;
    return top[(x >> 32) % (unsigned long long)n];
}

static int probe(Search *s, uint8_t *col, int *cell, uint8_t *first, const uint8_t *parent) {
    int N = s->g.N;
    uint8_t *a = s->prb.probe_a, *b = s->prb.probe_b, *before = s->prb.probe_before;
    int *zone = s->prb.zone, zstamp = 0; /* cells to probe again: zone[i] == zstamp */
    int local = parent != NULL && s->set.child_radius >= 0;
    /* The zone and dominance stamps are held across the propagations of a probe pass,
       so they start again here, between calls, never inside a propagation. */
    if (s->prb.zone_now > s->walk.stamp_limit) {
        memset(s->prb.zone, 0, sizeof(int) * (size_t)N);
        s->prb.zone_now = 0;
    }
    if (local) {
        zstamp = ++s->prb.zone_now;
        int saved = s->set.probe_radius;
        s->set.probe_radius = s->set.child_radius;
        mark_zone(s, col, parent, zstamp);
        s->set.probe_radius = saved;
    }
    for (int pass = 0;; pass++) {
        int progress = 0, best = -1;
        if (s->prb.safe_stamp > s->walk.stamp_limit) {
            memset(s->prb.safe_b, 0, sizeof(int) * (size_t)N);
            memset(s->prb.safe_w, 0, sizeof(int) * (size_t)N);
            s->prb.safe_stamp = 1; /* never 0, the value of the cleared marks */
        }
        s->prb.safe_stamp++;
        long long best_score = -1;
        memcpy(before, col, N);
        int nprobe = probe_order(s, col, (pass > 0 || local) ? zstamp : -1);
        for (int q = 0; q < nprobe; q++) {
            int i = s->prb.order[q];
            if (col[i] != UNK) continue; /* decided earlier in this pass */
            /* dominated: if another probe that held implied each color of this cell, its
               own probes hold too (the states they reach contain them), so they could only
               agree on cells or rescore it; it keeps its old score. Measured over the
               corpus, both ways interleaved in one process: medians 0.42 / 2.55 / 34.0 ms ->
               0.40 / 2.44 / 25.2 ms per size class, janko-1091 4.3 -> 1.4 s. */
            if (s->set.dominance && s->prb.safe_b[i] == s->prb.safe_stamp &&
                s->prb.safe_w[i] == s->prb.safe_stamp)
                continue;
            s->count.probes++;
            memcpy(a, col, N);
            a[i] = BLK;
            s->prb.probing = 1;
            int ra = probe_state(s, col, a, i);
            s->prb.probing = 0;
            if (s->lim.stop) return OK;
            if (!ra) {
                col[i] = WHT;
                if (s->lrn.rec) probe_forced(s, col, i);
                s->lrn.witness = i;
                if (!propagate(s, col)) return FAIL;
                if (s->lim.stop) return OK;
                progress = 1;
                s->prb.safe_stamp++;
                continue;
            }
            memcpy(b, col, N);
            b[i] = WHT;
            s->prb.probing = 1;
            int rb = probe_state(s, col, b, i);
            s->prb.probing = 0;
            if (s->lim.stop) return OK;
            if (!rb) {
                col[i] = BLK;
                if (s->lrn.rec) probe_forced(s, col, i);
                s->lrn.witness = i;
                if (!propagate(s, col)) return FAIL;
                if (s->lim.stop) return OK;
                progress = 1;
                s->prb.safe_stamp++;
                continue;
            }
            int da = 0, db = 0, agree = 0;
            for (int j = 0; j < N; j++) {
                if (col[j] != UNK) continue;
                da += a[j] != UNK;
                db += b[j] != UNK;
                if (a[j] == BLK || b[j] == BLK) s->prb.safe_b[j] = s->prb.safe_stamp;
                if (a[j] == WHT || b[j] == WHT) s->prb.safe_w[j] = s->prb.safe_stamp;
                if (a[j] != UNK && a[j] == b[j]) {
                    col[j] = a[j];
                    if (s->lrn.rec) s->lrn.agree[agree] = j;
                    agree++;
                }
            }
            if (agree && s->lrn.rec) probe_agreed(s, col, i, agree);
            if (agree) {
                s->lrn.witness = -1;
                if (!propagate(s, col)) return FAIL;
                if (s->lim.stop) return OK;
                progress = 1;
                s->prb.safe_stamp++;
                continue;
            }
            /* the cell whose weaker color still decides the most (ties: the stronger);
               measured against the product (da + 1) * (db + 1): 2-3x fewer nodes on the
               hardest corpus puzzles, the same on the rest */
            int lo = da < db ? da : db, hi = da < db ? db : da;
            long long score = (long long)lo * (N + 1) + hi;
            s->prb.score[i] = score;
            if (s->set.lean) s->prb.lean_color[i] = da < db ? BLK : WHT;
            if (score > best_score) {
                best_score = score;
                best = i;
            }
        }
        if (!progress) {
            if (pass > 0 || local) {
                /* cells not probed again keep the score of their last probe */
                best = -1;
                best_score = -1;
                for (int i = 0; i < N; i++) {
                    if (col[i] == UNK && s->prb.score[i] > best_score) {
                        best_score = s->prb.score[i];
                        best = i;
                    }
                }
            }
            if (s->lrn.diversify && best >= 0) best = pick_diverse(s, col);
            *cell = best;
            *first = WHT; /* grow islands first: finds solutions sooner */
            /* lean: the color of the cell's last probe (white when it has none) */
            if (s->set.lean && best >= 0 && s->prb.lean_color[best] != UNK)
                *first = s->prb.lean_color[best];
            return OK;
        }
        if (s->set.probe_radius < 0) continue; /* probe every cell again */
        /* the next pass probes only cells within probe_radius steps of a changed cell */
        zstamp = ++s->prb.zone_now;
        mark_zone(s, col, before, zstamp);
    }
}

/* Marks zone[] = zstamp on the cells within probe_radius steps of a cell where `col`
 * differs from `before`. */
static void mark_zone(Search *s, const uint8_t *col, const uint8_t *before, int zstamp) {
    int N = s->g.N, h = 0, t = 0;
    int *zone = s->prb.zone;
    for (int i = 0; i < N; i++) {
        if (col[i] != before[i]) {
            zone[i] = zstamp;
            s->walk.best[i] = 0;
            s->walk.queue[t++] = i;
        }
    }
    while (h < t) {
        int v = s->walk.queue[h++];
        if (s->walk.best[v] >= s->set.probe_radius) continue;
        for (int d = 0; d < 4; d++) {
            int w = s->g.nb[v * 4 + d];
            if (w >= 0 && zone[w] != zstamp) {
                zone[w] = zstamp;
                s->walk.best[w] = s->walk.best[v] + 1;
                s->walk.queue[t++] = w;
            }
        }
    }
}

/* ---- search ------------------------------------------------------------------------- */

static int grow_frames(Search *s, int depth) {
    if (depth < s->trail.cap) return 1;
    int cap = s->trail.cap ? s->trail.cap * 2 : 16;
    while (cap <= depth) cap *= 2;
    uint8_t *frames = realloc(s->trail.frames, (size_t)cap * s->g.N);
    int *cells = realloc(s->trail.frame_cell, sizeof(int) * cap);
    int *tried = realloc(s->trail.frame_tried, sizeof(int) * cap);
    uint8_t *first = realloc(s->trail.frame_first, cap);
    if (frames) s->trail.frames = frames;
    if (cells) s->trail.frame_cell = cells;
    if (tried) s->trail.frame_tried = tried;
    if (first) s->trail.frame_first = first;
    if (!frames || !cells || !tried || !first) return 0;
    s->trail.cap = cap;
    return 1;
}

/* The next child of frame `f` (its first colour, then the other): copied from the frame
 * into the slot above the trail's top, with the frame's cell set; counted as a node.
 * NULL when the trail cannot grow (out of memory). */
static uint8_t *enter_child(Search *s, int f) {
    int N = s->g.N;
    uint8_t color = s->trail.frame_first[f];
    if (s->trail.frame_tried[f] == 1) color = color == BLK ? WHT : BLK;
    s->trail.frame_tried[f]++;
    if (!grow_frames(s, s->trail.depth)) return NULL;
    uint8_t *parent = s->trail.frames + (size_t)f * N;
    uint8_t *child = s->trail.frames + (size_t)s->trail.depth * N;
    memcpy(child, parent, N);
    child[s->trail.frame_cell[f]] = color;
    s->count.nodes++;
    return child;
}


/* Puts cell x first in the list of last conflicts (dropping the oldest when it is full). */
static void note_conflict(Search *s, int x) {
    int j = 0;
    while (j < s->trail.nlc && s->trail.lc[j] != x) j++;
    if (j == s->trail.nlc) {
        if (s->trail.nlc < LC_CAP) s->trail.nlc++;
        else j--;
    }
    for (; j > 0; j--) s->trail.lc[j] = s->trail.lc[j - 1];
    s->trail.lc[0] = x;
}

/* The cell to branch on in state `col`: the latest conflict cell still unknown there, or
 * `cell` (the probe's choice) when none is; conflict cells decided in `col` leave the list. */
static int conflict_cell(Search *s, const uint8_t *col, int cell) {
    int m = 0;
    for (int j = 0; j < s->trail.nlc; j++)
        if (col[s->trail.lc[j]] == UNK) s->trail.lc[m++] = s->trail.lc[j];
    s->trail.nlc = m;
    return m > 0 ? s->trail.lc[0] : cell;
}

static int learn_begin(Search *s);
static int learn_handed(Search *s);
static int search_learn(Search *s);

/* The root node of a search: 1 it is a solution, 0 it is refuted or solved, or a limit
 * stopped it (s->lim.stop), -1 out of memory, 2 frame 0 is ready to branch. */
static int search_root(Search *s) {
    int N = s->g.N;
    if (s->lim.max_nodes == 0) {
        s->lim.stop = 2;
        return 0;
    }
    s->trail.started = 1;
    if (!grow_frames(s, 0)) return -1;
    uint8_t *root = s->trail.frames;
    memcpy(root, s->trail.start, N);
    int ok = 1;
    for (int k = 0; k < s->g.K; k++) {
        if (root[s->g.clue_cell[k]] == BLK) ok = 0;
        root[s->g.clue_cell[k]] = WHT;
    }
    s->count.nodes++;
    int cell = -1;
    uint8_t first = WHT;
    if (ok) ok = propagate(s, root);
    if (s->lim.stop) return 0;
    /* with `near`, the root probes first near what `start` adds to it, as a child
       node does near what its branch changed */
    if (ok) ok = probe(s, root, &cell, &first, s->trail.near);
    if (s->lim.stop) return 0;
    if (!ok) {
        s->trail.finished = s->trail.complete = 1;
        return 0;
    }
    if (cell < 0) {
        s->trail.finished = s->trail.complete = 1;
        if (!verify(s, root)) return 0;
        memcpy(s->trail.solution, root, N);
        return 1;
    }
    s->trail.frame_cell[0] = cell;
    s->trail.frame_tried[0] = 0;
    s->trail.frame_first[0] = first;
    s->trail.depth = 1;
    return 2;
}

/* Runs the search to its next solution (left in s->trail.solution): 1 found, 0 none left or a
 * limit stopped it (s->lim.stop), -1 out of memory. With learning that waits
 * (CsolveOptions.learn_after), it hands over to search_learn() once the search is long. */
static int search_next(Search *s) {
    int N = s->g.N;
    if (s->trail.finished) return 0;
    if (!s->trail.started) {
        int r = search_root(s);
        if (r != 2) return r;
    }
    while (s->trail.depth > 0) {
        if (s->lrn.waiting && s->count.nodes >= s->lrn.after) { /* a long search: learn */
            if (!learn_begin(s)) return -1;
            return search_learn(s);
        }
        if (limit_reached(s)) return 0;
        if (s->lim.max_nodes >= 0 && s->count.nodes >= s->lim.max_nodes) {
            s->lim.stop = 2;
            return 0;
        }
        int f = s->trail.depth - 1;
        if (s->trail.frame_tried[f] == 2) {
            s->trail.depth--;
            continue;
        }
        uint8_t *child = enter_child(s, f);
        if (!child) return -1;
        uint8_t *parent = s->trail.frames + (size_t)f * N; /* after the trail may have moved */
        int cell = -1;
        uint8_t first = WHT;
        int ok = propagate(s, child);
        if (s->lim.stop) return 0;
        if (ok) ok = probe(s, child, &cell, &first, parent);
        if (s->lim.stop) return 0;
        if (!ok) {
            if (s->set.last_conflict) note_conflict(s, s->trail.frame_cell[f]);
            continue;
        }
        if (cell >= 0 && s->trail.nlc > 0) cell = conflict_cell(s, child, cell);
        if (cell < 0) {
            if (!verify(s, child)) continue;
            memcpy(s->trail.solution, child, N);
            if (s->lrn.waiting && !learn_handed(s)) return -1;
            return 1;
        }
        s->trail.frame_cell[s->trail.depth] = cell;
        s->trail.frame_tried[s->trail.depth] = 0;
        s->trail.frame_first[s->trail.depth] = first;
        s->trail.depth++;
    }
    s->trail.finished = s->trail.complete = 1;
    return 0;
}

/* ---- learning ------------------------------------------------------------------------
 *
 * With learning on (strong calls that ask for it; CsolveOptions.learn), search_learn()
 * replaces search_next(): the same nodes (propagation, probing, the same branching
 * cells), and in addition:
 *
 *  nogoods   when a child's subtree is closed, the search knows a set of decisions (cell,
 *            color) that no solution not yet handed back extends: a nogood. A refuted
 *            leaf's is its decision cut: analyse() walks the reasons the rules recorded
 *            (section "reasons") back from the refutation to the decisions it stands on,
 *            a subset of the path (only with CsolveOptions.reasons, off by default: the
 *            figures of docs/solver.md; else, or with NURIKABE_CSOLVE_OFF=reasons, the
 *            path itself). A frame
 *            both of whose children are closed gets the union of their nogoods less its
 *            own cell (resolution). Built with -DLEARN_TESTS=k, the leaf's nogood is
 *            instead its path shortened by deletion: decision d_g is dropped when the
 *            frame above it (the state its earlier decisions imply) plus the decisions
 *            kept below it is refuted by propagation, or by both probes of the cell whose
 *            probes failed at the leaf (k tries, the latest decisions first); the tests
 *            cost more than they saved (on the corpus's tail 35.0 -> 25.8 s of CPU
 *            without them, bench/results/solver-log.md), so k is 0 by default (the check
 *            build tests both). The rules' reasons are wide (the reach rule's walls and the
 *            sea's budget span the grid), so a cut is most often nearly the whole path:
 *            93% of its literals on the corpus's four slowest puzzles, for 30% more time
 *            a node (docs/solver.md, "Figures of learning").
 *  backjump  a closed child whose nogood lacks its frame's decision refutes the frame
 *            too: the frame is closed without trying its other color, and so on upward
 *            (with decision cuts or deletion tests; a path always holds its decision).
 *  store     the nogood a frame's first child closes with is stored (at most LEARN_CAP,
 *            LEARN_MAX_LEN literals each) and propagates, as one more rule, in every
 *            propagation after the others: two watched literals per nogood (position
 *            ng_w1, ng_w2), its other literals read only when one of them holds. The
 *            store is checked whole in each propagation, not from lists of watchers,
 *            because a state here is a copy, not a trail of changes; pruned by length
 *            (each literal is a decision of its own level, so its length is its LBD):
 *            when full, the longer half goes.
 *  restarts  after LEARN_RESTART_UNIT * luby(i) refuted leaves, the search goes back to
 *            the root (re-propagated and re-probed with the store), keeping the store
 *            and the last-conflict cells, and branches first on each cell's color on
 *            the path it left (saved phases); NURIKABE_CSOLVE_OFF=restarts: none.
 *            Restarts serve the search for a solution (its heavy tail), so they stop
 *            once it has handed back more than LEARN_RESTART_SOLUTIONS solutions, and
 *            in a search whose learning starts late (CsolveOptions.learn_after, the
 *            native engine's default) more than LEARN_LATE_RESTART_SOLUTIONS (0 by
 *            default: from its first on): such a search is then proving that there is
 *            no other solution, which takes the whole space, and a restart searches
 *            parts of it again. janko-1091 turned 3, the one corpus run past node 3,000
 *            (its solution came before): 4,316 nodes with restarts, 3,517 without. The
 *            hand-over's own restart (with reasons, below) still runs.
 *  diversify (CsolveOptions.diversify) from the first restart on, the branching cell is
 *            drawn from the DIVERSIFY_TOP best scored cells by a seeded generator, so
 *            that each restart descends by another path (randomized restarts, Gomes,
 *            Selman and Kautz: the runs of a search for a first solution of a sparse
 *            grid have a heavy tail, one orientation of a grid 129 nodes, its seven
 *            others more than 11,000). The saved phases still give the colors. The
 *            same seed in every search: the same puzzle gives the same tree on every
 *            machine.
 *
 * Counts stay exact. Invariant: every nogood kept or passed up is violated by no
 * solution that has not been handed back. A rule's deduction, a refutation and a
 * resolvent keep it; a subtree closes only when all of it is searched, so the solutions
 * in it have been handed back; the path to a solution handed back is stored as a nogood
 * (kept for good) while restarts are allowed (up to LEARN_RESTART_SOLUTIONS solutions;
 * then no more restarts), so a restart never finds it again. The nogoods are therefore
 * sound for "no other solution" but not implied by the rules alone once a solution was
 * handed back; they live and die with the search. A limit never refutes anything (a
 * test cut short keeps the decision). A decision cut keeps the invariant too: every
 * reason holds in every solution not yet handed back (a rule's in every solution, a
 * nogood's and so a probe's in those not handed back), and every cell of the root holds
 * in them, so a solution with the cut's decisions would have every cell the walk went
 * through, and the refutation.
 *
 * Built with -DCSOLVE_CHECK_NOGOODS (tests/solver/test_learning.py), every nogood is
 * checked against all the solutions of a grid of at most CHECK_CELLS cells (found by
 * brute force, by a check of its own): any solution not yet handed back that violates
 * it aborts the program. So does a reason that does not hold (check_reason), names an
 * unknown cell or its own, and a record analyse() reads that is not the one written at
 * its level on the current path. Built with -DCSOLVE_RULE_STATS, csolve_free() prints
 * how many cells each rule set with a reason of cells and with R_COARSE.
 */

#ifndef LEARN_TESTS
#define LEARN_TESTS 0
#endif
#ifndef LEARN_CAP
#define LEARN_CAP 2000
#endif
#ifndef LEARN_MAX_LEN
#define LEARN_MAX_LEN 40
#endif
#ifndef LEARN_RESTART_UNIT
#define LEARN_RESTART_UNIT 64
#endif
#ifndef LEARN_WITNESS
#define LEARN_WITNESS 1
#endif
#ifndef LEARN_RESTART_SOLUTIONS
#define LEARN_RESTART_SOLUTIONS 16
#endif
#ifndef LEARN_LATE_RESTART_SOLUTIONS
#define LEARN_LATE_RESTART_SOLUTIONS 0
#endif

static inline int lit_of(int cell, int color) { return cell * 2 + (color == WHT); }
static inline uint8_t lit_color(int l) { return (l & 1) ? WHT : BLK; }

/* The color of the branch of frame f the trail is in (its children tried so far: 1 or 2). */
static uint8_t frame_color(const Search *s, int f) {
    uint8_t first = s->trail.frame_first[f];
    return s->trail.frame_tried[f] == 1 ? first : (first == BLK ? WHT : BLK);
}

/* The reason of nogood i's deduction: its cells but the one at position `unit`, which
 * it sets (unit < 0: it refutes `col`, all its cells). */
static void nogood_reason(Search *s, const uint8_t *col, int i, int unit, int refutes) {
    Learn *L = &s->lrn;
    int f = rbegin(L), n = L->ng_len[i];
    for (int j = 0; j < n; j++)
        if (j != unit) radd(L, L->lit[L->ng_from[i] + j] >> 1);
    int k = rlength(L, f);
    if (refutes) rconflict(s, col, f, k, 0);
    else rgive(s, col, L->lit[L->ng_from[i] + unit] >> 1, f, k, 0);
#ifdef CSOLVE_RULE_STATS
    if (!refutes) L->set_by[NRULES][0]++;
#endif
}

/* The learned nogoods on `col`: FAIL when all the literals of one hold; the last literal
 * of one whose others all hold is set false (its cell gets the other color). */
static int nogood_sweep(Search *s, uint8_t *col, int *changed) {
    Learn *L = &s->lrn;
    for (int i = 0; i < L->count; i++) {
        const int *q = L->lit + L->ng_from[i];
        int n = L->ng_len[i];
        if (n == 1) {
            uint8_t c = col[q[0] >> 1];
            if (c == lit_color(q[0])) {
                if (L->rec) nogood_reason(s, col, i, -1, 1);
                return FAIL;
            }
            if (c == UNK) {
                col[q[0] >> 1] = lit_color(q[0]) == BLK ? WHT : BLK;
                (*changed)++;
                if (L->rec) nogood_reason(s, col, i, 0, 0);
            }
            continue;
        }
        int a = q[L->ng_w1[i]], b = q[L->ng_w2[i]];
        uint8_t ca = col[a >> 1], cb = col[b >> 1];
        int ta = ca == lit_color(a), tb = cb == lit_color(b);
        if (!ta && !tb) continue;                                 /* two literals open */
        if ((ca != UNK && !ta) || (cb != UNK && !tb)) continue;   /* one false: satisfied */
        int open1 = -1, open2 = -1, sat = -1;
        for (int j = 0; j < n; j++) {
            uint8_t c = col[q[j] >> 1];
            if (c == UNK) {
                if (open1 < 0) open1 = j;
                else if (open2 < 0) open2 = j;
            } else if (c != lit_color(q[j])) {
                sat = j;
                break;
            }
        }
        if (sat >= 0) { /* watch the false literal in place of a true one */
            if (ta) L->ng_w1[i] = sat;
            else L->ng_w2[i] = sat;
            continue;
        }
        if (open1 < 0) {
            if (L->rec) nogood_reason(s, col, i, -1, 1);
            return FAIL;
        }
        if (open2 < 0) { /* unit: its open literal is false */
            col[q[open1] >> 1] = lit_color(q[open1]) == BLK ? WHT : BLK;
            (*changed)++;
            if (L->rec) nogood_reason(s, col, i, open1, 0);
            int other = L->ng_w1[i] != open1 ? L->ng_w1[i] : L->ng_w2[i];
            L->ng_w1[i] = open1;
            L->ng_w2[i] = other;
            continue;
        }
        L->ng_w1[i] = open1;
        L->ng_w2[i] = open2;
    }
    return OK;
}

#ifdef CSOLVE_CHECK_NOGOODS
#define CHECK_CELLS 20

/* Whether a full board is a solution: a check of its own, not verify()'s. */
static int brute_valid(const Search *s, const uint8_t *col, int *seen, int *queue) {
    int N = s->g.N, R = s->g.R, C = s->g.C, blacks = 0, root = -1;
    for (int r = 0; r + 1 < R; r++)
        for (int c = 0; c + 1 < C; c++) {
            int a = r * C + c;
            if (col[a] == BLK && col[a + 1] == BLK && col[a + C] == BLK && col[a + C + 1] == BLK)
                return 0;
        }
    for (int i = 0; i < N; i++) seen[i] = 0;
    for (int i = 0; i < N; i++) {
        if (col[i] == BLK) {
            blacks++;
            if (root < 0) root = i;
            continue;
        }
        if (seen[i]) continue;
        int h = 0, t = 0, clues = 0, value = 0;
        seen[i] = 1;
        queue[t++] = i;
        while (h < t) {
            int v = queue[h++];
            if (s->g.cell_clue[v] >= 0) {
                clues++;
                value = s->g.clue_val[s->g.cell_clue[v]];
            }
            for (int d = 0; d < 4; d++) {
                int w = s->g.nb[v * 4 + d];
                if (w >= 0 && col[w] == WHT && !seen[w]) {
                    seen[w] = 1;
                    queue[t++] = w;
                }
            }
        }
        if (clues != 1 || (value > 0 && t != value)) return 0;
    }
    if (root < 0) return 1;
    int h = 0, t = 0;
    seen[root] = 2;
    queue[t++] = root;
    while (h < t) {
        int v = queue[h++];
        for (int d = 0; d < 4; d++) {
            int w = s->g.nb[v * 4 + d];
            if (w >= 0 && col[w] == BLK && seen[w] != 2) {
                seen[w] = 2;
                queue[t++] = w;
            }
        }
    }
    return t == blacks;
}

/* Every solution extending the start (clue cells white), once, on grids of at most
 * CHECK_CELLS cells. */
static void brute_solutions(Search *s) {
    int N = s->g.N;
    s->lrn.nbrute = -1;
    if (N > CHECK_CELLS) return;
    uint8_t col[CHECK_CELLS], fixed[CHECK_CELLS];
    int seen[CHECK_CELLS], queue[CHECK_CELLS], free_cells[CHECK_CELLS], m = 0;
    for (int i = 0; i < N; i++) {
        fixed[i] = s->g.cell_clue[i] >= 0 ? WHT : s->trail.start[i];
        if (fixed[i] == UNK) free_cells[m++] = i;
    }
    s->lrn.nbrute = 0;
    for (long bits = 0; bits < (1L << m); bits++) {
        memcpy(col, fixed, N);
        for (int j = 0; j < m; j++) col[free_cells[j]] = (bits >> j) & 1 ? BLK : WHT;
        if (!brute_valid(s, col, seen, queue)) continue;
        uint8_t *more = realloc(s->lrn.brute, (size_t)(s->lrn.nbrute + 1) * N);
        uint8_t *flags = realloc(s->lrn.reported, (size_t)s->lrn.nbrute + 1);
        if (more) s->lrn.brute = more;
        if (flags) s->lrn.reported = flags;
        if (!more || !flags) abort();
        memcpy(s->lrn.brute + (size_t)s->lrn.nbrute * N, col, N);
        s->lrn.reported[s->lrn.nbrute++] = 0;
    }
}

/* Aborts when a solution not yet handed back has every literal of the nogood. */
static void check_nogood(Search *s, const int *lits, int n) {
    if (s->lrn.nbrute == -2) brute_solutions(s);
    if (s->lrn.nbrute < 0) return;
    s->lrn.checked++;
    for (int k = 0; k < s->lrn.nbrute; k++) {
        const uint8_t *sol = s->lrn.brute + (size_t)k * s->g.N;
        if (s->lrn.reported[k]) continue;
        int j = 0;
        while (j < n && sol[lits[j] >> 1] == lit_color(lits[j])) j++;
        if (j == n) {
            fprintf(stderr, "csolve: a learned nogood of %d literals cuts solution %d\n", n, k);
            abort();
        }
    }
}

/* Marks a solution handed back. */
static void check_reported(Search *s, const uint8_t *col) {
    if (s->lrn.nbrute == -2) brute_solutions(s);
    for (int k = 0; k < s->lrn.nbrute; k++)
        if (!memcmp(s->lrn.brute + (size_t)k * s->g.N, col, s->g.N)) s->lrn.reported[k] = 1;
}
#endif

#ifdef CSOLVE_CHECK_NOGOODS
/* Aborts when a reason does not hold: a solution (with `all`; else one not yet handed
 * back) has the colors of its cells in `col` and not the color of `cell` (cell < 0: the
 * reason refutes `col`, so no solution may have them all); or a cell of it is unknown. */
static void check_reason(Search *s, const uint8_t *col, int cell, const int *cells, int n,
                         int all) {
    for (int j = 0; j < n; j++)
        if (col[cells[j]] == UNK || cells[j] == cell) {
            fprintf(stderr, "csolve: a reason names the %s cell %d\n",
                    cells[j] == cell ? "implied" : "unknown", cells[j]);
            abort();
        }
    if (s->lrn.nbrute == -2) brute_solutions(s);
    if (s->lrn.nbrute < 0) return;
    s->lrn.rchecked++;
    for (int k = 0; k < s->lrn.nbrute; k++) {
        const uint8_t *sol = s->lrn.brute + (size_t)k * s->g.N;
        if (!all && s->lrn.reported[k]) continue;
        int j = 0;
        while (j < n && sol[cells[j]] == col[cells[j]]) j++;
        if (j < n || (cell >= 0 && sol[cell] == col[cell])) continue;
        fprintf(stderr, "csolve: a reason of %d cells %s solution %d\n", n,
                cell < 0 ? "refutes" : "does not imply its cell in", k);
        abort();
    }
}
#endif

/* Walks the reasons back from the last refutation (s->lrn.cfrom, clen). Given `base` (the
 * state a probe was made in), it stops at the cells set in base: it lists them in `out`
 * (those of the root left out) and returns how many, or -1 when it meets R_COARSE.
 * Without, it returns the refuted leaf's decision cut, written to `out` in path order:
 * the decisions of frames 0..f the reasons reach, and every decision at or above a level
 * whose R_COARSE record they reach. A cut is a subset of the path. */
static int analyse(Search *s, const uint8_t *base, int f, int *out) {
    Learn *L = &s->lrn;
    const uint8_t *root = s->trail.frames;
    int *stack = L->astack, *mark = L->amark, sp = 0, n = 0, coarse = 0;
    if (L->amark_now >= STAMP_LIMIT) {
        memset(L->amark, 0, sizeof(int) * (size_t)s->g.N);
        memset(L->adec, 0, sizeof(int) * ((size_t)s->g.N + 2));
        L->amark_now = 0;
    }
    int stamp = ++L->amark_now;
    if (L->clen == R_COARSE) {
        if (base) return -1;
        coarse = L->level;
    }
    for (int j = 0; j < L->clen; j++) {
        int x = L->rbuf[L->cfrom + j];
        if (mark[x] != stamp) {
            mark[x] = stamp;
            stack[sp++] = x;
        }
    }
    while (sp > 0) {
        int x = stack[--sp];
        if (root[x] != UNK) continue;
        if (base && base[x] != UNK) {
            out[n++] = x;
            continue;
        }
        int lev = L->rlev[x], len = L->rlen[x];
#ifdef CSOLVE_CHECK_NOGOODS
        /* the record is the one written when x was set on this path: at level lev */
        if (!base && (lev < 1 || lev > f + 1 ||
                      (lev <= f && s->trail.frames[(size_t)lev * s->g.N + x] == UNK) ||
                      s->trail.frames[(size_t)(lev - 1) * s->g.N + x] != UNK)) {
            fprintf(stderr, "csolve: cell %d has a stale record (level %d, leaf %d)\n", x, lev,
                    f + 1);
            abort();
        }
#endif
        if (!base && lev <= coarse) continue; /* its decisions are all in */
        if (len == R_DECISION) {
            L->adec[lev] = stamp;
        } else if (len >= 0) {
            const int *q = L->rbuf + L->rfrom[x];
            for (int j = 0; j < len; j++) {
                if (mark[q[j]] != stamp) {
                    mark[q[j]] = stamp;
                    stack[sp++] = q[j];
                }
            }
        } else if (len == R_COARSE || !base) {
            if (base) return -1;
            coarse = lev; /* lev > coarse here */
        }
        /* R_PROBE (with base): the probe's own assumption */
    }
    if (base) return n;
    for (int g = 0; g <= f; g++)
        if (g + 1 <= coarse || L->adec[g + 1] == stamp)
            out[n++] = lit_of(s->trail.frame_cell[g], frame_color(s, g));
    return n;
}

/* Drops the longer half of the nogoods that may go (ties: the older go first). */
static void prune_store(Search *s) {
    Learn *L = &s->lrn;
    int N = s->g.N, *hist = L->path2; /* N+2 counts by length (a nogood has at most N) */
    memset(hist, 0, sizeof(int) * ((size_t)N + 2));
    int loose = 0;
    for (int i = 0; i < L->count; i++)
        if (!L->ng_keep[i]) {
            hist[L->ng_len[i]]++;
            loose++;
        }
    int target = loose / 2, upto = 0, len = 0; /* keep lengths < len, and some of len */
    while (len <= N && upto + hist[len] <= target) upto += hist[len++];
    int room = target - upto; /* of length len, keep the newest `room` */
    int of_len = len <= N ? hist[len] : 0, skip = of_len - room, m = 0, nlit = 0;
    for (int i = 0; i < L->count; i++) {
        int l = L->ng_len[i];
        if (!L->ng_keep[i]) {
            if (l > len) continue;
            if (l == len && skip-- > 0) continue;
        }
        memmove(L->lit + nlit, L->lit + L->ng_from[i], sizeof(int) * (size_t)l);
        L->ng_from[m] = nlit;
        L->ng_len[m] = l;
        L->ng_w1[m] = L->ng_w1[i];
        L->ng_w2[m] = L->ng_w2[i];
        L->ng_keep[m] = L->ng_keep[i];
        nlit += l;
        m++;
    }
    L->count = m;
    L->nlit = nlit;
}

/* Stores a nogood (kept for good with `keep`); 0: out of memory. */
static int learn_add(Search *s, const int *lits, int n, int keep) {
    Learn *L = &s->lrn;
    if (n == 0 || (n > LEARN_MAX_LEN && !keep)) return 1;
    if (L->count >= L->cap) {
        if (L->cap >= LEARN_CAP) prune_store(s); /* full: the longer half goes */
        if (L->count >= L->cap) {                /* room to grow (or all are kept) */
            int cap = L->cap * 2;
            int *from = realloc(L->ng_from, sizeof(int) * cap);
            if (from) L->ng_from = from;
            int *len = realloc(L->ng_len, sizeof(int) * cap);
            if (len) L->ng_len = len;
            int *w1 = realloc(L->ng_w1, sizeof(int) * cap);
            if (w1) L->ng_w1 = w1;
            int *w2 = realloc(L->ng_w2, sizeof(int) * cap);
            if (w2) L->ng_w2 = w2;
            uint8_t *k = realloc(L->ng_keep, cap);
            if (k) L->ng_keep = k;
            if (!from || !len || !w1 || !w2 || !k) return 0;
            L->cap = cap;
        }
    }
    if (L->nlit + n > L->caplit) {
        int cap = L->caplit * 2;
        while (cap < L->nlit + n) cap *= 2;
        int *lit = realloc(L->lit, sizeof(int) * cap);
        if (!lit) return 0;
        L->lit = lit;
        L->caplit = cap;
    }
    memcpy(L->lit + L->nlit, lits, sizeof(int) * (size_t)n);
    L->ng_from[L->count] = L->nlit;
    L->ng_len[L->count] = n;
    L->ng_w1[L->count] = n - 1; /* the latest decisions: the first to be open again */
    L->ng_w2[L->count] = n > 1 ? n - 2 : n - 1;
    L->ng_keep[L->count] = (uint8_t)keep;
    L->nlit += n;
    L->count++;
    L->learned++;
    return 1;
}

/* Whether `base` with the literals `lits` set is refuted: by propagation, or by both
 * probes of the witness cell. A limit is never a refutation. */
static int refuted_rec(Search *s, const uint8_t *base, const int *lits, int n);

static int refuted(Search *s, const uint8_t *base, const int *lits, int n) {
    int rec = s->lrn.rec, r;
    s->lrn.rec = 0; /* an older state: its cells' records must stay as they are */
    r = refuted_rec(s, base, lits, n);
    s->lrn.rec = rec;
    return r;
}

static int refuted_rec(Search *s, const uint8_t *base, const int *lits, int n) {
    int N = s->g.N;
    uint8_t *t = s->lrn.test;
    memcpy(t, base, N);
    for (int j = 0; j < n; j++) {
        int cell = lits[j] >> 1;
        if (t[cell] != UNK && t[cell] != lit_color(lits[j])) return 1;
        t[cell] = lit_color(lits[j]);
    }
    if (!propagate(s, t)) return 1;
    int w = LEARN_WITNESS ? s->lrn.witness : -1;
    if (s->lim.stop || w < 0 || t[w] != UNK) return 0;
    uint8_t *a = s->prb.probe_a, *b = s->prb.probe_b;
    memcpy(a, t, N);
    a[w] = BLK;
    if (propagate(s, a) || s->lim.stop) return 0;
    memcpy(b, t, N);
    b[w] = WHT;
    return !propagate(s, b) && !s->lim.stop;
}

/* The nogood of the refuted child of frame f (in s->lrn.path): its decisions, less
 * those deletion shows it does without. Returns its length. */
static int leaf_nogood(Search *s, int f) {
    if (s->lrn.rec && LEARN_TESTS == 0) { /* the decision cut of the refutation */
        int n = analyse(s, NULL, f, s->lrn.path);
        s->lrn.cut_lits += n;
        s->lrn.path_lits += f + 1;
        return n;
    }
    int N = s->g.N, n = 0, *path = s->lrn.path;
    for (int g = 0; g <= f; g++) path[n++] = lit_of(s->trail.frame_cell[g], frame_color(s, g));
    /* path[0..g) are the decisions frames[g] stands on; path[g+1..n) the ones kept below */
    for (int g = f - 1, tries = 0; g >= 0 && tries < LEARN_TESTS && !s->lim.stop; g--, tries++) {
        if (!refuted(s, s->trail.frames + (size_t)g * N, path + g + 1, n - g - 1)) continue;
        memmove(path + g, path + g + 1, sizeof(int) * (size_t)(n - g - 1));
        n--;
    }
    return n;
}

/* Stores a conflict set of n literals for frame f (its first child closed with it);
 * 0: out of memory. */
static int keep_cs(Learn *L, int f, const int *lits, int n) {
    if (L->ncs + n > L->capcs) {
        int cap = L->capcs * 2;
        while (cap < L->ncs + n) cap *= 2;
        int *cs = realloc(L->cs, sizeof(int) * cap);
        if (!cs) return 0;
        L->cs = cs;
        L->capcs = cap;
    }
    L->frame_cs[f] = L->ncs;
    L->frame_ncs[f] = n;
    memcpy(L->cs + L->ncs, lits, sizeof(int) * (size_t)n);
    L->ncs += n;
    return 1;
}

/* The child of frame f (the branch frame_color(f)) is closed with the nogood in
 * s->lrn.path (n literals): closes the frames it refutes (backjumps), resolves the
 * frames both of whose children are closed, and stores the nogood where the search goes
 * on (the frame's other color). Returns 0 when the root is closed (the search is
 * complete), -1 out of memory, 1 otherwise. */
static int close_child(Search *s, int f, int n) {
    Learn *L = &s->lrn;
    int *path = L->path;
    for (;;) {
#ifdef CSOLVE_CHECK_NOGOODS
        check_nogood(s, path, n);
#endif
        int cell = s->trail.frame_cell[f], own = lit_of(cell, frame_color(s, f)), has = 0;
        for (int j = 0; j < n; j++) has |= path[j] == own;
        if (has && s->trail.frame_tried[f] == 1) {
            /* the other color is next: keep this set for the resolution */
            if (!keep_cs(L, f, path, n)) return -1;
            s->trail.depth = f + 1;
            return learn_add(s, path, n, 0) ? 1 : -1;
        }
        if (has) { /* both children closed: the union of their sets less this cell */
            int stamp = ++L->mark_now, m = 0;
            if (stamp == INT32_MAX) {
                memset(L->mark, 0, sizeof(int) * (size_t)s->g.N);
                stamp = L->mark_now = 1;
            }
            for (int side = 0; side < 2; side++) {
                const int *q = side ? L->cs + L->frame_cs[f] : path;
                int k = side ? L->frame_ncs[f] : n;
                for (int j = 0; j < k; j++) {
                    int c = q[j] >> 1;
                    if (c == cell || L->mark[c] == stamp) continue;
                    L->mark[c] = stamp;
                    L->path2[m++] = q[j];
                }
            }
            memcpy(path, L->path2, sizeof(int) * (size_t)m);
            n = m;
        } else {
            L->jumps++; /* refuted without its own decision: its other color goes too */
        }
        if (L->frame_cs[f] >= 0) L->ncs = L->frame_cs[f];
        L->frame_cs[f] = -1;
        s->trail.depth = f;
        if (f == 0) return 0;
        f--;
    }
}

static long long luby(int i) {
    for (;;) {
        int k = 1;
        while ((1LL << k) - 1 < i) k++;
        if ((1LL << k) - 1 == i) return 1LL << (k - 1);
        i -= (int)(1LL << (k - 1)) - 1;
    }
}

/* Back to the root: saves the phases of the path, re-propagates and re-probes the root
 * with the store. 1: frame 0 is ready to branch again, 0: the root is refuted or solved
 * (trail.finished; 1 more solution in s->trail.solution when *found), or a limit cut it
 * short (s->lim.stop; restart_due stays set). */
static int restart(Search *s, int *found) {
    Learn *L = &s->lrn;
    int N = s->g.N;
    if (!L->restart_due) {
        for (int g = 0; g < s->trail.depth; g++)
            if (s->trail.frame_tried[g] > 0)
                L->phase[s->trail.frame_cell[g]] = frame_color(s, g);
        L->restarts++;
        L->diversify = s->set.diversify;
        L->restart_due = 1;
        s->trail.depth = 1;
        s->trail.frame_tried[0] = 0; /* csolve_pending: the search is not over */
        L->ncs = 0;
        L->frame_cs[0] = -1;
    }
    uint8_t *root = s->trail.frames;
    memcpy(L->test, root, N);
    int cell = -1;
    uint8_t first = WHT;
    L->rec = 0; /* the root's cells need no reasons */
    L->rtop = L->lvl_top[1] = 0;
    int ok = propagate(s, root);
    if (s->lim.stop) return 0;
    if (ok) ok = probe(s, root, &cell, &first, L->test);
    if (s->lim.stop) return 0;
    L->restart_due = 0;
    if (!ok || cell < 0) {
        s->trail.finished = s->trail.complete = 1;
        s->trail.depth = 0;
        if (ok && verify(s, root)) {
            memcpy(s->trail.solution, root, N);
            *found = 1;
        }
        return 0;
    }
    if (s->trail.nlc > 0) cell = conflict_cell(s, root, cell);
    s->trail.frame_cell[0] = cell;
    s->trail.frame_tried[0] = 0;
    s->trail.frame_first[0] = L->phase[cell] != UNK ? L->phase[cell] : first;
    return 1;
}

/* With learning that waits: the search without it just handed back the solution at the
 * child of the top frame; its path is stored for good, as search_learn() stores the
 * path of each solution it hands back while restarts are allowed, so that no restart
 * after learn_begin() finds it again. 0: out of memory. */
static int learn_handed(Search *s) {
    Learn *L = &s->lrn;
    int n = 0;
    for (int g = 0; g < s->trail.depth; g++)
        L->path[n++] = lit_of(s->trail.frame_cell[g], frame_color(s, g));
    L->solutions++;
#ifdef CSOLVE_CHECK_NOGOODS
    check_reported(s, s->trail.solution);
#endif
    return L->solutions > LEARN_RESTART_SOLUTIONS || learn_add(s, L->path, n, 1);
}

/* Turns learning on in a search that ran without it (CsolveOptions.learn_after): the
 * frames on the trail become search_learn()'s. A frame whose first child is closed gets
 * that child's path as its conflict set, and in the store (as close_child() stores the
 * set of a first child), so that no restart searches that subtree again: the search
 * without learning searched all of it, so every solution extending it was handed back
 * (the invariant above). With
 * reasons, the states on the trail have no records, so the search restarts. 0: out of
 * memory. */
static int learn_begin(Search *s) {
    Learn *L = &s->lrn;
    L->on = 1;
    L->waiting = 0;
    while (s->trail.depth > 0 && s->trail.frame_tried[s->trail.depth - 1] == 2)
        s->trail.depth--; /* closed frames, as search_next() would leave them */
    int depth = s->trail.depth;
    L->ncs = 0;
    L->rtop = L->lvl_top[1] = 0;
    L->next_restart = L->conflicts + LEARN_RESTART_UNIT * luby(L->luby = 1);
    for (int f = 0; f < depth; f++) {
        L->frame_cs[f] = -1;
        int tried = s->trail.frame_tried[f];
        if (tried == 2 || (f == depth - 1 && tried == 1)) { /* its first child is closed */
            int n = 0;
            for (int g = 0; g < f; g++)
                L->path[n++] = lit_of(s->trail.frame_cell[g], frame_color(s, g));
            L->path[n++] = lit_of(s->trail.frame_cell[f], s->trail.frame_first[f]);
#ifdef CSOLVE_CHECK_NOGOODS
            check_nogood(s, L->path, n);
#endif
            if (!keep_cs(L, f, L->path, n) || !learn_add(s, L->path, n, 0)) return 0;
        }
    }
    if (L->reasons && depth > 0) { /* back to the root, as restart() goes */
        for (int g = 0; g < depth; g++)
            if (s->trail.frame_tried[g] > 0) L->phase[s->trail.frame_cell[g]] = frame_color(s, g);
        L->restarts++;
        L->restart_due = 1;
        s->trail.depth = 1;
        s->trail.frame_tried[0] = 0;
        L->ncs = 0;
        L->frame_cs[0] = -1;
    }
    return 1;
}

/* search_next() with learning (above): 1 found, 0 none left or a limit stopped it, -1 out
 * of memory. */
static int search_learn(Search *s) {
    int N = s->g.N;
    Learn *L = &s->lrn;
    if (s->trail.finished) return 0;
    if (!s->trail.started) {
        int found = search_root(s); /* as without learning */
        if (found != 2) return found;
        L->frame_cs[0] = -1;
        L->rtop = L->lvl_top[1] = 0;
        L->next_restart = LEARN_RESTART_UNIT * luby(L->luby = 1);
    }
    if (L->pending) { /* close the leaf of the solution handed back last */
        L->pending = 0;
        int f = s->trail.depth - 1, n = 0;
        for (int g = 0; g <= f; g++)
            L->path[n++] = lit_of(s->trail.frame_cell[g], frame_color(s, g));
        if (L->solutions <= LEARN_RESTART_SOLUTIONS && !learn_add(s, L->path, n, 1)) return -1;
        int r = close_child(s, f, n);
        if (r < 0) return -1;
        if (r == 0) {
            s->trail.finished = s->trail.complete = 1;
            return 0;
        }
    }
    while (s->trail.depth > 0) {
        if (limit_reached(s)) return 0;
        if (s->lim.max_nodes >= 0 && s->count.nodes >= s->lim.max_nodes) {
            s->lim.stop = 2;
            return 0;
        }
        if (L->restart_due || (s->set.restarts && L->conflicts >= L->next_restart &&
                               s->trail.depth > 1 && L->solutions <= L->restart_solutions)) {
            if (!L->restart_due)
                L->next_restart = L->conflicts + LEARN_RESTART_UNIT * luby(++L->luby);
            int found = 0;
            if (!restart(s, &found)) {
                if (found) {
                    L->solutions++;
#ifdef CSOLVE_CHECK_NOGOODS
                    check_reported(s, s->trail.solution);
#endif
                }
                return found;
            }
        }
        int f = s->trail.depth - 1;
        uint8_t *child = enter_child(s, f);
        if (!child) return -1;
        uint8_t *parent = s->trail.frames + (size_t)f * N; /* after the trail may have moved */
        if (L->reasons) { /* level f + 1: its records from lvl_top[f + 1] on */
            int d = s->trail.frame_cell[f];
            L->rec = 1;
            L->level = f + 1;
            L->rtop = L->lvl_top[f + 1];
            L->rlev[d] = f + 1;
            L->rlen[d] = R_DECISION;
        }
        int cell = -1;
        uint8_t first = WHT;
        L->witness = -1;
        int ok = propagate(s, child);
        if (s->lim.stop) goto undo;
        if (ok) ok = probe(s, child, &cell, &first, parent);
        if (s->lim.stop) goto undo;
        if (cell >= 0 && s->trail.nlc > 0) cell = conflict_cell(s, child, cell);
        if (ok && cell < 0 && !verify(s, child)) {
            ok = 0;
            L->clen = R_COARSE; /* a full state that breaks a rule: every decision */
        }
        if (!ok) {
            if (s->set.last_conflict) note_conflict(s, s->trail.frame_cell[f]);
            L->conflicts++;
            int r = close_child(s, f, leaf_nogood(s, f));
            if (r < 0) return -1;
            if (r == 0) {
                s->trail.finished = s->trail.complete = 1;
                return 0;
            }
            continue;
        }
        if (cell < 0) {
            memcpy(s->trail.solution, child, N);
            L->pending = 1;
            L->solutions++;
#ifdef CSOLVE_CHECK_NOGOODS
            check_reported(s, child);
#endif
            return 1;
        }
        s->trail.frame_cell[s->trail.depth] = cell;
        s->trail.frame_tried[s->trail.depth] = 0;
        s->trail.frame_first[s->trail.depth] = L->phase[cell] != UNK ? L->phase[cell] : first;
        L->frame_cs[s->trail.depth] = -1;
        s->trail.depth++;
        L->lvl_top[s->trail.depth] = L->rtop; /* its children's records go above */
        continue;
    undo: /* a limit: this child is tried again when the search goes on */
        s->trail.frame_tried[f]--;
        return 0;
    }
    s->trail.finished = s->trail.complete = 1;
    return 0;
}

/* ---- the C API (_csolve.h) --------------------------------------------------------- */

/* ---- the memo ----------------------------------------------------------------------- */

/* The fixpoints of the states propagated before, for searches of one puzzle that run one
 * after another (the logic engine asks the core about many suppositions of one position,
 * and about many positions of one trial search: solver/refuter.py). propagate() is a
 * function of the state alone (the caches the rules keep, the white components and the
 * sea's region, are checked against the state they read), so a state met again, by a
 * probe or a node of this search or of another, gets the same fixpoint (or the same
 * refutation, with the state as the rules left it) and counts the same propagations,
 * without running the rules. Only for searches without learning (whose propagation
 * records reasons). A state is kept packed, 2 bits a cell, with whether it was a probe's
 * (rule_sides skips a part then). The memo holds at most `max_bytes`, in two generations:
 * new states go into the young one; when it is full the old one is dropped and the young
 * one becomes old; a state found in the old one is copied into the young one. Measured
 * on janko-1091 turned 7's walkthrough (14,840 searches, 6.6 million propagations): a
 * fifth to a quarter of the propagations met a state met before in the same walkthrough. */
typedef struct {
    long long count, cap;    /* entries stored, room for */
    size_t slots;            /* of the table: a power of two, at least 2 * cap */
    long long *table;        /* entry + 1, 0 empty */
    uint64_t *hash;          /* cap: each entry's hash */
    uint8_t *keys, *outs;    /* cap * kbytes: the packed states and their fixpoints */
    long long *props;        /* cap: propagations counted, times 2, + 1 when not refuted */
} MemoGen;

struct CsolveMemo {
    int N, kbytes;           /* cells; bytes of a packed state and its probe flag */
    uint64_t sig;            /* the grid, clues and switches of the searches using it */
    long long max_entries;   /* entries of one generation (max_bytes over two, at least 16) */
    MemoGen gen[2];
    int young;               /* which of gen[] is young */
    uint8_t *scratch;        /* kbytes: the state being looked up */
    long long max_bytes, hits, misses, resets;
};

static uint64_t memo_sig(const Search *s) {
    uint64_t h = 1469598103934665603ULL;
#define MIX(v) (h = (h ^ (uint64_t)(int64_t)(v)) * 1099511628211ULL)
    MIX(s->g.R);
    MIX(s->g.C);
    MIX(s->g.K);
    for (int k = 0; k < s->g.K; k++) {
        MIX(s->g.clue_cell[k]);
        MIX(s->g.clue_val[k]);
    }
    for (int r = 0; r < NRULES; r++) MIX(s->set.rule_on[r]);
    MIX(s->set.cuts);
    MIX(s->set.sea_reach);
#undef MIX
    return h;
}

CsolveMemo *csolve_memo_new(long long max_bytes) {
    CsolveMemo *m = calloc(1, sizeof(CsolveMemo));
    if (m) m->max_bytes = max_bytes;
    return m;
}

static void memo_gen_free(MemoGen *g) {
    free(g->table);
    free(g->hash);
    free(g->keys);
    free(g->outs);
    free(g->props);
}

void csolve_memo_free(CsolveMemo *m) {
    if (!m) return;
    memo_gen_free(&m->gen[0]);
    memo_gen_free(&m->gen[1]);
    free(m->scratch);
    free(m);
}

void csolve_memo_stats(const CsolveMemo *m, long long *out) {
    out[0] = m->hits;
    out[1] = m->misses;
    out[2] = m->gen[0].count + m->gen[1].count;
    out[3] = m->resets;
}

int csolve_set_memo(Search *s, CsolveMemo *m) {
    if (!m) {
        s->memo = NULL;
        return 1;
    }
    if (s->lrn.on || s->lrn.waiting) return 0;
    uint64_t sig = memo_sig(s);
    if (m->N == 0) {
        int kbytes = (s->g.N + 3) / 4 + 1;
        /* an entry: its key and fixpoint, hash and count, and two table slots */
        long long each = 2LL * kbytes + (long long)(sizeof(uint64_t) + sizeof(long long)) +
                         2 * (long long)sizeof(long long);
        m->scratch = calloc((size_t)kbytes, 1);
        if (!m->scratch) return 0;
        m->N = s->g.N;
        m->kbytes = kbytes;
        m->sig = sig;
        m->max_entries = m->max_bytes / 2 / each;
        if (m->max_entries < 16) m->max_entries = 16;
    } else if (m->N != s->g.N || m->sig != sig) {
        return 0;
    }
    s->memo = m;
    return 1;
}

/* Room for twice the entries in `g` (up to max_entries), its table made again; 0 out of
 * memory (`g` is then as it was). */
static int memo_grow(CsolveMemo *m, MemoGen *g) {
    long long cap = g->cap ? 2 * g->cap : 1024;
    if (cap > m->max_entries) cap = m->max_entries;
    size_t kb = (size_t)m->kbytes;
    uint64_t *hash = realloc(g->hash, sizeof(uint64_t) * (size_t)cap);
    if (hash) g->hash = hash;
    uint8_t *keys = realloc(g->keys, kb * (size_t)cap);
    if (keys) g->keys = keys;
    uint8_t *outs = realloc(g->outs, kb * (size_t)cap);
    if (outs) g->outs = outs;
    long long *props = realloc(g->props, sizeof(long long) * (size_t)cap);
    if (props) g->props = props;
    size_t slots = 1;
    while ((long long)slots < 2 * cap) slots *= 2;
    long long *table = calloc(slots, sizeof(long long));
    if (!hash || !keys || !outs || !props || !table) {
        free(table);
        return 0;
    }
    free(g->table);
    g->table = table;
    g->slots = slots;
    g->cap = cap;
    for (long long e = 0; e < g->count; e++) {
        size_t i = (size_t)g->hash[e] & (slots - 1);
        while (table[i]) i = (i + 1) & (slots - 1);
        table[i] = e + 1;
    }
    return 1;
}

/* `col` packed into `out`, 4 cells a byte (cell i in bits 2(i%4)), and the probe flag. */
static void memo_pack(const CsolveMemo *m, const uint8_t *col, uint8_t *out, int probing) {
    int N = m->N, i = 0;
    for (; i + 4 <= N; i += 4) {
        uint32_t v = ((uint32_t)col[i] | (uint32_t)col[i + 1] << 8 | (uint32_t)col[i + 2] << 16 |
                      (uint32_t)col[i + 3] << 24) &
                     0x03030303u;
        out[i >> 2] = (uint8_t)(v | v >> 6 | v >> 12 | v >> 18);
    }
    if (i < N) {
        uint8_t last = 0;
        for (int j = i; j < N; j++) last |= (uint8_t)((col[j] & 3) << ((j & 3) * 2));
        out[i >> 2] = last;
    }
    out[m->kbytes - 1] = (uint8_t)(probing != 0);
}

static uint64_t memo_hash(const uint8_t *key, int n) {
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    int k = 0;
    for (; k + 8 <= n; k += 8) {
        uint64_t w;
        memcpy(&w, key + k, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    for (; k < n; k++) h = (h ^ key[k]) * 1099511628211ULL;
    h ^= h >> 29;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 32;
    return h;
}

/* The entry of `g` holding the packed state `key` (hash h), or -1. */
static long long memo_find(const CsolveMemo *m, const MemoGen *g, const uint8_t *key, uint64_t h) {
    if (!g->cap) return -1;
    size_t kb = (size_t)m->kbytes, mask = g->slots - 1;
    for (size_t i = (size_t)h & mask; g->table[i]; i = (i + 1) & mask) {
        long long e = g->table[i] - 1;
        if (g->hash[e] == h && !memcmp(g->keys + (size_t)e * kb, key, kb)) return e;
    }
    return -1;
}

/* Stores the packed state `key` (hash h) with its fixpoint `col` and `props` in the young
 * generation (when it is full, the old one is dropped and the young one becomes old). */
static void memo_store(CsolveMemo *m, const uint8_t *key, uint64_t h, const uint8_t *col,
                       long long props) {
    MemoGen *g = &m->gen[m->young];
    if (g->count == g->cap && g->cap < m->max_entries && !memo_grow(m, g)) return;
    if (g->count == g->cap) {
        m->young ^= 1;
        g = &m->gen[m->young];
        g->count = 0;
        if (g->table) memset(g->table, 0, sizeof(long long) * g->slots);
        m->resets++;
        if (g->count == g->cap && !memo_grow(m, g)) return;
    }
    size_t kb = (size_t)m->kbytes;
    long long e = g->count++;
    g->hash[e] = h;
    memcpy(g->keys + (size_t)e * kb, key, kb);
    memo_pack(m, col, g->outs + (size_t)e * kb, 0);
    g->props[e] = props;
    size_t mask = g->slots - 1, i = (size_t)h & mask;
    while (g->table[i]) i = (i + 1) & mask;
    g->table[i] = e + 1;
}

static int memo_propagate(Search *s, CsolveMemo *m, uint8_t *col) {
    int N = m->N, kb = m->kbytes;
    uint8_t *key = m->scratch;
    memo_pack(m, col, key, s->prb.probing);
    uint64_t h = memo_hash(key, kb);
    for (int age = 0; age < 2; age++) {
        const MemoGen *g = &m->gen[m->young ^ age];
        long long e = memo_find(m, g, key, h);
        if (e < 0) continue;
        const uint8_t *out = g->outs + (size_t)e * kb;
        for (int c = 0; c < N; c++) col[c] = (uint8_t)(out[c >> 2] >> ((c & 3) * 2) & 3);
        long long props = g->props[e];
        s->count.propagations += props >> 1;
        m->hits++;
        if (age) memo_store(m, key, h, col, props); /* kept young */
        return (int)(props & 1);
    }
    m->misses++;
    long long before = s->count.propagations;
    int ok = propagate_fix(s, col);
    if (!s->lim.stop) /* (cut short, it is no fixpoint) */
        memo_store(m, key, h, col, 2 * (s->count.propagations - before) + (ok ? 1 : 0));
    return ok;
}

void csolve_free(Search *s) {
    if (!s) return;
    free(s->prb.order);
    free(s->g.nb);
    free(s->g.clue_cell);
    free(s->g.clue_val);
    free(s->g.cell_clue);
    free(s->wc.comp);
    free(s->wc.comp_size);
    free(s->wc.comp_clue);
    free(s->wc.comp_start);
    free(s->wc.comp_cells);
    free(s->cross.comp_enclosed);
    free(s->cross.comp_box);
    free(s->cross.comp_frames);
    free(s->cross.frame_pool);
    free(s->side.excess);
    free(s->side.side_box);
    free(s->g.clue_excess);
    free(s->side.edge_black);
    free(s->g.ring);
    free(s->side.edge_gone);
    free(s->scan.pool_pair);
    free(s->wc.comp_of);
    free(s->sea.sea_of);
    free(s->scan.black_sum);
    free(s->scan.area_rows);
    free(s->scan.flood_stack);
    free(s->scan.island_rows);
    free(s->scan.flood_pending);
    free(s->g.clue_rows);
    free(s->g.cell_row);
    free(s->g.cell_bit);
    free(s->g.min_perimeter);
    free(s->walk.queue);
    free(s->walk.best);
    free(s->walk.seen);
    free(s->walk.done);
    free(s->reach.reach_count);
    free(s->walk.node_stamp);
    free(s->sea.fresh);
    free(s->sea.open);
    free(s->sea.flood);
    free(s->sea.black);
    free(s->sea.unknown);
    free(s->sea.front);
    free(s->sea.next);
    free(s->sea.kcells);
    free(s->sea.kid);
    free(s->sea.kfrom);
    free(s->sea.kto);
    free(s->sea.kex);
    free(s->sea.kefrom);
    free(s->sea.keto);
    free(s->cut.disc);
    free(s->cut.low);
    free(s->cut.iter);
    free(s->cut.sub_black);
    free(s->cut.stk);
    free(s->cut.scomp);
    free(s->reach.bucket_head);
    free(s->reach.entry_node);
    free(s->reach.entry_next);
    for (int k = 0; s->reach.kept && k < s->g.K * KEPT_WAYS; k++) free(s->reach.kept[k]);
    free(s->reach.kept);
    free(s->reach.kept_size);
    free(s->reach.kept_reached);
    free(s->reach.kept_cand);
    free(s->reach.kept_room);
    free(s->reach.kept_rows);
    free(s->reach.order);
    free(s->reach.rows);
    free(s->reach.pend_cost);
    free(s->reach.pend_comp);
    free(s->prb.probe_a);
    free(s->prb.probe_b);
    free(s->prb.probe_before);
    free(s->prb.zone);
    free(s->prb.safe_b);
    free(s->prb.safe_w);
    free(s->prb.score);
    free(s->prb.lean_color);
    free(s->trail.frames);
    free(s->trail.frame_cell);
    free(s->trail.frame_tried);
    free(s->trail.frame_first);
    free(s->trail.start);
    free(s->trail.near);
    free(s->trail.solution);
    free(s->lrn.lit);
    free(s->lrn.ng_from);
    free(s->lrn.ng_len);
    free(s->lrn.ng_w1);
    free(s->lrn.ng_w2);
    free(s->lrn.ng_keep);
    free(s->lrn.cs);
    free(s->lrn.frame_cs);
    free(s->lrn.frame_ncs);
    free(s->lrn.path);
    free(s->lrn.path2);
    free(s->lrn.mark);
    free(s->lrn.test);
    free(s->lrn.phase);
    free(s->lrn.rlev);
    free(s->lrn.rfrom);
    free(s->lrn.rlen);
    free(s->lrn.rbuf);
    free(s->lrn.lvl_top);
    free(s->lrn.rmark);
    free(s->lrn.snap);
    free(s->lrn.astack);
    free(s->lrn.amark);
    free(s->lrn.adec);
    free(s->lrn.front);
    free(s->lrn.wmark);
    free(s->lrn.front2);
    free(s->lrn.agree);
#ifdef CSOLVE_RULE_STATS
    if (s->lrn.on) {
        static const char *extra[3] = {"nogoods", "probes", "decisions"};
        for (int r = 0; r < NRULES + 2; r++)
            fprintf(stderr, "set_by %-9s %10lld with reasons %10lld coarse\n",
                    r < NRULES ? rules[r].name : extra[r - NRULES], s->lrn.set_by[r][0],
                    s->lrn.set_by[r][1]);
        fprintf(stderr, "cut literals %lld of path literals %lld\n", s->lrn.cut_lits,
                s->lrn.path_lits);
    }
#endif
#ifdef CSOLVE_CHECK_NOGOODS
    free(s->lrn.brute);
    free(s->lrn.reported);
#endif
    free(s);
}

Search *csolve_create(int R, int C, int K, const int *clue_cell, const int *clue_val,
                      const uint8_t *given, const uint8_t *above, const CsolveOptions *opt,
                      int *error) {
    *error = CSOLVE_NO_MEMORY;
    Search *s = calloc(1, sizeof(Search));
    if (!s) return NULL;
    int N = R * C;
    s->g.R = R;
    s->g.C = C;
    s->g.N = N;
    s->g.K = K;
#define ALLOC(field, count) (s->field = calloc((size_t)(count) + 1, sizeof(*s->field)))
    int ok = /* the grid */
        ALLOC(g.nb, 4 * N) && ALLOC(g.clue_cell, K) && ALLOC(g.clue_val, K) &&
        ALLOC(g.cell_clue, N) && ALLOC(g.ring, 2 * (R + C)) && ALLOC(g.min_perimeter, N + 1) &&
        ALLOC(g.clue_excess, 2 * K) &&
        /* the white components and the walks */
        ALLOC(wc.comp, N) && ALLOC(wc.comp_size, N + 1) && ALLOC(wc.comp_clue, N + 1) &&
        ALLOC(wc.comp_start, N + 2) && ALLOC(wc.comp_cells, N) && ALLOC(wc.comp_of, N) &&
        ALLOC(walk.queue, N) && ALLOC(walk.best, 2 * N + 2) && ALLOC(walk.seen, 2 * N + 2) &&
        ALLOC(walk.done, 2 * N + 2) && ALLOC(walk.node_stamp, N) &&
        /* the rules' scratch */
        ALLOC(scan.pool_pair, C) && ALLOC(scan.black_sum, (R + 1) * (C + 1)) &&
        (C > 64 || (ALLOC(scan.area_rows, AREA_NROWS * R) && ALLOC(g.clue_rows, R) &&
                    ALLOC(g.cell_row, N) && ALLOC(g.cell_bit, N) &&
                    ALLOC(scan.flood_stack, R) && ALLOC(scan.flood_pending, R) &&
                    ALLOC(scan.island_rows, 3 * R))) &&
        ALLOC(cross.comp_enclosed, N + 1) && ALLOC(cross.comp_box, 4 * N + 4) &&
        ALLOC(cross.comp_frames, 2 * N + 2) && ALLOC(cross.frame_pool, 4 * FRAME_CAP) &&
        ALLOC(side.excess, 2 * N + 2) && ALLOC(side.side_box, 4 * N + 4) &&
        ALLOC(side.edge_black, 4 * (R + C + 2)) && ALLOC(side.edge_gone, N) &&
        ALLOC(sea.sea_of, N) && ALLOC(sea.fresh, N) && ALLOC(sea.kcells, N) &&
        ALLOC(sea.kid, N) && ALLOC(sea.kfrom, N) && ALLOC(sea.kto, N) && ALLOC(sea.kex, 4 * N) &&
        ALLOC(sea.kefrom, N) && ALLOC(sea.keto, N) &&
        (C > 64 || (ALLOC(sea.open, R) && ALLOC(sea.flood, R) && ALLOC(sea.black, R) &&
                    ALLOC(sea.unknown, R) && ALLOC(sea.front, R) && ALLOC(sea.next, R))) &&
        ALLOC(cut.disc, N) && ALLOC(cut.low, N) && ALLOC(cut.iter, N) &&
        ALLOC(cut.sub_black, N) && ALLOC(cut.stk, N) && ALLOC(cut.scomp, N) &&
        ALLOC(reach.reach_count, N) && ALLOC(reach.bucket_head, N + 2) &&
        ALLOC(reach.entry_node, 8 * N + 16) && ALLOC(reach.entry_next, 8 * N + 16) &&
        ALLOC(reach.order, N) && ALLOC(reach.kept, K * KEPT_WAYS) &&
        ALLOC(reach.kept_size, K * KEPT_WAYS) && ALLOC(reach.kept_reached, K * KEPT_WAYS) &&
        ALLOC(reach.kept_cand, K * KEPT_WAYS) && ALLOC(reach.kept_room, K * KEPT_WAYS) &&
        ALLOC(reach.kept_rows, K * KEPT_WAYS) &&
        ALLOC(reach.pend_cost, N) && ALLOC(reach.pend_comp, N) &&
        (C > 64 || ALLOC(reach.rows, NROWS * R)) &&
        /* probing and the search */
        ALLOC(prb.probe_a, N) && ALLOC(prb.probe_b, N) && ALLOC(prb.probe_before, N) &&
        ALLOC(prb.zone, N) && ALLOC(prb.safe_b, N) && ALLOC(prb.safe_w, N) &&
        ALLOC(prb.score, N) && ALLOC(prb.order, N) && ALLOC(prb.lean_color, N) &&
        ALLOC(trail.start, N) && ALLOC(trail.solution, N);
#undef ALLOC
    if (!ok) {
        csolve_free(s);
        return NULL;
    }
    for (int a = 0, k = 0; a <= N; a++) {
        while (k * k < 4 * a) k++; /* k = ceil(2 * sqrt(a)) */
        s->g.min_perimeter[a] = 2 * k;
    }
    s->g.nring = 0;
    if (R > 1 && C > 1) {
        for (int x = 0; x < C; x++) s->g.ring[s->g.nring++] = x;
        for (int r = 1; r < R; r++) s->g.ring[s->g.nring++] = r * C + C - 1;
        for (int x = C - 2; x >= 0; x--) s->g.ring[s->g.nring++] = (R - 1) * C + x;
        for (int r = R - 2; r >= 1; r--) s->g.ring[s->g.nring++] = r * C;
    }
    for (int i = 0; i < N; i++) {
        int r = i / C, c = i % C;
        s->g.nb[i * 4 + 0] = r > 0 ? i - C : -1;
        s->g.nb[i * 4 + 1] = c > 0 ? i - 1 : -1;
        s->g.nb[i * 4 + 2] = c + 1 < C ? i + 1 : -1;
        s->g.nb[i * 4 + 3] = r + 1 < R ? i + C : -1;
        s->g.cell_clue[i] = -1;
        if (s->g.cell_row) {
            s->g.cell_row[i] = r;
            s->g.cell_bit[i] = (uint64_t)1 << c;
        }
    }
    for (int k = 0; k < K; k++) {
        int cell = clue_cell[k], val = clue_val[k];
        if (cell < 0 || cell >= N || s->g.cell_clue[cell] >= 0 || val == 0 || val < -1) {
            csolve_free(s);
            *error = CSOLVE_BAD_CLUE;
            return NULL;
        }
        s->g.clue_cell[k] = cell;
        s->g.clue_val[k] = val;
        s->g.cell_clue[cell] = k;
        if (s->g.clue_rows) s->g.clue_rows[cell / C] |= (uint64_t)1 << (cell % C);
        if (val < 0) s->g.has_q = 1;
        else s->g.total_white += val;
    }
    for (int i = 0; i < N; i++) s->trail.start[i] = given[i] <= WHT ? given[i] : UNK;
    if (above) {
        s->trail.near = malloc((size_t)N);
        if (!s->trail.near) {
            csolve_free(s);
            return NULL;
        }
        for (int i = 0; i < N; i++) s->trail.near[i] = above[i] <= WHT ? above[i] : UNK;
        for (int k = 0; k < K; k++) s->trail.near[s->g.clue_cell[k]] = WHT;
    }
    s->lim.remaining = opt->seconds; /* search time left; a deadline is set from it on each call */
    s->lim.deadline = 0;
    s->lim.cpu_clock = opt->cpu;
    s->lim.max_nodes = opt->nodes;
    s->set.cuts = 1;
    s->set.probe_radius = PROBE_RADIUS;
    s->set.child_radius = CHILD_RADIUS;
    s->set.sea_reach = 1;
    s->set.last_conflict = 1;
    s->set.dominance = 1;
    s->set.learning = 1;
    s->set.restarts = 1;
    s->set.reasons = 1;
    s->walk.stamp_limit = STAMP_LIMIT;
    for (int r = 0; r < NRULES; r++) s->set.rule_on[r] = 1;
    /* only on sparse grids: islands of SIDES_SPARSE cells or more on average */
    s->set.rule_on[RULE_SIDES] = opt->strong && !s->g.has_q && s->g.total_white >= SIDES_SPARSE * K;
    for (int k = 0; k < K && opt->strong; k++)
        if (s->g.clue_val[k] > 0 && s->g.clue_val[k] < SIDES_AREA)
            free_excess(s, s->g.clue_val[k], s->g.clue_excess + 2 * k);
    s->trail.nlc = 0;
    s->wc.comp_count = -2;
    s->set.lean = opt->strong && opt->lean;
    s->set.probe_order = opt->strong;
    const char *off = getenv("NURIKABE_CSOLVE_OFF"); /* developer switch for measuring */
    if (off) {
        for (int r = 0; r < NRULES; r++)
            if (rules[r].switchable && strstr(off, rules[r].name)) s->set.rule_on[r] = 0;
        for (size_t j = 0; j < sizeof(knobs) / sizeof(knobs[0]); j++)
            if (strstr(off, knobs[j].name)) *(int *)((char *)s + knobs[j].offset) = 0;
    }
    if (opt->strong && opt->learn && s->set.learning) {
        Learn *L = &s->lrn;
#define ALLOC(field, count) (s->field = calloc((size_t)(count) + 1, sizeof(*s->field)))
        ok = ALLOC(lrn.lit, 1024) && ALLOC(lrn.ng_from, 256) && ALLOC(lrn.ng_len, 256) &&
             ALLOC(lrn.ng_w1, 256) && ALLOC(lrn.ng_w2, 256) && ALLOC(lrn.ng_keep, 256) &&
             ALLOC(lrn.cs, 1024) && ALLOC(lrn.frame_cs, N + 2) && ALLOC(lrn.frame_ncs, N + 2) &&
             ALLOC(lrn.path, N + 2) && ALLOC(lrn.path2, N + 2) && ALLOC(lrn.mark, N) &&
             ALLOC(lrn.test, N) && ALLOC(lrn.phase, N) && ALLOC(lrn.rlev, N) &&
             ALLOC(lrn.rfrom, N) && ALLOC(lrn.rlen, N) && ALLOC(lrn.rbuf, 1024) &&
             ALLOC(lrn.lvl_top, N + 2) && ALLOC(lrn.rmark, N) && ALLOC(lrn.snap, N) &&
             ALLOC(lrn.astack, N) && ALLOC(lrn.amark, N) && ALLOC(lrn.adec, N + 2) &&
             ALLOC(lrn.front, N) && ALLOC(lrn.wmark, N) && ALLOC(lrn.front2, N) &&
             ALLOC(lrn.agree, N);
#undef ALLOC
        if (!ok) {
            csolve_free(s);
            return NULL;
        }
        s->set.diversify = s->set.restarts && opt->diversify;
        L->rng = 0x9E3779B97F4A7C15ULL;
        L->on = opt->learn_after <= 0;
        L->waiting = !L->on;
        L->after = opt->learn_after;
        L->restart_solutions = L->waiting && LEARN_LATE_RESTART_SOLUTIONS < LEARN_RESTART_SOLUTIONS
                                   ? LEARN_LATE_RESTART_SOLUTIONS
                                   : LEARN_RESTART_SOLUTIONS;
        L->reasons = s->set.reasons && opt->reasons;
        L->ncells = N;
        L->rcap = 1024;
        L->rmark_now = 1;
        L->caplit = L->capcs = 1024;
        L->cap = LEARN_CAP < 256 ? LEARN_CAP : 256;
        for (int f = 0; f < N + 2; f++) L->frame_cs[f] = -1;
#ifdef CSOLVE_CHECK_NOGOODS
        L->nbrute = -2; /* found on first use */
#endif
    }
    *error = 0;
    return s;
}

void csolve_set_poll(Search *s, int (*poll)(void *), void *arg) {
    s->lim.poll = poll;
    s->lim.poll_arg = arg;
}

int csolve_idle(Search *s) {
    if (atomic_load(&s->lim.cancelled) && !s->lim.stop) s->lim.stop = 4;
    return s->lim.stop || s->trail.finished;
}

int csolve_arm(Search *s) {
    s->lim.began = now_seconds(s);
    s->lim.cpu_seen = -1; /* this call may run in another thread than the last */
    if (s->lim.remaining >= 0) {
        if (s->lim.remaining == 0) {
            s->lim.stop = 1;
            return 0;
        }
        s->lim.deadline = s->lim.began + s->lim.remaining;
    }
    return 1;
}

int csolve_run(Search *s) {
    int found = s->lrn.on ? search_learn(s) : search_next(s);
    if (s->lim.remaining >= 0) {
        s->lim.remaining -= now_seconds(s) - s->lim.began;
        if (s->lim.remaining < 0) s->lim.remaining = 0;
    }
    return found;
}

int csolve_next(Search *s) {
    if (csolve_idle(s) || !csolve_arm(s)) return 0;
    return csolve_run(s);
}

int csolve_cells(const Search *s) { return s->g.N; }

const uint8_t *csolve_solution(const Search *s) { return s->trail.solution; }

int csolve_stop(const Search *s) { return s->lim.stop; }

int csolve_complete(const Search *s) { return s->trail.complete; }

int csolve_pending(const Search *s) {
    if (s->trail.finished) return 0;
    if (!s->trail.started || s->lrn.pending || s->lrn.restart_due) return 1;
    for (int f = 0; f < s->trail.depth; f++)
        if (s->trail.frame_tried[f] < 2) return 1;
    return 0;
}

CsolveCounters csolve_counters(const Search *s) {
    CsolveCounters c = {s->count.nodes,   s->count.propagations, s->count.probes,
                        0,                s->lrn.learned,        s->lrn.restarts,
                        s->lrn.jumps,     0,                     s->lrn.cut_lits,
                        s->lrn.path_lits, 0};
#ifdef CSOLVE_TRACE
    c.trace = s->count.trace;
#endif
#ifdef CSOLVE_CHECK_NOGOODS
    c.checked = s->lrn.checked;
    c.reasons = s->lrn.rchecked;
#endif
    return c;
}

void csolve_extend(Search *s, long long nodes, double seconds) {
    if (s->lim.stop == 2 && (nodes < 0 || nodes > s->count.nodes)) {
        s->lim.stop = 0;
        s->lim.max_nodes = nodes;
        if (seconds >= 0) s->lim.remaining = seconds;
    }
}

void csolve_cancel(Search *s) { atomic_store_explicit(&s->lim.cancelled, 1, memory_order_relaxed); }

int csolve_restart_stamps_at(Search *s, long limit) {
    if (limit < 16 || limit > STAMP_LIMIT) return 0;
    s->walk.stamp_limit = (int)limit;
    return 1;
}
