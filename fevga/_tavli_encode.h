/* The Portes and Plakoto network inputs (fevga/ai/encoding_portes.py and encoding_plakoto.py, same
 * layout and values) computed in C for many positions at once into one float64 buffer. The numpy
 * code is the reference and documents each input. Included by _core.c after _tavli_core.h (it reads
 * positions with read_tavli).
 */
#define PORTES_SIDE (4 * POINTS + 11)
#define PORTES_INPUTS (2 * PORTES_SIDE + 1)
#define PLAKOTO_SIDE (4 * POINTS + 24 + 16)
#define PLAKOTO_INPUTS (2 * PLAKOTO_SIDE + 1)
#define N_ROLLS 21

static uint32_t reach_mask[POINTS + 1]; /* distance d -> the rolls (bits, a <= b order) that travel d */
static double roll_weight[N_ROLLS];

static void tavli_encode_tables(void) {
    if (roll_weight[0] != 0.0) return;
    int r = 0;
    for (int a = 1; a <= 6; a++) {
        for (int b = a; b <= 6; b++, r++) {
            roll_weight[r] = (a == b ? 1.0 : 2.0) / 36.0;
            int dists[4] = {a, b, a + b, 0};
            if (a == b) {
                dists[1] = 2 * a;
                dists[2] = 3 * a;
                dists[3] = 4 * a;
            }
            for (int k = 0; k < 4; k++)
                if (dists[k]) reach_mask[dists[k]] |= (uint32_t)1 << r;
        }
    }
}

/* gnubg-style units of one side's counts: >= 1, >= 2, >= 3, (count - 3) / 2 per point. */
static void tavli_units(const int *mine, double *out) {
    for (int j = 0; j < POINTS; j++) {
        int m = mine[j];
        out[4 * j] = m >= 1 ? 1.0 : 0.0;
        out[4 * j + 1] = m >= 2 ? 1.0 : 0.0;
        out[4 * j + 2] = m >= 3 ? 1.0 : 0.0;
        out[4 * j + 3] = m > 3 ? (double)(m - 3) / 2.0 : 0.0;
    }
}

/* The share of the 36 rolls with which the other side (moving down; hitters[24] his bar) reaches
 * one of my blots, blocks ignored (encoding_tavli.shots). */
static double tavli_shots(const int *mine, const int *hitters) {
    uint32_t hit = 0;
    for (int i = 0; i < POINTS; i++) {
        if (mine[i] != 1) continue;
        for (int j = i + 1; j <= POINTS; j++)
            if (hitters[j] > 0) hit |= reach_mask[j - i];
    }
    double share = 0.0;
    for (int r = 0; r < N_ROLLS; r++)
        if (hit >> r & 1) share += roll_weight[r];
    return share;
}

/* Length of the longest run of flags (the first when two are as long) and its last index (-1). */
static int tavli_longest_run(const int *flags, int *end) {
    int run = 0, best = 0;
    *end = -1;
    for (int j = 0; j < POINTS; j++) {
        run = flags[j] ? run + 1 : 0;
        if (run > best) {
            best = run;
            *end = j;
        }
    }
    return best;
}

static int first_index(const int *counts) {
    for (int j = 0; j < POINTS; j++)
        if (counts[j] > 0) return j;
    return POINTS;
}

static int last_index(const int *counts) {
    for (int j = POINTS - 1; j >= 0; j--)
        if (counts[j] > 0) return j;
    return -1;
}

/* One Portes side (encoding_portes._side): my counts on my track, his on my numbering. */
static void portes_side(const int *mine, const int *other, int bar, int other_bar, int off, double *out) {
    tavli_units(mine, out);
    int pips = 25 * bar, home = off, blots = 0, made = 0, made_home = 0, flags[POINTS];
    for (int j = 0; j < POINTS; j++) {
        pips += mine[j] * (POINTS - j);
        if (j >= 18) home += mine[j];
        blots += mine[j] == 1;
        flags[j] = mine[j] >= 2;
        made += flags[j];
        if (j >= 18) made_home += flags[j];
    }
    out[96] = (double)bar / 2.0;
    out[97] = bar > 0 ? 1.0 : 0.0;
    out[98] = (double)off / 15.0;
    out[99] = (double)pips / 200.0;
    out[100] = (double)home / 15.0;
    out[101] = (double)blots / 15.0;
    int hitters[POINTS + 1];
    memcpy(hitters, other, sizeof(int) * POINTS);
    hitters[POINTS] = other_bar;
    out[102] = tavli_shots(mine, hitters);
    out[103] = (double)made / 12.0;
    out[104] = (double)made_home / 6.0;
    int end, run = tavli_longest_run(flags, &end);
    out[105] = (double)run / 6.0;
    int trapped = other_bar;
    for (int j = end + 1; j < POINTS; j++) trapped += other[j];
    out[106] = run >= 4 ? (double)trapped / 15.0 : 0.0;
}

