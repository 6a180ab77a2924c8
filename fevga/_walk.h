/* The search of fevga's compiled move generator, in plain C (no Python objects): every position
 * reachable with the dice, walked depth-first like fevga.movegen._explore, with its visited-state
 * table, and the R3 checks. Included by _core.c (one extension module).
 */
/* ---- a growable open-addressing table: 128-bit keys -> int value, cleared by generation ---- */
typedef struct {
    uint64_t lo, hi;
    uint32_t gen;
    int32_t value;
} Slot;

static Slot *table = NULL;
static size_t table_cap = 0; /* power of two */
static size_t table_used = 0;
static uint32_t table_gen = 0;

static inline uint64_t mix(uint64_t lo, uint64_t hi) {
    uint64_t x = lo ^ (hi * 0x9E3779B97F4A7C15ULL);
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return x;
}

static int table_reset(void) {
    if (table == NULL) {
        table_cap = 1 << 12;
        table = (Slot *)calloc(table_cap, sizeof(Slot));
        if (table == NULL) return -1;
    }
    table_used = 0;
    table_gen++;
    if (table_gen == 0) { /* wrapped: clear once */
        memset(table, 0, table_cap * sizeof(Slot));
        table_gen = 1;
    }
    return 0;
}

static Slot *table_find(uint64_t lo, uint64_t hi) {
    size_t mask = table_cap - 1;
    size_t i = (size_t)mix(lo, hi) & mask;
    for (;;) {
        Slot *s = &table[i];
        if (s->gen != table_gen) return s; /* empty */
        if (s->lo == lo && s->hi == hi) return s;
        i = (i + 1) & mask;
    }
}

static int table_grow(void) {
    size_t old_cap = table_cap;
    Slot *old = table;
    Slot *fresh = (Slot *)calloc(old_cap * 2, sizeof(Slot));
    if (fresh == NULL) return -1;
    table = fresh;
    table_cap = old_cap * 2;
    uint32_t gen = table_gen;
    table_gen = 1;
    for (size_t k = 0; k < old_cap; k++) {
        if (old[k].gen == gen) {
            Slot *s = table_find(old[k].lo, old[k].hi);
            *s = old[k];
            s->gen = 1;
        }
    }
    free(old);
    return 0;
}

/* Insert (lo, hi) if absent. Returns the slot, sets *fresh; NULL on memory error. */
static Slot *table_insert(uint64_t lo, uint64_t hi, int *fresh) {
    if ((table_used + 1) * 2 > table_cap) {
        if (table_grow() < 0) return NULL;
    }
    Slot *s = table_find(lo, hi);
    if (s->gen != table_gen) {
        s->gen = table_gen;
        s->lo = lo;
        s->hi = hi;
        s->value = -1;
        table_used++;
        *fresh = 1;
    } else {
        *fresh = 0;
    }
    return s;
}

/* ---- the walk ------------------------------------------------------------------------------- */
typedef struct {
    uint64_t lo, hi; /* mover's counts and borne-off count */
    signed char steps[4][2];
    int nsteps;
    int mask;
} End;

static End *ends = NULL;
static int ends_cap = 0;
static int ends_len = 0;

typedef struct {
    int board[POINTS]; /* signed, mover positive */
    int unlock_index;
    int strict;
    signed char steps[4][2];
    int depth;
    int error;
    uint64_t lo, hi; /* key_of(board, off, 0), kept up to date step by step */
} Walk;

/* Add delta checkers of the mover at index i (or, for i = OFF_INDEX, to his borne-off count) to a key. */
static inline void key_add(uint64_t *lo, uint64_t *hi, int i, int64_t delta) {
    if (i < 16)
        *lo += (uint64_t)delta << (4 * i);
    else if (i < POINTS)
        *hi += (uint64_t)delta << (4 * (i - 16));
    else
        *hi += (uint64_t)delta << 32;
}

static inline void key_of(const int *board, int off, int rest_code, uint64_t *lo, uint64_t *hi) {
    uint64_t a = 0, b = 0;
    for (int i = 0; i < 16; i++) {
        int c = board[i] > 0 ? board[i] : 0;
        a |= (uint64_t)c << (4 * i);
    }
    for (int i = 16; i < POINTS; i++) {
        int c = board[i] > 0 ? board[i] : 0;
        b |= (uint64_t)c << (4 * (i - 16));
    }
    b |= (uint64_t)off << 32;
    b |= (uint64_t)rest_code << 36;
    *lo = a;
    *hi = b;
}

static inline int holds_start_quarter(const int *b) {
    return b[0] > 0 && b[1] > 0 && b[2] > 0 && b[3] > 0 && b[4] > 0 && b[5] > 0;
}

static inline int holds_before_opp_start(const int *b) {
    return b[13] > 0 && b[14] > 0 && b[15] > 0 && b[16] > 0 && b[17] > 0 && b[18] > 0;
}

/* Every nibble of x (n nibbles) is non-zero. */
static inline int all_nibbles(uint64_t x, int n) {
    uint64_t ones = 0;
    for (int k = 0; k < n; k++) ones |= (uint64_t)1 << (4 * k);
    return ((x | x >> 1 | x >> 2 | x >> 3) & ones) == ones;
}

/* R1 or R2 on a key: the mover holds all of his points 1-6, or all of 14-19. */
static inline int key_holds_six(uint64_t lo, uint64_t hi) {
    return all_nibbles(lo, 6) || (all_nibbles(lo >> 52, 3) && all_nibbles(hi, 3));
}

