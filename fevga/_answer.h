/* The batch path of ``python -m fevga plays``: one request dict in, its whole answer line out, written
 * in C (the steps in canonical order, both sides' lists), byte for byte what fevga.cli.plays_line and
 * json.dumps(separators=(",", ":")) write. A request it does not take as plainly valid Fevga input
 * (an unknown key, a "game" other than "fevga", a wrong type, a rule broken) gets None: the Python path
 * answers it, errors included.
 * Included by _core.c (one extension module), after choose_ends.
 */

/* ---- the canonical step order: the C twin of fevga.steps.canonical_order ----------------------- */

/* fevga.steps.step_target: the index a step of d from index i lands on (OFF_INDEX = off), or -1. */
static int step_lands(int *board, int off, int i, int d, int unlock_index, int strict) {
    int unlocked = off > 0, home = 1, lowest = -1;
    for (int j = 0; j < POINTS; j++) {
        if (board[j] > 0) {
            if (lowest < 0) lowest = j;
            if (j < 18) home = 0;
            if (j >= unlock_index) unlocked = 1;
        }
    }
    int runner_locked = !unlocked && board[0] < CHECKERS - off;
    if (board[i] <= 0 || (i == 0 && runner_locked)) return -1;
    int t = i + d;
    if (t < OFF_INDEX) {
        if (board[t] < 0) return -1;
        if (strict) {
            board[i]--;
            board[t]++;
            int bad = holds_start_quarter(board);
            board[t]--;
            board[i]++;
            if (bad) return -1;
        }
        return t;
    }
    if (!home || (t > OFF_INDEX && i > lowest)) return -1;
    return OFF_INDEX;
}

/* fevga.steps.die_of: the die a step uses (a bear-off with no exact die uses the higher). */
static inline int die_of(int src, int dst, int a, int b) {
    int need = dst - src;
    if (dst != 25 || need == a || need == b) return need;
    return a > b ? a : b;
}

/* fevga.steps._smallest_valid: the first order of the sorted ``left`` steps that is legal step by
 * step from ``board``, written to ``out``; 0 when none is. */
static int smallest_valid(int *board, int off, signed char (*left)[2], int n, int a, int b, int unlock_index,
                          int strict, signed char (*out)[2]) {
    if (n == 0) return 1;
    for (int k = 0; k < n; k++) {
        int src = left[k][0], dst = left[k][1];
        if (k > 0 && left[k - 1][0] == src && left[k - 1][1] == dst) continue; /* sorted: equal steps are adjacent */
        int t = step_lands(board, off, src - 1, die_of(src, dst, a, b), unlock_index, strict);
        if (t < 0 || (t == OFF_INDEX ? 25 : t + 1) != dst) continue;
        signed char rest[4][2];
        for (int j = 0, r = 0; j < n; j++) {
            if (j == k) continue;
            rest[r][0] = left[j][0];
            rest[r][1] = left[j][1];
            r++;
        }
        board[src - 1]--;
        if (t != OFF_INDEX) board[t]++;
        int found = smallest_valid(board, off + (t == OFF_INDEX), rest, n - 1, a, b, unlock_index, strict, out + 1);
        if (t != OFF_INDEX) board[t]--;
        board[src - 1]++;
        if (found) {
            out[0][0] = (signed char)src;
            out[0][1] = (signed char)dst;
            return 1;
        }
    }
    return 0;
}

/* The steps of an end in canonical order (fevga.steps.canonical_order) from the start position. */
static void canonical_steps(const End *e, const int *start, int me_off, int a, int b, int unlock_point, int strict,
                            signed char (*out)[2]) {
    int n = e->nsteps;
    signed char sorted[4][2];
    memcpy(sorted, e->steps, sizeof(sorted));
    for (int k = 1; k < n; k++) { /* insertion sort by (from, to) */
        signed char src = sorted[k][0], dst = sorted[k][1];
        int j = k - 1;
        while (j >= 0 && (sorted[j][0] > src || (sorted[j][0] == src && sorted[j][1] > dst))) {
            sorted[j + 1][0] = sorted[j][0];
            sorted[j + 1][1] = sorted[j][1];
            j--;
        }
        sorted[j + 1][0] = src;
        sorted[j + 1][1] = dst;
    }
    memcpy(out, sorted, sizeof(sorted));
    if (n < 2) return;
    if (!strict) {
        if (sorted[0][0] != 1 || me_off > 0) return;
        for (int i = unlock_point - 1; i < POINTS; i++)
            if (start[i] > 0) return; /* unlocked: the runner lock cannot bite */
    }
    int board[POINTS];
    memcpy(board, start, sizeof(board));
    if (!smallest_valid(board, me_off, sorted, n, a, b, unlock_point - 1, strict, out)) memcpy(out, sorted, sizeof(sorted));
}

