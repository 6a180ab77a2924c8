/* The search of the compiled Portes and Plakoto move generator, in plain C (no Python objects).
 *
 * It walks every order of steps depth-first exactly as fevga.variants.tavli.explore does (same
 * checkers tried in the same order, same step rule as PortesSteps / PlakotoSteps.landing), so the
 * ends come out in the same order with the same recorded steps. It shares _walk.h's visited-state
 * table and its `ends` array. Included by _core.c after _walk.h.
 *
 * The 128-bit key of a position, given the position the turn started from:
 *   lo: the mover's counts on points 1-16 (4 bits each);
 *   hi: bits 0-31 his counts on 17-24, 32-35 his borne-off count, 36-37 the dice left (0 for an
 *       end, see tavli_rest_code), 38-61 (Portes) which of the opponent's blots were hit.
 * That is the whole position: the opponent does not move during the turn, so in Portes his side is
 * the start less the hit blots (his bar grows by as many) and the mover's bar is what the board and
 * the borne-off count leave of 15; in Plakoto a lone opposing checker is pinned exactly while the
 * mover has a checker on its point, and the mover's own pinned checkers cannot change.
 */

#define TAVLI_HIT_SHIFT 38

typedef struct {
    int board[POINTS]; /* signed, the mover positive (in Plakoto: the holder's count) */
    int pins[POINTS];  /* Plakoto: +1 a checker of the mover's pinned there, -1 one of the opponent's */
    int plakoto;       /* 0 Portes, 1 Plakoto */
    int bar;           /* Portes: the mover's checkers on the bar */
    int off;           /* the mover's borne-off count */
    int first_die;     /* the first die of the roll (a of (a, b)), for the dice-left code */
    int doubles;
    signed char steps[4][2];
    int depth;
    int error;
    uint64_t lo, hi; /* the key of the current position, kept up to date step by step */
} TavliWalk;

/* The dice still to play after this step, as 1-3 (0 is an end): a double's count, or which die. */
static inline int tavli_rest_code(const TavliWalk *w, const int *left, int n) {
    return w->doubles ? n - 1 : (left[1] == w->first_die ? 1 : 2);
}

/* What every step from this state shares (PortesSteps.facts / PlakotoSteps.facts). */
typedef struct {
    int home;   /* all 15 on 19-24 or off (Portes: none on the bar; Plakoto: the pinned ones too) */
    int pinned; /* Plakoto: a checker of the mover's is pinned */
    int lowest; /* index of the rearmost (free) checker of the mover's, -1 if none */
} TavliFacts;

static inline TavliFacts tavli_facts(const TavliWalk *w) {
    TavliFacts f = {1, 0, -1};
    const int *b = w->board;
    if (w->plakoto) {
        for (int i = 0; i < POINTS; i++) {
            if (w->pins[i] == 1) {
                f.pinned = 1;
                if (i < 18) f.home = 0;
            } else if (b[i] > 0) {
                if (f.lowest < 0) f.lowest = i;
                if (i < 18) f.home = 0;
            }
        }
        return f;
    }
    for (int i = 0; i < POINTS; i++) {
        if (b[i] > 0) {
            f.lowest = i;
            break;
        }
    }
    f.home = w->bar == 0 && (f.lowest < 0 || f.lowest >= 18);
    return f;
}

/* The point (1-24, 25 off) a step of d from point p (0 the bar) reaches, or -1. The caller has
 * checked that p holds a free checker of the mover's (or is the bar with one on it). */
static inline int tavli_landing(const TavliWalk *w, int p, int d, const TavliFacts *f) {
    int t = p + d;
    if (t <= POINTS) {
        int v = w->board[t - 1];
        if (v < -1 || (v < 0 && w->plakoto && w->pins[t - 1] == 1)) return -1; /* blocked, own pinned */
        return t;
    }
    if (!f->home || f->pinned) return -1;
    if (t > 25 && p - 1 > f->lowest) return -1; /* overshoot with a checker behind */
    return 25;
}

/* Move a checker p -> t (judged legal), updating the key. Returns the flags of the Python apply:
 * 1 the landing hit or pinned, 2 (Plakoto) leaving p freed the checker pinned under it. */
static inline int tavli_apply(TavliWalk *w, int p, int t) {
    int *b = w->board, flag = 0;
    if (p == 0) {
        w->bar--;
    } else {
        int i = p - 1;
        b[i]--;
        key_add(&w->lo, &w->hi, i, -1);
        if (w->plakoto && b[i] == 0 && w->pins[i] == -1) {
            b[i] = -1;
            w->pins[i] = 0;
            flag = 2;
        }
    }
    if (t == 25) {
        w->off++;
        key_add(&w->lo, &w->hi, OFF_INDEX, 1);
        return flag;
    }
    key_add(&w->lo, &w->hi, t - 1, 1);
    if (b[t - 1] == -1) {
        b[t - 1] = 1;
        if (w->plakoto)
            w->pins[t - 1] = -1;
        else
            w->hi |= (uint64_t)1 << (TAVLI_HIT_SHIFT + t - 1);
        return flag | 1;
    }
    b[t - 1]++;
    return flag;
}