/* One Plakoto side (encoding_plakoto._side): my free checkers, my pinned ones, his free ones. */
static void plakoto_side(const int *mine, const int *pinned, const int *other, int off, double *out) {
    tavli_units(mine, out);
    int pips = 0, home = off, npinned = 0, blots = 0, blocked[POINTS], ahead[POINTS], n_ahead = 0;
    int rear = first_index(mine), start_quarter = 0, mine_home = 0, made = 0;
    for (int j = 0; j < POINTS; j++) {
        int all = mine[j] + pinned[j];
        out[96 + j] = pinned[j] ? 1.0 : 0.0;
        pips += all * (POINTS - j);
        if (j >= 18) {
            home += all;
            mine_home += mine[j];
        }
        if (j < 6) start_quarter += all;
        npinned += pinned[j];
        blots += mine[j] == 1;
        made += mine[j] >= 2;
        blocked[j] = other[j] >= 2 || (other[j] >= 1 && pinned[j] > 0);
        ahead[j] = blocked[j] && j > rear;
        n_ahead += ahead[j];
    }
    out[120] = pinned[0] ? 1.0 : 0.0;
    out[121] = mine[0] == 1 && pinned[0] == 0 ? 1.0 : 0.0;
    out[122] = (double)mine[0] / 15.0;
    out[123] = (double)off / 15.0;
    out[124] = (double)pips / 200.0;
    out[125] = (double)home / 15.0;
    out[126] = (double)npinned / 15.0;
    out[127] = home == 15 && npinned == 0 ? 1.0 : 0.0;
    out[128] = (double)blots / 15.0;
    int hitters[POINTS + 1];
    memcpy(hitters, other, sizeof(int) * POINTS);
    hitters[POINTS] = 0;
    out[129] = tavli_shots(mine, hitters);
    out[130] = (double)n_ahead / 12.0;
    int end, run = tavli_longest_run(ahead, &end);
    out[131] = (double)run / 6.0;
    int trapped = 0;
    for (int i = 0; i < POINTS - 6; i++) {
        int walled = 1;
        for (int k = i + 1; k <= i + 6; k++) walled &= blocked[k];
        if (walled) trapped += mine[i];
    }
    out[132] = (double)trapped / 15.0;
    out[133] = (double)mine_home / 15.0;
    out[134] = (double)start_quarter / 15.0;
    out[135] = (double)made / 12.0;
}

/* The inputs of one position (w, mover's view; the mover on roll) into out. */
static void encode_tavli_one(const TavliWalk *w, int opp_off, int opp_bar, double *out) {
    int mine[POINTS], other[POINTS], mine2[POINTS], other2[POINTS];
    for (int j = 0; j < POINTS; j++) {
        mine[j] = w->board[j] > 0 ? w->board[j] : 0;
        other[j] = w->board[j] < 0 ? -w->board[j] : 0;
    }
    for (int j = 0; j < POINTS; j++) {
        mine2[j] = other[POINTS - 1 - j];
        other2[j] = mine[POINTS - 1 - j];
    }
    if (!w->plakoto) {
        portes_side(mine, other, w->bar, opp_bar, w->off, out);
        portes_side(mine2, other2, opp_bar, w->bar, opp_off, out + PORTES_SIDE);
        int rear = w->bar > 0 ? -1 : first_index(mine);
        int front = opp_bar > 0 ? POINTS : last_index(other);
        out[PORTES_INPUTS - 1] = rear > front ? 1.0 : 0.0;
        return;
    }
    int pinned[POINTS], pinned2[POINTS], any_pin = 0;
    for (int j = 0; j < POINTS; j++) {
        pinned[j] = w->pins[j] == 1;
        pinned2[j] = w->pins[POINTS - 1 - j] == -1;
        any_pin |= w->pins[j] != 0;
    }
    plakoto_side(mine, pinned, other, w->off, out);
    plakoto_side(mine2, pinned2, other2, opp_off, out + PLAKOTO_SIDE);
    int contact = any_pin || first_index(mine) < last_index(other);
    out[PLAKOTO_INPUTS - 1] = contact ? 0.0 : 1.0;
}

/* encode_tavli(positions, flip, out): the inputs of Portes or Plakoto positions (all of one game)
 * into ``out``, a writable C-contiguous buffer of len(positions) rows of that game's inputs; with
 * flip, each position is first seen by the other player (a play's result as the opponent on roll
 * sees it). */
static PyObject *core_encode_tavli(PyObject *self, PyObject *args) {
    PyObject *seq, *target;
    int flip;
    if (!PyArg_ParseTuple(args, "OpO", &seq, &flip, &target)) return NULL;
    if (tavli_not_ready()) return NULL;
    tavli_encode_tables();
    PyObject *fast = PySequence_Fast(seq, "positions must be a sequence");
    if (fast == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    Py_buffer view;
    if (PyObject_GetBuffer(target, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        Py_DECREF(fast);
        return NULL;
    }
    double *out = (double *)view.buf;
    int game = -1, width = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        TavliWalk w;
        int opp_off, opp_bar;
        if (read_tavli(PySequence_Fast_GET_ITEM(fast, k), &w, &opp_off, &opp_bar) < 0) goto fail;
        if (game < 0) {
            game = w.plakoto;
            width = game ? PLAKOTO_INPUTS : PORTES_INPUTS;
            if (view.len != n * width * (Py_ssize_t)sizeof(double)) {
                PyErr_Format(PyExc_ValueError, "out must hold %zd float64 values", n * width);
                goto fail;
            }
        } else if (w.plakoto != game) {
            PyErr_SetString(PyExc_ValueError, "positions of one game only (Portes or Plakoto)");
            goto fail;
        }
        if (flip) {
            TavliWalk turned = w;
            for (int i = 0; i < POINTS; i++) {
                turned.board[i] = -w.board[POINTS - 1 - i];
                turned.pins[i] = -w.pins[POINTS - 1 - i];
            }
            turned.bar = opp_bar;
            turned.off = opp_off;
            encode_tavli_one(&turned, w.off, w.bar, out + k * width);
        } else {
            encode_tavli_one(&w, opp_off, opp_bar, out + k * width);
        }
    }
    if (n == 0 && view.len != 0) {
        PyErr_SetString(PyExc_ValueError, "out must be empty for no positions");
        goto fail;
    }
    PyBuffer_Release(&view);
    Py_DECREF(fast);
    Py_RETURN_NONE;
fail:
    PyBuffer_Release(&view);
    Py_DECREF(fast);
    return NULL;
}