/* ---- writing the answer ------------------------------------------------------------------------ */
static char *answer_buf = NULL;
static size_t answer_cap = 0;

static inline char *put_text(char *p, const char *text) {
    while (*text) *p++ = *text++;
    return p;
}

static inline char *put_int(char *p, int v) { /* 0..25 */
    if (v >= 10) *p++ = (char)('0' + v / 10);
    *p++ = (char)('0' + v % 10);
    return p;
}

/* A JSON list of 24 counts, as json.dumps writes it compact: [15,0,...]. */
static char *put_counts(char *p, const int *counts) {
    *p++ = '[';
    for (int i = 0; i < POINTS; i++) {
        if (i) *p++ = ',';
        p = put_int(p, counts[i]);
    }
    *p++ = ']';
    return p;
}

/* ---- reading the request ------------------------------------------------------------------------ */
static PyObject *k_me, *k_opp, *k_me_off, *k_opp_off, *k_dice, *k_unlock, *k_strict, *k_game, *v_fevga;

/* An exact int lo..hi (not a bool, not a subclass) into *out; 0 when it is not one. */
static int small_int(PyObject *obj, int lo, int hi, int *out) {
    if (obj == NULL || !PyLong_CheckExact(obj)) return 0;
    int overflow;
    long v = PyLong_AsLongAndOverflow(obj, &overflow);
    if (overflow || v < lo || v > hi) return 0;
    *out = (int)v;
    return 1;
}

/* 24 exact ints 0..15 of an exact list. */
static int counts_of(PyObject *obj, int *out) {
    if (obj == NULL || !PyList_CheckExact(obj) || PyList_GET_SIZE(obj) != POINTS) return 0;
    for (int i = 0; i < POINTS; i++)
        if (!small_int(PyList_GET_ITEM(obj, i), 0, CHECKERS, &out[i])) return 0;
    return 1;
}

/* The request's fields when it is plainly valid Fevga input (only known keys; "game" only as "fevga"),
 * else 0. */
static int read_plain_request(PyObject *obj, int *board, int *opp, int *me_off, int *opp_off, int *a, int *b,
                              int *unlock_point, int *strict) {
    if (!PyDict_CheckExact(obj)) return 0;
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(obj, &pos, &key, &value)) {
        if (PyUnicode_CheckExact(key) && PyUnicode_Compare(key, k_game) == 0) {
            if (!PyUnicode_CheckExact(value) || PyUnicode_Compare(value, v_fevga) != 0) return 0;
            continue;
        }
        if (key != k_me && key != k_opp && key != k_me_off && key != k_opp_off && key != k_dice && key != k_unlock &&
            key != k_strict) {
            if (!PyUnicode_CheckExact(key)) return 0;
            if (!(PyUnicode_Compare(key, k_me) == 0 || PyUnicode_Compare(key, k_opp) == 0 ||
                  PyUnicode_Compare(key, k_me_off) == 0 || PyUnicode_Compare(key, k_opp_off) == 0 ||
                  PyUnicode_Compare(key, k_dice) == 0 || PyUnicode_Compare(key, k_unlock) == 0 ||
                  PyUnicode_Compare(key, k_strict) == 0))
                return 0;
        }
    }
    if (!counts_of(PyDict_GetItemWithError(obj, k_me), board)) return 0;
    if (!counts_of(PyDict_GetItemWithError(obj, k_opp), opp)) return 0;
    PyObject *item = PyDict_GetItemWithError(obj, k_me_off);
    *me_off = 0;
    if (item != NULL && !small_int(item, 0, CHECKERS, me_off)) return 0;
    item = PyDict_GetItemWithError(obj, k_opp_off);
    *opp_off = 0;
    if (item != NULL && !small_int(item, 0, CHECKERS, opp_off)) return 0;
    item = PyDict_GetItemWithError(obj, k_dice);
    if (item == NULL || !PyList_CheckExact(item) || PyList_GET_SIZE(item) != 2) return 0;
    if (!small_int(PyList_GET_ITEM(item, 0), 1, 6, a) || !small_int(PyList_GET_ITEM(item, 1), 1, 6, b)) return 0;
    item = PyDict_GetItemWithError(obj, k_unlock);
    *unlock_point = 13;
    if (item != NULL && !(small_int(item, 13, 14, unlock_point))) return 0;
    item = PyDict_GetItemWithError(obj, k_strict);
    *strict = 0;
    if (item == Py_True) {
        *strict = 1;
    } else if (item != NULL && item != Py_False) {
        return 0;
    }
    int mine = *me_off, theirs = *opp_off;
    for (int j = 0; j < POINTS; j++) {
        mine += board[j];
        theirs += opp[j];
    }
    if (mine != CHECKERS || theirs != CHECKERS) return 0;
    for (int j = 0; j < POINTS; j++) { /* the opponent's point j + 1 is my index (j + 12) % 24 */
        if (!opp[j]) continue;
        int i = (j + 12) % POINTS;
        if (board[i]) return 0;
        board[i] = -opp[j];
    }
    return 1;
}