/* Take back tavli_apply(w, p, t) that returned flag (the caller restores the key). */
static inline void tavli_undo(TavliWalk *w, int p, int t, int flag) {
    int *b = w->board;
    if (t == 25) {
        w->off--;
    } else if (flag & 1) {
        b[t - 1] = -1;
        if (w->plakoto) w->pins[t - 1] = 0;
    } else {
        b[t - 1]--;
    }
    if (p == 0) {
        w->bar++;
        return;
    }
    if (flag & 2) {
        b[p - 1] = 0;
        w->pins[p - 1] = -1;
    }
    b[p - 1]++;
}

/* left: dice still to play (in order), n of them. */
static void tavli_walk(TavliWalk *w, const int *left, int n) {
    int d = left[0];
    TavliFacts f = tavli_facts(w);
    int first = w->bar ? 0 : (f.lowest < 0 ? POINTS + 1 : f.lowest + 1);
    int last = w->bar ? 0 : POINTS;
    for (int p = first; p <= last; p++) {
        if (w->error) return;
        if (p && w->board[p - 1] <= 0) continue;
        int t = tavli_landing(w, p, d, &f);
        if (t < 0) continue;
        uint64_t saved_lo = w->lo, saved_hi = w->hi;
        int flag = tavli_apply(w, p, t);
        w->steps[w->depth][0] = (signed char)p;
        w->steps[w->depth][1] = (signed char)t;
        w->depth++;
        if (add_end(w->lo, w->hi, (const signed char(*)[2])w->steps, w->depth, d) < 0) {
            w->error = 1;
        } else if (n > 1 && w->off < CHECKERS) {
            uint64_t shi = w->hi | ((uint64_t)tavli_rest_code(w, left, n) << 36);
            int fresh;
            Slot *s = table_insert(w->lo, shi, &fresh);
            if (s == NULL) {
                w->error = 1;
            } else if (fresh) {
                tavli_walk(w, left + 1, n - 1);
            }
        }
        w->depth--;
        w->steps[w->depth][0] = 0;
        w->steps[w->depth][1] = 0;
        tavli_undo(w, p, t, flag);
        w->lo = saved_lo;
        w->hi = saved_hi;
    }
}

/* Walk both orders of the dice (one of a double) from the state in w; 0, or -1 out of memory. */
static int tavli_search(TavliWalk *w, int a, int b) {
    w->first_die = a;
    w->doubles = a == b;
    w->depth = 0;
    w->error = 0;
    memset(w->steps, 0, sizeof(w->steps));
    key_of(w->board, w->off, 0, &w->lo, &w->hi);
    if (table_reset() < 0) return -1;
    ends_len = 0;
    if (a == b) {
        int order[4] = {a, a, a, a};
        tavli_walk(w, order, 4);
    } else {
        int ab[2] = {a, b}, ba[2] = {b, a};
        tavli_walk(w, ab, 2);
        if (!w->error) tavli_walk(w, ba, 2);
    }
    return w->error ? -1 : 0;
}

/* Rebuild an end's position from its key and the start: board, pins, bars and borne-off count. */
static void tavli_decode(const End *e, const TavliWalk *start, int start_opp_bar, int *board, int *pins, int *bar,
                         int *opp_bar, int *off) {
    uint64_t hit = (e->hi >> TAVLI_HIT_SHIFT) & 0xFFFFFF;
    int mine = 0, hits = 0;
    for (int i = 0; i < POINTS; i++) {
        int c = i < 16 ? (int)((e->lo >> (4 * i)) & 15) : (int)((e->hi >> (4 * (i - 16))) & 15);
        int s = start->board[i], sp = start->plakoto ? start->pins[i] : 0;
        mine += c;
        if (start->plakoto) {
            int opp_lone = sp == -1 || (s == -1 && sp == 0);
            if (c > 0) {
                board[i] = c;
                pins[i] = opp_lone ? -1 : 0;
            } else if (sp == -1) {
                board[i] = -1;
                pins[i] = 0;
            } else {
                board[i] = s < 0 ? s : 0;
                pins[i] = sp;
            }
        } else {
            int was_hit = (int)((hit >> i) & 1);
            hits += was_hit;
            board[i] = c > 0 ? c : (s < 0 && !was_hit ? s : 0);
            pins[i] = 0;
        }
    }
    *off = (int)((e->hi >> 32) & 15);
    *bar = start->plakoto ? 0 : CHECKERS - mine - *off;
    *opp_bar = start_opp_bar + hits;
}