/* Record the end (lo, hi) reached by `depth` steps, the last of die d (shared with _tavli_walk.h). */
static int add_end(uint64_t lo, uint64_t hi, const signed char steps[4][2], int depth, int d) {
    int fresh;
    Slot *s = table_insert(lo, hi, &fresh);
    if (s == NULL) return -1;
    if (fresh) {
        if (ends_len == ends_cap) {
            int cap = ends_cap ? ends_cap * 2 : 1024;
            End *grown = (End *)realloc(ends, (size_t)cap * sizeof(End));
            if (grown == NULL) return -1;
            ends = grown;
            ends_cap = cap;
        }
        End *e = &ends[ends_len];
        e->lo = lo;
        e->hi = hi;
        memcpy(e->steps, steps, sizeof(e->steps));
        e->nsteps = depth;
        e->mask = depth == 1 ? 1 << d : 0;
        s->value = ends_len++;
        return 0;
    }
    End *e = &ends[s->value];
    if (depth == 1) {
        e->mask |= 1 << d;
    } else if (e->nsteps < depth) { /* overshooting bear-offs can leave one position in fewer steps */
        memcpy(e->steps, steps, sizeof(e->steps));
        e->nsteps = depth;
    }
    return 0;
}

/* left: dice still to play (in order), n of them. */
static void walk(Walk *w, int off, const int *left, int n) {
    int *board = w->board;
    int d = left[0];
    int unlocked = off > 0, home = 1, lowest = -1;
    for (int j = 0; j < POINTS; j++) {
        if (board[j] > 0) {
            if (lowest < 0) lowest = j;
            if (j < 18) home = 0;
            if (j >= w->unlock_index) unlocked = 1;
        }
    }
    int runner_locked = !unlocked && board[0] < CHECKERS - off;
    for (int i = lowest; i < POINTS; i++) {
        if (w->error) return;
        if (board[i] <= 0 || (i == 0 && runner_locked)) continue;
        int t = i + d;
        if (t < POINTS) {
            if (board[t] < 0) continue;
            if (w->strict) {
                board[i]--;
                board[t]++;
                int bad = holds_start_quarter(board);
                board[t]--;
                board[i]++;
                if (bad) continue;
            }
        } else if (!home || (t > POINTS && i > lowest)) {
            continue;
        }
        int new_off, dst;
        board[i]--;
        if (t >= POINTS) {
            t = OFF_INDEX;
            new_off = off + 1;
            dst = 25;
        } else {
            board[t]++;
            new_off = off;
            dst = t + 1;
        }
        w->steps[w->depth][0] = (signed char)(i + 1);
        w->steps[w->depth][1] = (signed char)dst;
        w->depth++;
        uint64_t lo = w->lo, hi = w->hi;
        key_add(&lo, &hi, i, -1);
        key_add(&lo, &hi, t, 1);
        uint64_t saved_lo = w->lo, saved_hi = w->hi;
        w->lo = lo;
        w->hi = hi;
        if (add_end(lo, hi, (const signed char(*)[2])w->steps, w->depth, d) < 0) {
            w->error = 1;
        } else if (n > 1 && new_off < CHECKERS) {
            int rest_code = (n - 1) * 8 + left[1];
            uint64_t shi = hi | ((uint64_t)rest_code << 36);
            int fresh;
            Slot *s = table_insert(lo, shi, &fresh);
            if (s == NULL) {
                w->error = 1;
            } else if (fresh) {
                walk(w, new_off, left + 1, n - 1);
            }
        }
        w->lo = saved_lo;
        w->hi = saved_hi;
        w->depth--;
        w->steps[w->depth][0] = 0;
        w->steps[w->depth][1] = 0;
        if (t != OFF_INDEX) board[t]--;
        board[i]++;
    }
}

/* ---- R3 ------------------------------------------------------------------------------------- */
static inline int opp_at(const int *board, int q) { return board[(q + 11) % 24]; }

/* How many distinct landing points the opponent has now (6 or more: R3 cannot bite). */
static int opponent_target_count(const int *board, int opp_off, int unlock_point) {
    int unlocked = opp_off > 0, home = 1;
    for (int q = 1; q <= 24; q++) {
        if (opp_at(board, q) < 0) {
            if (q >= unlock_point) unlocked = 1;
            if (q < 19) home = 0;
        }
    }
    if (home && opp_off < CHECKERS) return 5; /* he can always bear off: the Python set has 5 members */
    int runner_locked = !unlocked && -board[12] < CHECKERS - opp_off;
    int seen[POINTS] = {0};
    int count = 0;
    for (int q = 1; q <= 24; q++) {
        if (opp_at(board, q) >= 0 || (q == 1 && runner_locked)) continue;
        for (int d = 1; d <= 6; d++) {
            int t = q + d;
            if (t <= 24 && opp_at(board, t) <= 0) {
                int idx = (t + 11) % 24;
                if (!seen[idx]) {
                    seen[idx] = 1;
                    count++;
                }
            }
        }
    }
    return count;
}

static int opponent_can_move(const int *board, int opp_off, int unlock_point) {
    if (opp_off >= CHECKERS) return 1;
    int unlocked = opp_off > 0, home = 1, first = 0;
    for (int q = 1; q <= 24; q++) {
        if (opp_at(board, q) < 0) {
            if (!first) first = q;
            if (q >= unlock_point) unlocked = 1;
            if (q < 19) home = 0;
        }
    }
    int start_count = board[12] < 0 ? -board[12] : 0;
    int runner_locked = !unlocked && start_count < CHECKERS - opp_off;
    for (int q = 1; q <= 24; q++) {
        if (opp_at(board, q) >= 0) continue;
        if (q == 1 && runner_locked) continue;
        for (int d = 1; d <= 6; d++) {
            int t = q + d;
            if (t <= 24) {
                if (opp_at(board, t) <= 0) return 1;
            } else if (home && (t == 25 || q == first)) {
                return 1;
            }
        }
    }
    return 0;
}