/* plays_answer(request) -> str | None: the answer line of ``python -m fevga plays`` (newline included). */
static PyObject *core_plays_answer(PyObject *self, PyObject *obj) {
    int start[POINTS], opp[POINTS], board[POINTS], me[POINTS];
    int me_off, opp_off, a, b, unlock_point, strict;
    if (!read_plain_request(obj, start, opp, &me_off, &opp_off, &a, &b, &unlock_point, &strict)) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NONE;
    }
    End *chosen;
    int n = choose_ends(start, me_off, opp_off, a, b, unlock_point, strict, &chosen);
    if (n < 0) return NULL;
    if (n == 0) return PyUnicode_FromString("{\"plays\":[]}\n");
    /* the opponent's side is the same in every play (no hitting in Fevga): write it once */
    char tail[160];
    char *t = put_text(tail, ",\"opp\":");
    t = put_counts(t, opp);
    t = put_text(t, ",\"opp_off\":");
    t = put_int(t, opp_off);
    *t++ = '}';
    size_t tail_len = (size_t)(t - tail);
    /* an entry: steps (4 of at most 10 characters), me (24 of at most 3), me_off, the tail */
    size_t need = 16 + (size_t)n * (12 + 44 + 8 + 76 + 12 + tail_len);
    if (need > answer_cap) {
        char *grown = (char *)realloc(answer_buf, need);
        if (grown == NULL) {
            free(chosen);
            return PyErr_NoMemory();
        }
        answer_buf = grown;
        answer_cap = need;
    }
    char *p = put_text(answer_buf, "{\"plays\":[");
    for (int k = 0; k < n; k++) {
        End *e = &chosen[k];
        signed char steps[4][2];
        canonical_steps(e, start, me_off, a, b, unlock_point, strict, steps);
        p = put_text(p, k ? ",{\"steps\":\"" : "{\"steps\":\"");
        for (int s = 0; s < e->nsteps; s++) {
            if (s) *p++ = ' ';
            p = put_int(p, steps[s][0]);
            *p++ = '/';
            p = steps[s][1] == 25 ? put_text(p, "off") : put_int(p, steps[s][1]);
        }
        p = put_text(p, "\",\"me\":");
        decode_board(e, start, board);
        for (int i = 0; i < POINTS; i++) me[i] = board[i] > 0 ? board[i] : 0;
        p = put_counts(p, me);
        p = put_text(p, ",\"me_off\":");
        p = put_int(p, (int)((e->hi >> 32) & 15));
        memcpy(p, tail, tail_len);
        p += tail_len;
    }
    p = put_text(p, "]}\n");
    free(chosen);
    return PyUnicode_DecodeASCII(answer_buf, (Py_ssize_t)(p - answer_buf), NULL);
}

/* Interned request keys, made once by PyInit__core. */
static int answer_init(void) {
    k_me = PyUnicode_InternFromString("me");
    k_opp = PyUnicode_InternFromString("opp");
    k_me_off = PyUnicode_InternFromString("me_off");
    k_opp_off = PyUnicode_InternFromString("opp_off");
    k_dice = PyUnicode_InternFromString("dice");
    k_unlock = PyUnicode_InternFromString("unlock_point");
    k_strict = PyUnicode_InternFromString("strict_start_quarter");
    k_game = PyUnicode_InternFromString("game");
    v_fevga = PyUnicode_InternFromString("fevga");
    return k_me && k_opp && k_me_off && k_opp_off && k_dice && k_unlock && k_strict && k_game && v_fevga ? 0 : -1;
}
