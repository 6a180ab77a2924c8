/* The network's inputs (fevga/ai/encoding.py, same layout and the same float64 values), computed
 * in C for many positions at once into one bytes buffer the caller views with numpy.frombuffer.
 * Included by _core.c (one extension module).
 */
#define PER_SIDE (4 * POINTS + 8)
#define N_INPUTS (2 * PER_SIDE + 1)

/* One side: mine[j] and other[j] are counts on each side's own track (index j = point j + 1). */
static void encode_side(const int *mine, const int *other, int off, double *out) {
    double pips = 0.0;
    int any_ahead_of_12 = 0, home = 0;
    for (int j = 0; j < POINTS; j++) {
        int m = mine[j];
        out[4 * j] = m >= 1 ? 1.0 : 0.0;
        out[4 * j + 1] = m >= 2 ? 1.0 : 0.0;
        out[4 * j + 2] = m >= 3 ? 1.0 : 0.0;
        out[4 * j + 3] = m > 3 ? (double)(m - 3) / 2.0 : 0.0;
        pips += (double)m * (double)(POINTS - j);
        if (j >= 12 && m > 0) any_ahead_of_12 = 1;
        if (j >= 18) home += m;
    }
    out[96] = (double)off / 15.0;
    out[97] = pips / 200.0;
    out[98] = (off > 0 || any_ahead_of_12) ? 1.0 : 0.0;
    out[99] = (double)mine[0] / 15.0;
    out[100] = (double)(home + off) / 15.0;
    int rear = POINTS;
    for (int j = 0; j < POINTS; j++) {
        if (other[j] > 0) {
            rear = j;
            break;
        }
    }
    int near = 0, ahead = 0, run = 0, best = 0;
    for (int j = 0; j < POINTS; j++) {
        int made = mine[(j + 12) % POINTS] > 0; /* my checkers on the other's point j + 1 */
        int is_ahead = made && rear < j;
        int is_near = is_ahead && rear + 12 >= j;
        ahead += is_ahead;
        near += is_near;
        run = is_near ? run + 1 : 0;
        if (run > best) best = run;
    }
    out[101] = (double)near / 6.0;
    out[102] = (double)best / 6.0;
    out[103] = (double)ahead / 12.0;
}

/* Inputs for a signed board seen by the player on roll. */
static void encode_one(const int *board, int me_off, int opp_off, double *out) {
    int mine[POINTS], theirs[POINTS];
    for (int j = 0; j < POINTS; j++) {
        mine[j] = board[j] > 0 ? board[j] : 0;
        int t = board[(j + 12) % POINTS];
        theirs[j] = t < 0 ? -t : 0;
    }
    encode_side(mine, theirs, me_off, out);
    encode_side(theirs, mine, opp_off, out + PER_SIDE);
    out[N_INPUTS - 1] = (out[103] == 0.0 && out[PER_SIDE + 103] == 0.0) ? 1.0 : 0.0;
}

/* encode(positions, flip, out): write float64 rows of N_INPUTS into ``out`` (a writable C-contiguous
 * buffer of len(positions) * N_INPUTS doubles, e.g. a numpy array); with flip, each position is
 * first seen by the other player (a play's result as the opponent on roll sees it). */
static PyObject *core_encode(PyObject *self, PyObject *args) {
    PyObject *seq, *target;
    int flip;
    if (!PyArg_ParseTuple(args, "OpO", &seq, &flip, &target)) return NULL;
    PyObject *fast = PySequence_Fast(seq, "positions must be a sequence");
    if (fast == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    Py_buffer view;
    if (PyObject_GetBuffer(target, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        Py_DECREF(fast);
        return NULL;
    }
    if (view.len != n * N_INPUTS * (Py_ssize_t)sizeof(double)) {
        PyBuffer_Release(&view);
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "out must hold %zd float64 values", n * N_INPUTS);
        return NULL;
    }
    double *out = (double *)view.buf;
    int board[POINTS], turned[POINTS];
    for (Py_ssize_t k = 0; k < n; k++) {
        int me_off, opp_off;
        if (read_position(PySequence_Fast_GET_ITEM(fast, k), board, &me_off, &opp_off) < 0) {
            PyBuffer_Release(&view);
            Py_DECREF(fast);
            return NULL;
        }
        if (flip) {
            for (int i = 0; i < POINTS; i++) turned[i] = -board[(i + 12) % POINTS];
            encode_one(turned, opp_off, me_off, out + k * N_INPUTS);
        } else {
            encode_one(board, me_off, opp_off, out + k * N_INPUTS);
        }
    }
    PyBuffer_Release(&view);
    Py_DECREF(fast);
    Py_RETURN_NONE;
}
